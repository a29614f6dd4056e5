//go:build otf2

package otf2

import (
	"bufio"
	"bytes"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gopari/internal/events"
	"gopari/internal/events/evtest"
)

// An event is a line of otf2-print's listing.
type event struct {
	typ  string
	loc  int
	time uint64
	rest string
}

// listing returns otf2-print's events of an archive, which it must read
// without complaint.
func listing(t *testing.T, dir string) []event {
	t.Helper()
	line := regexp.MustCompile(`^([A-Z_]+)\s+(\d+)\s+(\d+)\s*(.*)$`)
	var out []event
	sc := bufio.NewScanner(bytes.NewReader(otf2Print(t, dir)))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if m := line.FindStringSubmatch(sc.Text()); m != nil {
			loc, _ := strconv.Atoi(m[2])
			ts, _ := strconv.ParseUint(m[3], 10, 64)
			out = append(out, event{m[1], loc, ts, m[4]})
		}
	}
	return out
}

// TestCut writes the archives of Fib (tasks, taskwaits, undeferred
// tasks) and Mixed (nested teams, locks, a task moving between threads,
// loops), whole and cut to the middle third of the run and to two
// threads: otf2-print reads each cut archive; it has events only on
// those locations and within the window; inside the window (its edges
// excepted) they are exactly the whole archive's events there; and in
// each task every LEAVE leaves the region entered last, each team begun
// ends, and nothing is left open (nested).
func TestCut(t *testing.T) {
	fib := func(dir string) (*evtest.Sim, error) {
		s, _, err := evtest.Fib(dir, 12, 3, 4, 40, func(n int) bool { return n == 4 })
		return s, err
	}
	for _, c := range []struct {
		name string
		make func(string) (*evtest.Sim, error)
		kept map[string]bool
	}{
		{"fib", fib, map[string]bool{"0.0": true, "0.2": true}},
		{"mixed", evtest.Mixed, map[string]bool{"0.0": true, "0.1": true}},
		{"mixed nested", evtest.Mixed, map[string]bool{"0.1": true, "0.1.0": true}},
	} {
		t.Run(c.name, func(t *testing.T) { cut(t, c.make, c.kept) })
	}
}

func cut(t *testing.T, make func(string) (*evtest.Sim, error), kept map[string]bool) {
	dir := filepath.Join(t.TempDir(), "exp")
	if _, err := make(dir); err != nil {
		t.Fatal(err)
	}
	exp, err := events.OpenExperiment(dir)
	if err != nil {
		t.Fatal(err)
	}
	whole, cut := filepath.Join(t.TempDir(), "whole"), filepath.Join(t.TempDir(), "cut")
	if _, err := Write(whole, exp); err != nil {
		t.Fatal(err)
	}
	all := listing(t, whole)
	// The window: the middle third of the run, in ns since its start
	// (1 ns a tick from tick 1000).
	last := all[len(all)-1].time - exp.Clock.Tick0
	from, to := float64(last/3), float64(2*last/3)
	if _, err := WriteWith(cut, exp, Options{Window: true, From: from, To: to, Threads: kept}); err != nil {
		t.Fatal(err)
	}
	got := listing(t, cut)
	fromT, toT := exp.Clock.Tick0+uint64(from), exp.Clock.Tick0+uint64(to)
	keptLoc := map[int]bool{}
	for i, th := range exp.Threads {
		keptLoc[i] = kept[th.Path]
	}
	var inside, wantInside []string
	for _, e := range all {
		if keptLoc[e.loc] && e.time > fromT && e.time < toT {
			wantInside = append(wantInside, e.typ+" "+strconv.Itoa(e.loc)+" "+strconv.FormatUint(e.time, 10)+" "+e.rest)
		}
	}
	for _, e := range got {
		if !keptLoc[e.loc] || e.time < fromT || e.time > toT {
			t.Fatalf("%s on location %d at %d: outside locations %v, ticks %d to %d", e.typ, e.loc, e.time, kept, fromT, toT)
		}
		if e.time > fromT && e.time < toT {
			inside = append(inside, e.typ+" "+strconv.Itoa(e.loc)+" "+strconv.FormatUint(e.time, 10)+" "+e.rest)
		}
	}
	nested(t, "whole", all)
	nested(t, "cut", got)
	slices.Sort(inside)
	slices.Sort(wantInside)
	if len(wantInside) == 0 || !slices.Equal(inside, wantInside) {
		t.Errorf("%d events inside the window, the whole archive has %d there", len(inside), len(wantInside))
	}
	t.Logf("%d events in the cut archive, %d inside the window, of %d", len(got), len(inside), len(all))
}

// nested checks a listing's nesting: each task (the one a location last
// switched to; generation 0, or none, is the location's implicit task) leaves the region it
// entered last; each location ends the teams it began; nothing is left
// open at the end.
func nested(t *testing.T, name string, evs []event) {
	t.Helper()
	cur := map[int]string{}
	open := map[string][]string{}
	teams := map[int]int{}
	task := func(loc int) string {
		if c, ok := cur[loc]; ok {
			return c
		}
		return "implicit " + strconv.Itoa(loc)
	}
	for _, e := range evs {
		switch e.typ {
		case "THREAD_TASK_SWITCH":
			cur[e.loc] = e.rest
			if strings.HasSuffix(e.rest, "Generation Number: 0") { // back to its implicit task
				delete(cur, e.loc)
			}
		case "ENTER":
			open[task(e.loc)] = append(open[task(e.loc)], e.rest)
		case "LEAVE":
			st := open[task(e.loc)]
			if len(st) == 0 || st[len(st)-1] != e.rest {
				t.Fatalf("%s: location %d at %d: LEAVE %s, %s has open %q", name, e.loc, e.time, e.rest, task(e.loc), st)
			}
			open[task(e.loc)] = st[:len(st)-1]
		case "THREAD_TEAM_BEGIN":
			teams[e.loc]++
		case "THREAD_TEAM_END":
			teams[e.loc]--
		}
	}
	for k, st := range open {
		if len(st) > 0 {
			t.Errorf("%s: %s left %q open", name, k, st)
		}
	}
	for loc, n := range teams {
		if n != 0 {
			t.Errorf("%s: location %d: %d teams not ended", name, loc, n)
		}
	}
}

// TestCutJob cuts a job's archive (two ranks, each the Mixed run, rank
// 1 started 1 ms after rank 0) to a window of rank 1's run: otf2-print
// reads it, only rank 1's locations have events, and they nest.
func TestCutJob(t *testing.T) {
	_, ranks := mixedJob(t)
	out := filepath.Join(t.TempDir(), "otf2")
	if _, err := WriteJobWith(out, "ompi-7", ranks, Options{Window: true, From: 1e6 + 300, To: 1e6 + 900}); err != nil {
		t.Fatal(err)
	}
	got := listing(t, out)
	n := len(ranks[0].Exp.Threads)
	for _, e := range got {
		if e.loc < n {
			t.Fatalf("%s on rank 0's location %d", e.typ, e.loc)
		}
		if e.time < 1e6+300 || e.time > 1e6+900 {
			t.Fatalf("%s at %d ns, outside the window", e.typ, e.time)
		}
	}
	if len(got) == 0 {
		t.Fatal("no event in the window")
	}
	nested(t, "job", got)
}
