package main

import (
	"flag"
	"fmt"
	"io"
)

var barrierBase = flag.String("barrier-base", "a798e3f", "the revision whose gopari the barrier part compares with (the last before the measured closing barrier)")

// closingBarrier measures what a parallel region costs in profile mode since
// gopari measures the closing barrier of every parallel region (each
// thread's wait, from the end of its body and the join): bench/par.c,
// regions that do nothing, uninstrumented, through the gopari of
// -barrier-base, and through this one, in alternating rounds at 1 and 2
// threads. The difference of the two instrumented builds is what the
// closing barrier's measurement costs per region (with whatever else
// changed in between).
func (b *bench) closingBarrier(w io.Writer) {
	fmt.Fprintf(w, "## Closing barrier: a parallel region in profile mode, this gopari against %s\n\n", *barrierBase)
	base := b.baseline(w, *barrierBase)
	if base == "" {
		return
	}
	b.compile("par", "bench/par.c", "orig", "")
	b.compile("par", "bench/par.c", "inst", b.gopari)
	b.compile("par", "bench/par.c", "base", base)
	n := "200000"
	if *quick {
		n = "20000"
	}
	fmt.Fprintf(w, "ns per empty parallel region (median of %d rounds); added: median of the per-round differences.\n\n", 3**pairs)
	fmt.Fprintf(w, "| threads | uninstrumented | %s, added | this gopari, added | the closing barrier (this − %s) |\n|---:|---:|---:|---:|---:|\n", *barrierBase, *barrierBase)
	for _, threads := range []int{1, 2} {
		per := b.perUnit("par", []string{"orig", "base", "profile"}, threads, 3**pairs, "ns/region", n)
		cost := added(per, "profile", "base")
		fmt.Fprintf(w, "| %d | %.1f | %+.1f | %+.1f | %+.1f |\n", threads, median(per["orig"]), added(per, "base", "orig"),
			added(per, "profile", "orig"), cost)
	}
	fmt.Fprintln(w)
}
