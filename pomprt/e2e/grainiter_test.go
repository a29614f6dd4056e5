package e2e

import (
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gopari/rewrite"
)

// iterFactor is grainiter.c's FACTOR: the work of iterations i % 5 == 2
// at more than one thread.
const iterFactor = 3

// TestGrainIterations is issue 23's acceptance for the tasks created in
// worksharing loops and for loop chunks: testdata/grainiter.c, built
// with --chunks and without, run at 1, 2 and 4 threads against a
// 1-thread baseline, with gcc and clang. A task created in the body of a
// for loop is named by its iteration, .wN#I.K, the same in the run and
// the baseline in every schedule (static, static with a chunk size and
// a decreasing loop, dynamic with a step of 2, guided with the task in a
// critical, a collapsed nest, a combined parallel for with two tasks an
// iteration), with or without --chunks; a task created by a function the
// body calls is named by its chunk with --chunks (dynamic: one
// iteration a chunk) and ambiguous without. A chunk of static, 4 or
// dynamic, 4 is the baseline's chunk of the same iterations; a chunk of
// a plain static loop at more than one thread holds other iterations
// than the baseline's: no work deviation, and the summary counts it as
// not in the baseline. No grain is ever compared with another key's. A
// deviation is the run's time over the baseline's as the program
// measured them itself (within 20% for 90% of the grains, whatever
// preempted a thread); where no thread was preempted, close to 1 for
// equal work and to FACTOR where the program multiplied the work.
func TestGrainIterations(t *testing.T) {
	needTools(t)
	src, err := os.ReadFile("testdata/grainiter.c")
	if err != nil {
		t.Fatal(err)
	}
	loops := map[int]string{} // the line of a chunk loop's directive -> its family
	for i, l := range strings.Split(string(src), "\n") {
		if m := regexp.MustCompile(`#pragma omp for.*/\* (c\w+) \*/`).FindStringSubmatch(l); m != nil {
			loops[i+1] = m[1]
		}
	}
	if len(loops) != 3 {
		t.Fatalf("chunk loops %v, want cst, cs4 and cd4", loops)
	}
	for _, c := range compilers {
		for _, chunks := range []bool{true, false} {
			c, chunks := c, chunks
			name := c.name + "/chunks"
			if !chunks {
				name = c.name + "/nochunks"
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				p := buildOpts(t, c, "grainiter.c", rewrite.Options{Chunks: chunks})
				base := lineageRun(t, p, "1")
				for _, n := range threadCounts {
					checkIterations(t, lineageRun(t, p, n), base, n, chunks, loops)
				}
			})
		}
	}
}

