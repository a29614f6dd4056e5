package main

import (
	"fmt"
	"io"
)

// doacross measures a doacross loop: bench/doacross.c, a 2-D wavefront
// whose every cell waits for its two predecessors with "ordered
// depend(sink: ...)" and releases its successors with "ordered
// depend(source)": two standalone ordered events per iteration.
func (b *bench) doacross(w io.Writer) {
	b.compile("doacross", "bench/doacross.c", "orig", "")
	b.compile("doacross", "bench/doacross.c", "inst", b.gopari)
	args := []string{"1000", "2"}
	if *quick {
		args = []string{"300", "2"}
	}
	for _, threads := range []int{1, 2} {
		p := b.pairedRuns("doacross", modes, threads, *pairs, "iteration", args...)
		fmt.Fprintf(w, "## Doacross stencil %sx%s, %s sweeps, %d thread(s): two standalone ordered events per iteration\n\n", args[0], args[0], args[1], threads)
		p.table(w, "iteration", threads)
	}
}
