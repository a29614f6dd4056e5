package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"gopari/internal/experiment"
	"gopari/internal/profile"
)

// proxy measures bench/proxy/proxy.cc (parts b and c of functions),
// built with g++ and, where it works, with clang++-14, whose
// -finstrument-functions-after-inlining leaves inlined functions out.
func (b *bench) proxy(w io.Writer) {
	b.buildWith("count", "o", "gcc", "-O2", "-c", "bench/proxy/count.c")
	// The counting build leaves system headers out, as --functions does.
	b.proxyWith(w, "g++", "", "-finstrument-functions", "-finstrument-functions-exclude-file-list=/usr/")
	probe := exec.Command("clang++-14", "-fopenmp", "-x", "c++", "-", "-o", filepath.Join(b.work, "clang-works"))
	probe.Stdin = strings.NewReader("#include <omp.h>\nint main() { return omp_get_max_threads() < 1; }\n")
	if out, err := probe.CombinedOutput(); err != nil {
		fmt.Fprintf(w, "No clang++-14 build: %v %s\n\n", err, out)
	} else {
		b.proxyWith(w, "clang++-14", "clang.", "-finstrument-functions-after-inlining")
	}
	b.proxyMemory(w)
}

// proxyWith measures the proxy built with compiler cxx, its builds named
// pre+"orig", pre+"fn", pre+"filter", and its counting build made with
// the instrumentation flags count.
func (b *bench) proxyWith(w io.Writer, cxx, pre string, count ...string) {
	edge, steps := "40", "50"
	if *quick {
		edge, steps = "20", "20"
	}
	args := []string{edge, steps}
	cc := append([]string{cxx, "-g", "-O2", "-fopenmp"}, layout...)
	src := "bench/proxy/proxy.cc"
	b.buildWith("proxy", pre+"orig", append(cc, src)...)
	b.buildWith("proxy", pre+"fn", append(append([]string{b.gopari, "cc", "--functions"}, cc...), src)...)
	b.buildWith("proxy", pre+"count", append(append(cc, count...), src, b.exe["count.o"])...)
	filter, from, fnExp := b.proxyFilter(pre, args...)
	b.buildWith("proxy", pre+"filter", append(append([]string{b.gopari, "cc", "--functions", "--filter", filter}, cc...), src)...)

	// What the proxy calls, as the compiler instruments it (the counting
	// build; no time involved).
	calls, fns := b.proxyCalls(pre, args...)
	// The filtered build against the uninstrumented one in 3 x pairs
	// rounds (runs of about a second); the unfiltered one, up to some 20
	// times as long, in 3 rounds of its own.
	filtered := b.proxyRounds([]string{pre + "orig", pre + "filter"}, 3**pairs, args...)
	unfiltered := b.proxyRounds([]string{pre + "orig", pre + "fn"}, 3, args...)
	visits := b.proxyVisits(pre, fnExp, args...)
	base := median(filtered[pre+"orig"])
	fmt.Fprintf(w, "## Call paths: the proxy application, %s, 2 threads\n\n", cxx)
	fmt.Fprintf(w, "bench/proxy/proxy.cc %s %s (a LULESH-style hydro proxy, %s -g -O2): %d elements, %s steps. "+
		"Instrumented as --functions does it (%s), a run makes %.3g calls to %d functions, %.3g per second of the uninstrumented run; "+
		"the filter leaves out %s of them. Wall time of the whole run; the ratios are medians of the per-round ratios, "+
		"%d paired rounds for the filtered build, 3 for the unfiltered one. Filter: %s.\n\n",
		edge, steps, cxx, cube(edge), steps, strings.Join(count, " "), calls, fns, calls/base, leftOut(visits), 3**pairs, from)
	fmt.Fprintf(w, "| build | wall s | ratio | function visits recorded |\n|---|---:|---:|---:|\n")
	fmt.Fprintf(w, "| uninstrumented | %.3f | | |\n", base)
	fmt.Fprintf(w, "| --functions | %.3f | %.2f | %.3g |\n", median(unfiltered[pre+"fn"]), ratioOf(unfiltered, pre+"fn", pre+"orig"), visits[0])
	r := ratioOf(filtered, pre+"filter", pre+"orig")
	fmt.Fprintf(w, "| --functions --filter | %.3f | %.3f | %.3g |\n\n", median(filtered[pre+"filter"]), r, visits[1])
	// Instructions do not depend on the CPU or on what else runs: the
	// filtered build against the uninstrumented one under callgrind, one
	// thread, a smaller mesh (callgrind runs some 50 times slower).
	small := []string{"20", "40"}
	orig, filt := b.callgrind(b.exe["proxy."+pre+"orig"], small...), b.callgrind(b.exe["proxy."+pre+"filter"], small...)
	fmt.Fprintf(w, "Instructions, callgrind, 1 thread, proxy %s: uninstrumented %.4g, --functions --filter %.4g (%+.1f%%).\n\n",
		strings.Join(small, " "), orig.instr, filt.instr, (filt.instr/orig.instr-1)*100)
	b.check(fmt.Sprintf("call paths, proxy (%s), --functions with the proposed filter, 2 threads", cxx), "<= +5%",
		fmt.Sprintf("%+.1f%%", (r-1)*100), r <= 1.05, "")
}