func checkIterations(t *testing.T, run, base linRun, threads string, chunks bool, loops map[int]string) {
	t.Helper()
	n, _ := strconv.Atoi(threads)
	baseGrains, _, _ := lineageGrains(t, base.dir, "")
	gs, cks, sum := lineageGrains(t, run.dir, base.dir)
	keyOf, baseLin, baseID := map[string]string{}, map[string]string{}, map[string]string{}
	for id, k := range base.key {
		g, ok := baseGrains[id]
		if !ok {
			t.Fatalf("baseline: key %s ran in task %s, which is no grain", k, id)
		}
		keyOf[g.identity], baseLin[k], baseID[k] = k, g.lineage, id
	}
	quiet := func(us, cpu float64) bool { return us <= 1.25*cpu+20 }
	var ratios, equal, grow []float64
	// note judges a deviation d of a grain of iteration it whose time the
	// program measured as self (cpu) in the run and baseSelf (baseCPU) in
	// the baseline.
	note := func(d float64, it int, self, cpu, baseSelf, baseCPU float64) {
		ratios = append(ratios, d/(self/baseSelf))
		if !quiet(self, cpu) || !quiet(baseSelf, baseCPU) {
			return
		}
		if n > 1 && it%5 == 2 {
			grow = append(grow, d)
		} else {
			equal = append(equal, d)
		}
	}
	var has, amb int
	for id, k := range run.key {
		g, ok := gs[id]
		if !ok {
			t.Errorf("%s threads: key %s ran in task %s, which is no grain", threads, k, id)
			continue
		}
		d := g.deviation
		if !math.IsNaN(d) {
			has++
			if keyOf[g.identity] != k {
				t.Errorf("%s threads: the grain of %s (%s) was compared with the baseline's grain of %q", threads, k, g.lineage, keyOf[g.identity])
			}
		}
		f := strings.Fields(k)
		i, _ := strconv.Atoi(f[1])
		it, want := i, "#"+f[1]+".0"
		if f[0] == "pfor" {
			it, want = i/2, "#"+strconv.Itoa(i/2)+"."+strconv.Itoa(i%2)
		}
		switch {
		case f[0] == "call" && !chunks:
			amb++
			if !math.IsNaN(d) || !strings.Contains(g.lineage, "?") {
				t.Errorf("%s threads: %s: lineage %s, deviation %v; want one with ? and none", threads, k, g.lineage, d)
			}
			continue
		case f[0] == "call":
			want = "@" + f[1] + ".0"
		}
		if !strings.HasSuffix(g.lineage, want) || strings.Contains(g.lineage, "?") || g.lineage != baseLin[k] || math.IsNaN(d) {
			t.Errorf("%s threads: %s: lineage %s, deviation %v; want one ending in %s, the baseline's (%s)", threads, k, g.lineage, d, want, baseLin[k])
			continue
		}
		bid := baseID[k]
		note(d, it, run.self[id], run.cpu[id], base.self[bid], base.cpu[bid])
	}
	// Chunks: the program's time for their iterations.
	missing := 0
	for _, c := range cks {
		fam := loops[c.line]
		if fam == "" {
			continue // a loop that creates tasks
		}
		var self, cpu, baseSelf, baseCPU float64
		for i := c.first; i <= c.last; i++ {
			k := fam + " " + strconv.FormatInt(i, 10)
			self += run.iters[k][0]
			cpu += run.iters[k][1]
			baseSelf += base.iters[k][0]
			baseCPU += base.iters[k][1]
		}
		d := c.deviation
		switch {
		case fam == "cst" && n > 1:
			missing++
			if !math.IsNaN(d) {
				t.Errorf("%s threads: chunk %d-%d of a static loop has deviation %v; the baseline ran other iterations", threads, c.first, c.last, d)
			}
			continue
		case fam != "cst" && (c.first%4 != 0 || c.last != c.first+3):
			t.Errorf("%s threads: %s chunk %d-%d, want chunks of 4", threads, fam, c.first, c.last)
		case math.IsNaN(d) || strings.Contains(c.lineage, "?"):
			t.Errorf("%s threads: %s chunk %d-%d (%s): no deviation", threads, fam, c.first, c.last, c.lineage)
			continue
		}
		has++
		ratios = append(ratios, d/(self/baseSelf))
		// A chunk's work grows by less than FACTOR where one of its
		// iterations does: only those without one are equal work.
		if quiet(self, cpu) && quiet(baseSelf, baseCPU) && (n == 1 || !hasGrowing(c.first, c.last)) {
			equal = append(equal, d)
		}
	}
	if chunks && n > 1 && missing == 0 {
		t.Errorf("%s threads: no chunk of the static loop", threads)
	}
	m := regexp.MustCompile(`against the baseline: (\d+) matched, (\d+) ambiguous, (\d+) not in it$`).FindStringSubmatch(sum)
	if m == nil {
		t.Fatalf("%s threads: summary %q", threads, sum)
	}
	count := func(i int) int { v, _ := strconv.Atoi(m[i]); return v }
	if count(1) < has || count(2) < amb || count(3) < missing {
		t.Errorf("%s threads: summary %q: %d grains of keys with a deviation, %d ambiguous, %d chunks not in the baseline", threads, sum, has, amb, missing)
	}
	within := 0
	for _, r := range ratios {
		if r > 0.8 && r < 1.25 {
			within++
		}
	}
	if len(ratios) == 0 || float64(within) < 0.9*float64(len(ratios)) {
		t.Errorf("%s threads: %d of %d deviations within 20%% of the program's own ratio: %v", threads, within, len(ratios), ratios)
	}
	me, mg := median(equal), median(grow)
	t.Logf("%s threads, %s: median deviation %.2f for equal work (%d grains not preempted), %.2f for work × %d (%d)", threads, sum, me, len(equal), mg, iterFactor, len(grow))
	if len(equal) > 0 && (me < 0.67 || me > 1.5) {
		t.Errorf("%s threads: median deviation %.2f for equal work", threads, me)
	}
	if len(grow) > 0 && (mg < 0.67*iterFactor || mg > 1.5*iterFactor) {
		t.Errorf("%s threads: median deviation %.2f for work × %d", threads, mg, iterFactor)
	}
}

// hasGrowing reports whether iterations first to last hold one whose
// work grows with the team (i % 5 == 2).
func hasGrowing(first, last int64) bool {
	for i := first; i <= last; i++ {
		if i%5 == 2 {
			return true
		}
	}
	return false
}
