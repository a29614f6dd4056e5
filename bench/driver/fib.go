package main

import (
	"fmt"
	"io"
)

// fib measures the fine-grained task code of issue 12: bench/fib.c, a task
// for each recursive call and a taskwait in every call, no cutoff, in
// ids and profile mode against the uninstrumented build, paired, at 1
// and 2 threads. At 1 thread the CPU time is the figure to judge (one
// thread does all the work); at 2 threads the ratio of wall times.
func (b *bench) fib(w io.Writer) {
	b.compile("fib", "bench/fib.c", "orig", "")
	b.compile("fib", "bench/fib.c", "inst", b.gopari)
	n := "30"
	if *quick {
		n = "24"
	}
	for _, threads := range []int{1, 2} {
		p := b.pairedRuns("fib", modes, threads, *pairs, "task", n)
		fmt.Fprintf(w, "## fib(%s), task and taskwait per call, %d thread(s)\n\n", n, threads)
		p.table(w, "task", threads)
		if threads == 1 {
			d := added(p.cpu, "profile", "orig")
			b.check("profile mode, fib, 1 thread", "<= 20 ns/task", fmt.Sprintf("%+.2f ns/task (CPU)", d), d <= 20, "")
		} else {
			r := p.ratio("profile")
			b.check("profile mode, fib, 2 threads", "<= +10%", fmt.Sprintf("%+.1f%%", (r-1)*100), r <= 1.10, "")
		}
	}
}
