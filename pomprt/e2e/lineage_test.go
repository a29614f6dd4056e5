package e2e

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"gopari/internal/grains"
	"gopari/rewrite"
)

// The shape of testdata/grainlineage.c.
const (
	linPerThread = 4  // NPER
	linIters     = 32 // NTL
)

// TestGrainLineage is issue 23's acceptance for grain identity: the
// grains of testdata/grainlineage.c, built with --chunks (and without, at
// 2 threads), run at 1, 2 and 4 threads and compared with a 1-thread
// baseline, with gcc and clang. The program says which task ran each of
// its logical keys (a loop iteration's task, a thread's k-th task, a section's,
// a single's, a node of a tree, a taskloop's iterations) and how long it
// measured: a key's grain has the same lineage in the run and the
// baseline, and a work deviation, wherever the program's structure makes
// it the same grain; it has none (and the summary line counts it) where
// the stream cannot tell which grain it is (nogroup taskloops whose
// executions overlap) or where the baseline has no such grain (threads 1 and up of
// a team; a default-split taskloop's tasks at another team size); and no
// grain is ever compared with the grain of another key. A deviation is
// the run's time over the baseline's as the program measured them
// itself; where neither thread was preempted (the program's CPU time is
// its time), close to 1 for equal work and close to the team's size for
// the tasks whose work grows with it.
func TestGrainLineage(t *testing.T) {
	needTools(t)
	for _, c := range compilers {
		for _, chunks := range []bool{true, false} {
			c, chunks := c, chunks
			name := c.name + "/chunks"
			threads := []string{"1", "2", "4"}
			if !chunks {
				name, threads = c.name+"/nochunks", []string{"2"}
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				p := buildOpts(t, c, "grainlineage.c", rewrite.Options{Chunks: chunks})
				base := lineageRun(t, p, "1")
				for _, n := range threads {
					checkLineage(t, lineageRun(t, p, n), base, n, chunks)
				}
			})
		}
	}
}

// A linRun is a run of grainlineage.c: its experiment and, by task ID,
// the logical key the task ran, the microseconds it measured and the
// CPU time its thread had meanwhile.
type linRun struct {
	dir       string
	key       map[string]string // task ID (0x...) -> key
	self, cpu map[string]float64
	// iters holds, by key, the microseconds and CPU time of the loop
	// iterations that created no task (grainiter.c).
	iters map[string][2]float64
}

var keyLine = regexp.MustCompile(`^(key|iter) (\w+) (\d+) id (0x[0-9a-f]+) us ([0-9.]+) cpu ([0-9.]+)$`)

// lineageRun runs p at threads threads with GOPARI_GRAINS=1 and reads
// the keys it logged. A taskloop task's key is its family, the
// taskloop's execution and the iterations it ran.
func lineageRun(t *testing.T, p program, threads string) linRun {
	t.Helper()
	env := []string{"OMP_NUM_THREADS=" + threads, "GOPARI_GRAINS=1"}
	orig, got := run(t, p.orig, env), run(t, p.inst, env)
	if got.stdout != orig.stdout || got.code != 0 || orig.code != 0 {
		t.Fatalf("%s threads: instrumented printed %q (exit %d), original %q (exit %d)\n%s", threads, got.stdout, got.code, orig.stdout, orig.code, got.stderr)
	}
	r := linRun{dir: got.dir, key: map[string]string{}, self: map[string]float64{}, cpu: map[string]float64{}, iters: map[string][2]float64{}}
	iters := map[string][]int{}
	for _, l := range strings.Split(strings.TrimSpace(got.stderr), "\n") {
		m := keyLine.FindStringSubmatch(l)
		if m == nil {
			if strings.HasPrefix(l, "key ") {
				t.Fatalf("%s threads: stderr line %q", threads, l)
			}
			t.Logf("%s threads: stderr: %s", threads, l)
			continue
		}
		kind, fam, key, id := m[1], m[2], m[2]+" "+m[3], m[4]
		i, _ := strconv.Atoi(m[3])
		us, _ := strconv.ParseFloat(m[5], 64)
		cpu, _ := strconv.ParseFloat(m[6], 64)
		if kind == "iter" {
			r.iters[key] = [2]float64{us, cpu}
			continue
		}
		r.self[id] += us
		r.cpu[id] += cpu
		if !strings.HasPrefix(fam, "tl_") {
			r.key[id] = key
			continue
		}
		r.key[id] = fmt.Sprintf("%s rep %d", fam, i/linIters)
		iters[id] = append(iters[id], i%linIters)
	}
	for id, is := range iters {
		sort.Ints(is)
		for k := range is {
			if is[k] != is[0]+k {
				t.Fatalf("%s threads: task %s ran iterations %v", threads, id, is)
			}
		}
		r.key[id] += fmt.Sprintf(" %d-%d", is[0], is[len(is)-1])
	}
	return r
}

