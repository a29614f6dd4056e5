package grains

import (
	"bytes"
	"encoding/csv"
	"math"
	"math/rand/v2"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"gopari/internal/events"
	"gopari/internal/events/evtest"
	"gopari/internal/timeline"
)

func open(t *testing.T, dir string) *events.Experiment {
	t.Helper()
	exp, err := events.OpenExperiment(dir)
	if err != nil {
		t.Fatal(err)
	}
	return exp
}

func collect(t *testing.T, dir string) []Grain {
	t.Helper()
	var out []Grain
	if _, err := Extract(open(t, dir), func(g *Grain, _ *timeline.Event) { out = append(out, *g) }, nil); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestFibGrains checks task grains on fib: their number, lineage and
// parents, at 1, 2 and 4 threads.
func TestFibGrains(t *testing.T) {
	for _, threads := range []int{1, 2, 4} {
		dir := filepath.Join(t.TempDir(), "exp")
		_, want, err := evtest.Fib(dir, 13, 4, threads, 30, func(n int) bool { return n == 5 })
		if err != nil {
			t.Fatal(err)
		}
		gs := collect(t, dir)
		if len(gs) != want.Tasks {
			t.Fatalf("%d threads: %d grains, want %d", threads, len(gs), want.Tasks)
		}
		byID := map[uint64]Grain{}
		for _, g := range gs {
			byID[g.ID] = g
		}
		undeferred := 0
		for _, g := range gs {
			if !want.Lineages[g.Lineage] {
				t.Errorf("%d threads: grain %x has lineage %s, not one fib made", threads, g.ID, g.Lineage)
			}
			// The parent is a grain whose lineage is this one's minus its
			// last step, or the implicit task for the first two (R.p0.w0.N:
			// children of the single's body).
			if p, ok := byID[g.Parent]; ok {
				if p.Lineage != g.Lineage[:strings.LastIndexByte(g.Lineage, '.')] {
					t.Errorf("grain %s has parent %s", g.Lineage, p.Lineage)
				}
			} else if !strings.HasPrefix(g.Lineage, "R.p0.w0.") || strings.Count(g.Lineage, ".") != 3 {
				t.Errorf("grain %s: parent %x is not a grain", g.Lineage, g.Parent)
			}
			if g.Undeferred {
				undeferred++
			}
			if g.Exec == 0 || g.Exec > g.End-g.Begin || g.Create == 0 {
				t.Errorf("grain %s: exec %d in [%d, %d], create %d", g.Lineage, g.Exec, g.Begin, g.End, g.Create)
			}
		}
		if undeferred != want.Undeferred {
			t.Errorf("%d undeferred, want %d", undeferred, want.Undeferred)
		}
	}
}

// TestChunks checks chunk grains: ranges, threads and coverage for
// static, dynamic and guided schedules.
func TestChunks(t *testing.T) {
	for _, tc := range []struct {
		schedule      string
		n, k, threads int
	}{
		{"static", 100, 7, 3},
		{"static", 100, 0, 4},
		{"dynamic", 97, 5, 2},
		{"guided", 200, 3, 4},
	} {
		dir := filepath.Join(t.TempDir(), "exp")
		_, want, err := evtest.Loop(dir, tc.schedule, tc.n, tc.k, tc.threads, 1, func(i int) uint64 { return uint64(10 + i%7) }, 5)
		if err != nil {
			t.Fatal(err)
		}
		gs := collect(t, dir)
		if len(gs) != len(want) {
			t.Fatalf("%+v: %d chunks, want %d", tc, len(gs), len(want))
		}
		got := map[[2]int64]int{}
		seen := make([]int, tc.n)
		for _, g := range gs {
			got[[2]int64{g.First, g.Last}] = g.Loc
			for i := g.First; i <= g.Last; i++ {
				seen[i]++
			}
		}
		for _, c := range want {
			loc, ok := got[[2]int64{c.First, c.Last}]
			if !ok || loc != c.Thread+1 { // location 0 is the initial thread
				t.Errorf("%+v: chunk %d-%d on location %d (found %v), want thread %d", tc, c.First, c.Last, loc, ok, c.Thread)
			}
		}
		for i, n := range seen {
			if n != 1 {
				t.Errorf("%+v: iteration %d covered %d times", tc, i, n)
			}
		}
		if tc.schedule == "static" && tc.k > 0 && len(gs) != (tc.n+tc.k-1)/tc.k {
			t.Errorf("%+v: %d chunks, want ceil(n/k) = %d", tc, len(gs), (tc.n+tc.k-1)/tc.k)
		}
	}
}

func analyze(t *testing.T, dir string, opts Options, g *Graph) (*Analysis, *Result, [][]string, string) {
	t.Helper()
	a, err := Analyze(open(t, dir), opts)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	res, err := a.Write(Outputs{CSV: &buf, Graph: g})
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var sum bytes.Buffer
	a.Summary(&sum, res, 0)
	return a, res, rows, sum.String()
}

func column(rows [][]string, name string) int {
	for i, c := range rows[0] {
		if c == name {
			return i
		}
	}
	return -1
}

// TestTinyTasks: tasks that run for less time than their creation are
// flagged with parallel benefit < 1; large ones are not.
func TestTinyTasks(t *testing.T) {
	for _, tc := range []struct {
		leaf    uint64
		flagged bool
	}{{1, true}, {5000, false}} {
		dir := filepath.Join(t.TempDir(), "exp")
		if _, _, err := evtest.FibCreate(dir, 10, 2, 2, tc.leaf, 100, nil); err != nil {
			t.Fatal(err)
		}
		_, _, rows, sum := analyze(t, dir, Options{}, nil)
		for _, c := range []string{"kind", "file", "line", "id", "parent", "lineage", "thread", "first", "last", "create_ns", "exec_ns", "parallel_benefit"} {
			if column(rows, c) < 0 {
				t.Errorf("no column %s in %v", c, rows[0])
			}
		}
		b := column(rows, "parallel_benefit")
		low := 0
		for _, r := range rows[1:] {
			v, err := strconv.ParseFloat(r[b], 64)
			if err != nil {
				t.Fatalf("benefit %q: %v", r[b], err)
			}
			if v < 1 {
				low++
			}
		}
		leaves := 0
		for _, r := range rows[1:] {
			if r[column(rows, "children")] == "0" {
				leaves++
			}
		}
		flagged := strings.Contains(sum, "parallel benefit < 1") && strings.Contains(sum, "raise the cutoff")
		if flagged != tc.flagged || (tc.flagged && low < leaves) || (!tc.flagged && low > 0) {
			t.Errorf("leaf %d ticks: %d of %d grains below 1 (%d leaves), summary:\n%s", tc.leaf, low, len(rows)-1, leaves, sum)
		}
	}
}

// TestInflation: grains that take longer than in the 1-thread baseline
// are flagged; the same work is not.
func TestInflation(t *testing.T) {
	base := filepath.Join(t.TempDir(), "base")
	if _, _, err := evtest.Fib(base, 11, 3, 1, 1000, nil); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		leaf    uint64
		flagged bool
	}{{3000, true}, {1000, false}} {
		dir := filepath.Join(t.TempDir(), "exp")
		if _, _, err := evtest.Fib(dir, 11, 3, 4, tc.leaf, nil); err != nil {
			t.Fatal(err)
		}
		_, _, rows, sum := analyze(t, dir, Options{Baseline: open(t, base)}, nil)
		// Leaves do the work: they take 3 times as long, or as long; the
		// others create and wait, alike in both runs.
		d := column(rows, "work_deviation")
		for _, r := range rows[1:] {
			v, err := strconv.ParseFloat(r[d], 64)
			if err != nil {
				t.Fatalf("deviation %q: %v", r[d], err)
			}
			leaf := r[column(rows, "children")] == "0"
			if (v > 1.5) != (tc.flagged && leaf) {
				t.Errorf("leaf %d: grain %s (leaf %v) deviation %g", tc.leaf, r[column(rows, "lineage")], leaf, v)
				break
			}
		}
		if strings.Contains(sum, "work inflation") != tc.flagged {
			t.Errorf("leaf %d: summary:\n%s", tc.leaf, sum)
		}
	}
}