// leftOut says what share of the --functions run's visits the filtered
// run no longer records.
func leftOut(visits [2]float64) string {
	if visits[0] == 0 {
		return "(no call paths recorded)"
	}
	return fmt.Sprintf("%.4f%%", 100*(1-visits[1]/visits[0]))
}

// proxyRounds runs the proxy's builds of list at 2 threads in n
// alternating rounds, checks that they print the same, and returns their
// wall times (s) by build.
func (b *bench) proxyRounds(list []string, n int, args ...string) map[string][]float64 {
	wall := map[string][]float64{}
	var want string
	roundsOf(list, n, func(kind string, r int) {
		out, t, _ := b.proxyRun(kind, 2, "", args...)
		if want == "" {
			want = out
		} else if out != want {
			fatalf("proxy printed %q, then %q (%s)", want, out, kind)
		}
		wall[kind] = append(wall[kind], t.Seconds())
	})
	return wall
}

// ratioOf returns the median of the per-round ratios of kind's wall time
// to orig's.
func ratioOf(wall map[string][]float64, kind, orig string) float64 {
	var r []float64
	for i := range wall[kind] {
		r = append(r, wall[kind][i]/wall[orig][i])
	}
	return median(r)
}

func cube(edge string) int {
	n, _ := strconv.Atoi(edge)
	return n * n * n
}

// proxyCalls runs the counting build once and returns the calls it made
// and the functions it called.
func (b *bench) proxyCalls(pre string, args ...string) (float64, int) {
	var stderr bytes.Buffer
	cmd := exec.Command(b.exe["proxy."+pre+"count"], args...)
	cmd.Env = append(os.Environ(), "OMP_NUM_THREADS=2")
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		fatalf("proxy (count): %v\n%s", err, stderr.String())
	}
	calls := readFigureAfter("proxy", stderr.String(), "calls")
	fns := readFigureAfter("proxy", stderr.String(), "functions")
	return calls, int(fns)
}

// readFigureAfter reads "label X" from a program's stderr.
func readFigureAfter(name, stderr, label string) float64 {
	for _, line := range bytes.Split([]byte(stderr), []byte("\n")) {
		var v float64
		if _, err := fmt.Sscanf(string(line), label+" %g", &v); err == nil {
			return v
		}
	}
	fatalf("%s printed no %s: %q", name, label, stderr)
	return 0
}

// proxyVisits returns the function visits that the call paths of the
// --functions run in fnExp recorded, and those of a run of the filtered
// build (none without call paths).
func (b *bench) proxyVisits(pre, fnExp string, args ...string) [2]float64 {
	dir, err := os.MkdirTemp(b.work, "proxy-cp-")
	if err != nil {
		fatalf("%v", err)
	}
	defer os.RemoveAll(dir)
	b.proxyRun(pre+"filter", 2, dir, args...)
	var out [2]float64
	for i, exp := range []string{fnExp, filepath.Join(dir, "exp")} {
		p, err := profile.Read(experiment.Profile(exp))
		if err != nil {
			fatalf("proxy's profile: %v", err)
		}
		if p.CallPaths == nil {
			continue
		}
		cp := p.CallPaths
		for _, t := range cp.Threads {
			for _, n := range t.Nodes {
				if id := int(n[0]); id < len(cp.Nodes) && cp.Nodes[id].Kind == "function" {
					out[i] += float64(n[1])
				}
			}
		}
	}
	return out
}

// proxyMemory compares the peak memory of the proxy at 10 times the
// steps, hence 10 times the calls, on the same mesh (part c): the
// --functions build against the uninstrumented one, median of 3 runs. A
// smaller mesh than the timed one: the unfiltered build runs some 20
// times as long.
func (b *bench) proxyMemory(w io.Writer) {
	edge, few, many := "20", "10", "100"
	if *quick {
		edge, few, many = "12", "4", "40"
	}
	peak := map[string][]float64{}
	for r := 0; r < 3; r++ {
		for _, kind := range []string{"orig", "fn"} {
			for _, n := range []string{few, many} {
				_, _, mib := b.proxyRun(kind, 2, "", edge, n)
				peak[kind+n] = append(peak[kind+n], mib)
			}
		}
	}
	fmt.Fprintf(w, "Peak memory of the proxy (%d elements, 2 threads, median of 3 runs), as the calls grow tenfold with the steps:\n\n", cube(edge))
	fmt.Fprintf(w, "| steps | uninstrumented | --functions | added |\n|---:|---:|---:|---:|\n")
	for _, n := range []string{few, many} {
		o, f := median(peak["orig"+n]), median(peak["fn"+n])
		fmt.Fprintf(w, "| %s | %.1f MiB | %.1f MiB | %+.1f MiB |\n", n, o, f, f-o)
	}
	fmt.Fprintln(w)
	grew := median(peak["fn"+many]) - median(peak["fn"+few])
	b.check("call paths, proxy, peak memory at 10x the calls", "flat (within 1 MiB)", fmt.Sprintf("%+.1f MiB", grew),
		grew <= 1 && grew >= -1, "")
}