// A linGrain is a grain as gopari grains --csv wrote it.
type linGrain struct {
	identity    string // kind, lineage and (taskloop tasks, chunks) last iteration
	lineage     string
	deviation   float64 // NaN: none
	exec        float64 // microseconds
	line        int     // its construct's
	first, last int64   // chunks
}

// lineageGrains analyzes the run in dir against the baseline in base,
// and returns its task grains by ID (a baseline's without a baseline of
// its own), its chunks and the summary's first line.
func lineageGrains(t *testing.T, dir, base string) (map[string]linGrain, []linGrain, string) {
	t.Helper()
	a := analyze(t, dir, base)
	var buf, sum bytes.Buffer
	res, err := a.Write(grains.Outputs{CSV: &buf})
	if err != nil {
		t.Fatal(err)
	}
	a.Summary(&sum, res, 1)
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, c := range rows[0] {
		col[c] = i
	}
	out := map[string]linGrain{}
	var chunks []linGrain
	for _, r := range rows[1:] {
		g := linGrain{identity: r[col["kind"]] + " " + r[col["lineage"]], lineage: r[col["lineage"]], deviation: math.NaN()}
		if r[col["kind"]] != "task" {
			g.identity += " " + r[col["last"]]
		}
		if d := r[col["work_deviation"]]; d != "" {
			g.deviation, _ = strconv.ParseFloat(d, 64)
		}
		g.exec, _ = strconv.ParseFloat(r[col["exec_ns"]], 64)
		g.exec /= 1e3
		g.line, _ = strconv.Atoi(r[col["line"]])
		if r[col["kind"]] == "chunk" {
			g.first, _ = strconv.ParseInt(r[col["first"]], 10, 64)
			g.last, _ = strconv.ParseInt(r[col["last"]], 10, 64)
			chunks = append(chunks, g)
			continue
		}
		out[r[col["id"]]] = g
	}
	return out, chunks, strings.SplitN(sum.String(), "\n", 2)[0]
}

// What a key's grain must be in a run against the baseline.
const (
	mustMatch     = iota // the same lineage, a work deviation
	mustAmbiguous        // a lineage with "?", no work deviation
	mustMiss             // no grain of the baseline: no work deviation
	mayMatch             // either, but never another key's
)

// expect returns what the grain of key must be against the baseline,
// whose keys are baseKeys.
func expect(key string, chunks bool, baseKeys map[string]bool) int {
	f := strings.Fields(key)
	switch f[0] {
	case "for", "dyn3", "static":
		return mustMatch // named by the iteration that created it
	case "thread":
		if i, _ := strconv.Atoi(f[1]); i/linPerThread > 0 {
			return mustMiss
		}
		return mustMatch
	case "tl_default":
		if baseKeys[key] {
			return mustMatch // the same iterations as in the baseline
		}
		return mustMiss
	case "tl_nogroup":
		return mayMatch
	}
	return mustMatch
}

