package profile

import (
	"math"
	"testing"
)

// TestThreadCount counts the places of nested teams of 2 in a team of 2:
// 6 team members and the initial thread, 7 places on 4 OS threads; and
// a run that forked no team, whose threads are its initial thread.
func TestThreadCount(t *testing.T) {
	p := &Profile{OSThreads: 4}
	for i, path := range []string{"0", "0.0", "0.1", "0.0.0", "0.0.1", "0.1.0", "0.1.1"} {
		level := 0
		for _, c := range path {
			if c == '.' {
				level++
			}
		}
		p.Threads = append(p.Threads, Thread{Index: i, Path: path, Level: level})
	}
	if c := p.ThreadCount(); c != (ThreadCount{Members: 6, Initial: 1, OS: 4}) || c.Threads() != 6 {
		t.Errorf("nested teams: %+v, threads %d; want 6 members, 1 initial, 4 OS threads, 6 threads", c, c.Threads())
	}
	serial := &Profile{OSThreads: 1, Threads: []Thread{{Path: "0"}}}
	if c := serial.ThreadCount(); c.Members != 0 || c.Threads() != 1 {
		t.Errorf("no team: %+v, threads %d; want 0 members, 1 thread", c, c.Threads())
	}
}

// TestTimesThreads checks who ran a region: a parallel region's team
// members that ran its implicit tasks, not the thread that only forked
// it, and its thread imbalance over them; a lock's visits on every
// thread add up.
func TestTimesThreads(t *testing.T) {
	ph := func(visits, incl, excl uint64) *Phase {
		return &Phase{Visits: visits, Timed: visits, InclNs: incl, ExclNs: excl}
	}
	p := &Profile{WallNs: 1e9,
		Regions: []Region{{ID: 1, Kind: "parallel", Name: "parallel"}, {ID: 2, Kind: "lock", Name: "lock", SubName: "omp_set_lock"}},
		Threads: []Thread{{Index: 0, Path: "0"}, {Index: 1, Path: "0.0", Level: 1}, {Index: 2, Path: "0.1", Level: 1}},
		Stats: []Stat{
			{Region: 1, Thread: 0, Construct: ph(1, 1000, 100)},                     // the fork and join
			{Region: 1, Thread: 1, Body: ph(1, 600, 600)},                           // work 600
			{Region: 1, Thread: 2, Body: ph(1, 300, 300), Barrier: ph(1, 300, 300)}, // work 300, then waits
			{Region: 2, Thread: 1, Construct: ph(10, 50, 50)},
			{Region: 2, Thread: 2, Construct: ph(7, 40, 40)},
		}}
	times := p.Times()
	par, lock := times[1], times[2]
	if par.Threads != 2 || par.Visits != 1 || math.Abs(par.Imbalance-0.25) > 1e-9 {
		t.Errorf("parallel region: %d threads, %d visits, imbalance %v; want 2, 1, 0.25 ((600 - 450) / 600)", par.Threads, par.Visits, par.Imbalance)
	}
	if lock.Threads != 2 || lock.Visits != 17 {
		t.Errorf("lock: %d threads, %d visits; want 2 and 10 + 7", lock.Threads, lock.Visits)
	}
	byKind := TimesBy(p, func(r *Region) string { return r.Kind })
	if byKind["lock"].Visits != 17 || byKind["parallel"].Threads != 2 {
		t.Errorf("TimesBy kind: %+v", byKind)
	}
}

// TestNames checks the one way every view names a region.
func TestNames(t *testing.T) {
	for _, c := range []struct {
		r            Region
		where, label string
	}{
		{Region{Kind: "for", Name: "parallel for", File: "a.c", BeginLine: 3, EndLine: 5, Flags: []string{"combined"}}, "a.c:3-5", "for (parallel for)"},
		{Region{Kind: "critical", Name: "critical", File: "a.c", BeginLine: 7, EndLine: 7, SubName: "x"}, "a.c:7", "critical x"},
		{Region{Kind: "lock", Name: "lock", File: "a.c", BeginLine: 9, EndLine: 9, SubName: "omp_set_lock"}, "a.c:9", "lock omp_set_lock"},
		{Region{Kind: "mpi", Name: "MPI_Send", File: "MPI"}, "MPI", "mpi (MPI_Send)"},
		{Region{Kind: "user", Name: "phase1", File: "b.c", BeginLine: 1, EndLine: 4, SubName: "phase1"}, "b.c:1-4", "user phase1"},
	} {
		if w, l := c.r.Where(), c.r.Label(); w != c.where || l != c.label {
			t.Errorf("%+v: %q %q, want %q %q", c.r, w, l, c.where, c.label)
		}
	}
}