// TestBalance: a loop whose last iterations cost more is flagged for
// load balance under a static schedule; the balanced one is not.
func TestBalance(t *testing.T) {
	for _, tc := range []struct {
		skew    bool
		flagged bool
	}{{true, true}, {false, false}} {
		dir := filepath.Join(t.TempDir(), "exp")
		cost := func(i int) uint64 { return 100 }
		if tc.skew {
			cost = func(i int) uint64 { return uint64(100 + 20*i) }
		}
		if _, _, err := evtest.Loop(dir, "static", 64, 0, 4, 3, cost, 0); err != nil {
			t.Fatal(err)
		}
		a, _, rows, sum := analyze(t, dir, Options{}, nil)
		lb := a.LoopBalances()
		if len(lb) != 1 || len(lb[2]) != 3 {
			t.Fatalf("balances %v", lb)
		}
		want := 1.0
		if tc.skew {
			// Thread i gets iterations 16i..16i+15: cost 1600 + 20*(256i + 120).
			var sum, max float64
			for i := 0; i < 4; i++ {
				c := 1600 + 20*float64(256*i+120) + 10 // 10: a record's tick
				sum += c
				max = math.Max(max, c)
			}
			want = sum / 4 / max
		}
		for _, b := range lb[2] {
			if math.Abs(b-want) > 1e-9 {
				t.Errorf("balance %g, want %g", b, want)
			}
		}
		if strings.Contains(sum, "load balance below") != tc.flagged {
			t.Errorf("skew %v: summary:\n%s", tc.skew, sum)
		}
		if len(rows)-1 != 12 {
			t.Errorf("%d rows", len(rows)-1)
		}
	}
}