func checkLineage(t *testing.T, run, base linRun, threads string, chunks bool) {
	t.Helper()
	n, _ := strconv.Atoi(threads)
	baseGrains, _, _ := lineageGrains(t, base.dir, "")
	gs, _, sum := lineageGrains(t, run.dir, base.dir)
	baseKeys := map[string]bool{}
	keyOf := map[string]string{} // baseline identity -> key
	baseLin := map[string]string{}
	baseID := map[string]string{}
	for id, k := range base.key {
		g, ok := baseGrains[id]
		if !ok {
			t.Fatalf("baseline: key %s ran in task %s, which is no grain", k, id)
		}
		baseKeys[k], keyOf[g.identity], baseLin[k], baseID[k] = true, k, g.lineage, id
	}
	// quiet reports whether the thread that ran task id was not
	// preempted: the time the program measured is its CPU time.
	quiet := func(r linRun, id string) bool { return r.self[id] <= 1.25*r.cpu[id]+20 }
	want := [4]int{}
	var ratios, equal, grow []float64
	for id, k := range run.key {
		g, ok := gs[id]
		if !ok {
			t.Errorf("%s threads: key %s ran in task %s, which is no grain", threads, k, id)
			continue
		}
		has := !math.IsNaN(g.deviation)
		// Never another key's grain.
		if has && keyOf[g.identity] != k {
			t.Errorf("%s threads: the grain of %s (%s) was compared with the baseline's grain of %q", threads, k, g.lineage, keyOf[g.identity])
		}
		e := expect(k, chunks, baseKeys)
		want[e]++
		switch {
		case e == mustMatch && (g.lineage != baseLin[k] || !has):
			t.Errorf("%s threads: %s: lineage %s, deviation %v; the baseline's %s", threads, k, g.lineage, g.deviation, baseLin[k])
		case e == mustAmbiguous && (has || !strings.Contains(g.lineage, "?")):
			t.Errorf("%s threads: %s: lineage %s, deviation %v, want one with ? and none", threads, k, g.lineage, g.deviation)
		case e == mustMiss && has:
			t.Errorf("%s threads: %s: lineage %s has a deviation (%v) but no grain in the baseline", threads, k, g.lineage, g.deviation)
		}
		bid := baseID[k]
		if !has || base.self[bid] == 0 {
			continue
		}
		// The deviation is the time the program measured in the run
		// over the baseline's, whatever preempted either.
		ratios = append(ratios, g.deviation/(run.self[id]/base.self[bid]))
		if !quiet(run, id) || !quiet(base, bid) {
			continue
		}
		if f := strings.Fields(k); f[0] == "single" && f[1] != "" && (f[1][len(f[1])-1]-'0')%2 == 1 {
			grow = append(grow, g.deviation) // a single's second task: work × the team's size
		} else {
			equal = append(equal, g.deviation)
		}
	}
	// The summary line counts the grains without a deviation.
	m := regexp.MustCompile(`against the baseline: (\d+) matched, (\d+) ambiguous, (\d+) not in it$`).FindStringSubmatch(sum)
	if m == nil {
		t.Fatalf("%s threads: summary %q", threads, sum)
	}
	count := func(i int) int { v, _ := strconv.Atoi(m[i]); return v }
	var has, amb int
	for _, g := range gs {
		switch {
		case !math.IsNaN(g.deviation):
			has++
		case strings.Contains(g.lineage, "?"):
			amb++
		}
	}
	if count(1) < has || count(2) < amb || count(2) < want[mustAmbiguous] || count(3) < want[mustMiss] {
		t.Errorf("%s threads: summary %q: %d task grains with a deviation, %d ambiguous; %d keys must be ambiguous, %d missing", threads, sum, has, amb, want[mustAmbiguous], want[mustMiss])
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
	t.Logf("%s threads, %s: median deviation %.2f for equal work (%d grains not preempted), %.2f for work × %d (%d); %d keys must match, %d be ambiguous, %d miss",
		threads, sum, me, len(equal), mg, n, len(grow), want[mustMatch], want[mustAmbiguous], want[mustMiss])
	if len(equal) > 0 && (me < 0.5 || me > 2) {
		t.Errorf("%s threads: median deviation %.2f for equal work", threads, me)
	}
	if len(grow) > 0 && (mg < 0.5*float64(n) || mg > 2*float64(n)) {
		t.Errorf("%s threads: median deviation %.2f for work × %d", threads, mg, n)
	}
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	return s[len(s)/2]
}
