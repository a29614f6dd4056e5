package timeline

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"gopari/internal/events"
	"gopari/internal/events/evtest"
)

// lineages replays the experiment in dir and returns the lineage of
// every task created or begun, by ID.
func lineages(t *testing.T, dir string) map[uint64]string {
	t.Helper()
	exp, err := events.OpenExperiment(dir)
	if err != nil {
		t.Fatal(err)
	}
	got := map[uint64]string{}
	err = New(exp).Run(func(ev *Event) error {
		switch ev.Type {
		case events.CreateBegin, events.TaskBegin, events.TaskloopBegin:
			got[ev.Task.ID] = ev.Task.Lineage
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// team starts a parallel region of n threads in s and returns the
// threads and their implicit tasks.
func team(s *evtest.Sim, par uint32, n int) ([]*evtest.Thread, []uint64) {
	th := make([]*evtest.Thread, n)
	ids := make([]uint64, n)
	for i := range th {
		th[i] = s.Thread()
	}
	th[0].Put(events.Loc, 0, s.Loc("0", 0))
	th[0].Put(events.Fork, par, 0)
	for i, t := range th {
		t.T = th[0].T
		t.Put(events.Loc, 0, s.Loc("0."+evtest.Itoa(i), i))
		ids[i] = t.NewID()
		t.Put(events.ImplicitBegin, par, ids[i], 0)
	}
	return th, ids
}

// after sets t's clock past u's: what t records next happens after what
// u recorded.
func after(t, u *evtest.Thread) { t.T = max(t.T, u.T) }

// TestLineage checks the names of tasks that several threads of a team
// create: in the chunks of a loop, by iteration; outside worksharing
// constructs, by thread; in sections, by section; in a single, by the
// construct; taskloop tasks by execution and first iteration; and "?"
// wherever the stream does not tell.
func TestLineage(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "exp")
	s, err := evtest.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	s.Kinds = []string{"grains"}
	par := s.Region("parallel", "l.c", 1)
	loop := s.Region("for", "l.c", 2)
	static := s.Region("for", "l.c", 3)
	task := s.Region("task", "l.c", 4)
	secs := s.Region("sections", "l.c", 5)
	single := s.Region("single", "l.c", 6)
	tl := s.Region("taskloop", "l.c", 7)
	ng := s.Region("taskloop", "l.c", 8)
	s.Clauses(ng, "grainsize(2) nogroup")
	wait := s.Region("taskwait", "l.c", 9)
	th, imp := team(s, par, 2)
	want := map[uint64]string{}
	create := func(t *evtest.Thread, lineage string) uint64 {
		id := t.NewID()
		t.Put(events.CreateBegin, task, id)
		t.Put(events.CreateEnd, task, id)
		want[id] = lineage
		return id
	}
	both := func(typ events.Type, region uint32) {
		for _, t := range th {
			t.Put(typ, region)
		}
	}
	// A loop whose chunks begin at iterations 5 (thread 1), 0 and 7
	// (thread 0); a task before it, by each thread.
	create(th[0], "R.p0.t0.0")
	create(th[1], "R.p0.t1.0")
	both(events.EnterConstruct, loop)
	th[1].Put(events.ChunkBegin, loop, 5)
	create(th[1], "R.p0.w0@5.0")
	create(th[1], "R.p0.w0@5.1")
	th[1].Put(events.ChunkEnd, loop, 6)
	th[0].Put(events.ChunkBegin, loop, 0)
	create(th[0], "R.p0.w0@0.0")
	th[0].Put(events.ChunkEnd, loop, 4)
	th[0].Put(events.ChunkBegin, loop, 7)
	create(th[0], "R.p0.w0@7.0")
	th[0].Put(events.ChunkEnd, loop, 7)
	both(events.ExitConstruct, loop)
	// A counting chunk: its first iteration comes at its end.
	both(events.EnterConstruct, static)
	th[0].Put(events.ChunkBegin, static, uint64(1)<<63, 1)
	create(th[0], "R.p0.w1@?.0")
	th[0].Put(events.ChunkEnd, static, 3, 3, 4)
	both(events.ExitConstruct, static)
	// Sections: one named, one of code instrumented before sections
	// were numbered.
	both(events.EnterConstruct, secs)
	th[1].Put(events.EnterBody, secs, 2)
	create(th[1], "R.p0.w2.s2.0")
	th[1].Put(events.ExitBody, secs)
	th[0].Put(events.EnterBody, secs)
	create(th[0], "R.p0.w2.s?.0")
	th[0].Put(events.ExitBody, secs)
	both(events.ExitConstruct, secs)
	create(th[1], "R.p0.t1.1")
	// A single, and taskloops in it.
	both(events.EnterConstruct, single)
	m := th[0]
	m.Put(events.EnterBody, single)
	create(m, "R.p0.w3.0")
	taskloop := func(region uint32, first int64, lineage string) {
		w := th[1]
		after(w, m)
		id := w.NewID()
		w.Put(events.TaskloopBegin, region, id, imp[0], uint64(first))
		w.Put(events.TaskloopEnd, region, id, uint64(first)+1)
		want[id] = lineage
		after(m, w)
	}
	for n := 0; n < 2; n++ {
		m.Put(events.EnterConstruct, tl)
		taskloop(tl, 4, "R.p0.w3.tl"+evtest.Itoa(n)+".l4")
		taskloop(tl, events.UnknownIteration, "R.p0.w3.tl"+evtest.Itoa(n)+".l?")
		m.Put(events.ExitConstruct, tl)
	}
	// nogroup: a task of the first execution begins after it ended, one
	// after the second began (either's), then after a taskwait.
	m.Put(events.EnterConstruct, ng)
	m.Put(events.ExitConstruct, ng)
	taskloop(ng, 0, "R.p0.w3.tl2.l0")
	m.Put(events.EnterConstruct, ng)
	taskloop(ng, 2, "R.p0.tl?.l2")
	m.Put(events.ExitConstruct, ng)
	m.Put(events.EnterConstruct, wait)
	m.Put(events.ExitConstruct, wait)
	m.Put(events.EnterConstruct, ng)
	taskloop(ng, 0, "R.p0.w3.tl4.l0")
	m.Put(events.ExitConstruct, ng)
	create(m, "R.p0.w3.1")
	m.Put(events.ExitBody, single)
	both(events.ExitConstruct, single)
	create(m, "R.p0.t0.1")
	// A task that begins without its creation: its place is unknown.
	id := th[1].NewID()
	after(th[1], m)
	th[1].Put(events.TaskBegin, task, id, imp[0])
	th[1].Put(events.TaskEnd, task, id)
	want[id] = "R.p0.?"
	for i, t := range th {
		t.Put(events.ImplicitEnd, par, imp[i])
	}
	after(th[0], th[1])
	th[0].Put(events.Loc, 0, s.Loc("0", 0))
	th[0].Put(events.Join, par, 0)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, lineages(t, dir)); diff != "" {
		t.Errorf("lineages (-want +got):\n%s", diff)
	}
}

// TestLineageOldStreams: a stream of format 2 in grains mode does not
// record worksharing constructs, so the tasks its implicit tasks create
// cannot be named; in trace mode it does.
func TestLineageOldStreams(t *testing.T) {
	for _, tc := range []struct {
		kind, want string
	}{{"grains", "R.p0.t?.0"}, {"trace", "R.p0.t1.0"}} {
		dir := filepath.Join(t.TempDir(), "exp")
		s, err := evtest.New(dir)
		if err != nil {
			t.Fatal(err)
		}
		s.Kinds, s.Version = []string{tc.kind}, 2
		par, task := s.Region("parallel", "l.c", 1), s.Region("task", "l.c", 2)
		th, imp := team(s, par, 2)
		id := th[1].NewID()
		th[1].Put(events.CreateBegin, task, id)
		th[1].Put(events.CreateEnd, task, id)
		for i, t := range th {
			t.Put(events.ImplicitEnd, par, imp[i])
		}
		after(th[0], th[1])
		th[0].Put(events.Loc, 0, s.Loc("0", 0))
		th[0].Put(events.Join, par, 0)
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		if got := lineages(t, dir)[id]; got != tc.want {
			t.Errorf("%s, format 2: lineage %s, want %s", tc.kind, got, tc.want)
		}
	}
}

// TestLineageIterations checks the names of tasks whose creation records
// the loop iteration that created them (format 4): by the iteration,
// whichever thread ran it and whatever chunk held it; the tasks the same
// chunks create without one (a function the body calls) by chunk, or
// "?" without chunks; an iteration recorded outside a for loop names
// nothing.
func TestLineageIterations(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "exp")
	s, err := evtest.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	s.Kinds = []string{"grains"}
	par := s.Region("parallel", "l.c", 1)
	loop := s.Region("for", "l.c", 2)
	plain := s.Region("for", "l.c", 3)
	task := s.Region("task", "l.c", 4)
	single := s.Region("single", "l.c", 5)
	th, imp := team(s, par, 2)
	want := map[uint64]string{}
	create := func(t *evtest.Thread, lineage string, iter ...uint64) {
		id := t.NewID()
		t.Put(events.CreateBegin, task, append([]uint64{id}, iter...)...)
		t.Put(events.CreateEnd, task, id)
		want[id] = lineage
	}
	both := func(typ events.Type, region uint32) {
		for _, t := range th {
			t.Put(typ, region)
		}
	}
	// Chunks 4-6 (thread 1) and 0-3 (thread 0).
	both(events.EnterConstruct, loop)
	th[1].Put(events.ChunkBegin, loop, 4)
	create(th[1], "R.p0.w0#4.0", 4)
	create(th[1], "R.p0.w0#4.1", 4)
	create(th[1], "R.p0.w0@4.0") // by a call
	create(th[1], "R.p0.w0#6.0", 6)
	th[1].Put(events.ChunkEnd, loop, 6)
	th[0].Put(events.ChunkBegin, loop, 0)
	create(th[0], "R.p0.w0#0.0", 0)
	create(th[0], "R.p0.w0#3.0", 3)
	create(th[0], "R.p0.w0@0.0")
	th[0].Put(events.ChunkEnd, loop, 3)
	both(events.ExitConstruct, loop)
	// No chunks: iterations 0 and 1 on thread 1, 2 on thread 0; the
	// loop's next execution numbers its iterations anew.
	for n := 1; n <= 2; n++ {
		w := ".w" + evtest.Itoa(n)
		both(events.EnterConstruct, plain)
		create(th[1], "R.p0"+w+"#0.0", 0)
		create(th[1], "R.p0"+w+"?.0") // by a call
		create(th[1], "R.p0"+w+"#1.0", 1)
		create(th[0], "R.p0"+w+"#2.0", 2)
		create(th[0], "R.p0"+w+"#2.1", 2)
		both(events.ExitConstruct, plain)
	}
	both(events.EnterConstruct, single)
	th[0].Put(events.EnterBody, single)
	create(th[0], "R.p0.w3.0", 7)
	th[0].Put(events.ExitBody, single)
	both(events.ExitConstruct, single)
	create(th[1], "R.p0.t1.0", 8)
	for i, t := range th {
		t.Put(events.ImplicitEnd, par, imp[i])
	}
	after(th[0], th[1])
	th[0].Put(events.Loc, 0, s.Loc("0", 0))
	th[0].Put(events.Join, par, 0)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, lineages(t, dir)); diff != "" {
		t.Errorf("lineages (-want +got):\n%s", diff)
	}
}