func TestProblemNames(t *testing.T) {
	if s := (LowBenefit | Inflation).Names(";"); s != "low_benefit;inflation" {
		t.Error(s)
	}
	keys := []string{}
	for _, k := range graphmlKeys {
		keys = append(keys, k.id)
	}
	if !sort.StringsAreSorted([]string{"a"}) || len(keys) == 0 {
		t.Error("keys")
	}
}

// TestChunkDeviation: a chunk is compared only with the baseline's chunk
// of exactly its iterations in the same execution of its loop. Iteration
// i costs 1000(i+1) ticks, times grow in the run. static, 4 and dynamic, 4
// make the same chunks at 1 and 4 threads: every chunk's deviation is
// grow, exactly. A static schedule without a chunk size gives each of 4
// threads a quarter of the iterations, the baseline's one thread all of
// them: no chunk is in the baseline, none has a deviation (compared in
// proportion, the first would have been 0.26 × grow and the last 1.74 ×
// grow), and the summary counts them; its executions' chunks together
// are compared with the baseline's on a line of the summary, as a figure
// of the loop.
func TestChunkDeviation(t *testing.T) {
	cost := func(grow uint64) func(int) uint64 { return func(i int) uint64 { return grow * 1000 * uint64(i+1) } }
	for _, tc := range []struct {
		sched string
		k     int
		match bool
	}{{"static", 4, true}, {"dynamic", 4, true}, {"static", 0, false}} {
		base := filepath.Join(t.TempDir(), "base")
		if _, _, err := evtest.Loop(base, tc.sched, 64, tc.k, 1, 2, cost(1), 0); err != nil {
			t.Fatal(err)
		}
		for _, grow := range []uint64{1, 3} {
			dir := filepath.Join(t.TempDir(), "exp")
			if _, _, err := evtest.Loop(dir, tc.sched, 64, tc.k, 4, 2, cost(grow), 0); err != nil {
				t.Fatal(err)
			}
			_, res, rows, sum := analyze(t, dir, Options{Baseline: open(t, base)}, nil)
			d := column(rows, "work_deviation")
			chunks := int64(len(rows) - 1)
			for _, r := range rows[1:] {
				v, err := strconv.ParseFloat(r[d], 64)
				if tc.match && (err != nil || math.Abs(v-float64(grow)) > 0.01) || !tc.match && r[d] != "" {
					t.Errorf("%s, %d, cost ×%d: chunk %s..%s has deviation %q", tc.sched, tc.k, grow, r[column(rows, "first")], r[column(rows, "last")], r[d])
				}
			}
			want := [4]int64{0, chunks, 0, 0}
			if !tc.match {
				want = [4]int64{0, 0, 0, chunks}
			}
			if res.ByMatch != want {
				t.Errorf("%s, %d: matched %v, want %v; summary:\n%s", tc.sched, tc.k, res.ByMatch, want, sum)
			}
			// The loop-level line: the static loop's chunks together,
			// where the run's work is 3 times the baseline's.
			line := "in 2 of its 2 executions its chunks together take more than 1.5× the baseline's time for the same iterations (mean 3.00×"
			if got, want := strings.Contains(sum, line), !tc.match && grow == 3; got != want {
				t.Errorf("%s, %d, cost ×%d: summary has the loop's inflation line: %v, want %v:\n%s", tc.sched, tc.k, grow, got, want, sum)
			}
		}
	}
}

// TestScatter: with Options.Scatter, every task of fib at 2 threads (each
// has a sibling) has a scatter between 0 and 1; at 1 thread, where no
// family can spread, none has one; without Scatter the column is empty.
func TestScatter(t *testing.T) {
	for _, threads := range []int{1, 2} {
		dir := filepath.Join(t.TempDir(), "exp")
		if _, _, err := evtest.Fib(dir, 10, 3, threads, 100, nil); err != nil {
			t.Fatal(err)
		}
		for _, on := range []bool{true, false} {
			_, _, rows, _ := analyze(t, dir, Options{Scatter: on}, nil)
			c := column(rows, "scatter")
			for _, r := range rows[1:] {
				v, err := strconv.ParseFloat(r[c], 64)
				switch {
				case !on && r[c] != "":
					t.Fatalf("scatter %q without Options.Scatter", r[c])
				case on && threads == 1 && r[c] != "":
					t.Fatalf("1 thread: scatter %q", r[c])
				case on && threads == 2 && (err != nil || v < 0 || v > 1):
					t.Fatalf("%d threads: scatter %q", threads, r[c])
				}
			}
		}
	}
}

// TestScatterLocations counts a family's distinct locations below and
// above 64, where the bit set spills into a second word.
func TestScatterLocations(t *testing.T) {
	a := &Analysis{}
	const nlocs = 200
	for _, loc := range []int{0, 5, 5, 63, 64, 64, 130, 199, 200, -1} {
		a.family(&Grain{Parent: 7, Loc: loc}, nlocs)
	}
	f, more := a.families.lookup(7), a.families.more[7]
	if f.children != 10 {
		t.Errorf("children %d, want 10", f.children)
	}
	// Distinct valid locations: 0, 5, 63, 64, 130, 199 (200 and -1 are
	// outside the run): 6 of at most 10 children in a team of 100.
	if got, want := f.scatter(100, more), 5.0/9.0; got != want {
		t.Errorf("scatter %v, want %v", got, want)
	}
	if got := f.scatter(1, more); !math.IsNaN(got) {
		t.Errorf("scatter in a team of 1: %v, want NaN", got)
	}
}

// TestFamilyTable checks the families by parent ID against a map, for
// IDs of gopari's runtime (thread index, dense count) and for IDs no
// page holds: large counts, large indexes.
func TestFamilyTable(t *testing.T) {
	var ft familyTable
	want := map[uint64]uint32{}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 200_000; i++ {
		var id uint64
		switch rng.IntN(10) {
		case 0:
			id = rng.Uint64() // anything: a hostile stream
		case 1:
			id = uint64(rng.IntN(4))<<32 | uint64(rng.Uint32())
		case 2: // beyond the pages at first, within them later
			id = uint64(rng.IntN(4))<<32 | uint64(rng.IntN(300_000))
		default:
			id = uint64(rng.IntN(4))<<32 | uint64(rng.IntN(50_000))
		}
		ft.at(id).children++
		want[id]++
	}
	for id, n := range want {
		if f := ft.lookup(id); f == nil || f.children != n {
			t.Fatalf("family %#x: got %v, want %d children", id, f, n)
		}
	}
	for i := 0; i < 10_000; i++ {
		id := rng.Uint64() >> rng.IntN(64)
		if f := ft.lookup(id); (f != nil) != (want[id] > 0) {
			t.Fatalf("family %#x: got %v, want %d children", id, f, want[id])
		}
	}
	if len(ft.other) > 40_000 {
		t.Errorf("%d of %d families in the map: the pages should hold the dense ones", len(ft.other), len(want))
	}
}
