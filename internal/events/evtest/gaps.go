package evtest

import "gopari/internal/events"

// GapsWallNs is the wall time of the Gaps run: its end is at tick
// Tick0 + GapsWallNs (a tick is a nanosecond).
const GapsWallNs = 5000

// Gaps writes a run whose stream lost records in each way the runtime
// loses them: a DROPPED record in the middle of thread a's stream, at
// location 0.0 (5 records, GOPARI_TRACE_MAX_BYTES); then the stream
// stopped (a failed write), and the records that a (3), b (7, at 0.1)
// and OS thread 2 (11; it wrote no file, location 0.2) recorded after
// their last block are counted in profile.json alone: 26 in all.
func Gaps(dir string) (*Sim, error) {
	s, err := New(dir)
	if err != nil {
		return nil, err
	}
	s.Extra = map[string]any{"wall_ns": GapsWallNs}
	par := s.Region("parallel", "gaps.c", 3)
	task := s.Region("task", "gaps.c", 5)
	a, b, ia, _ := s.team(par)
	s.Loc("0.2", 2)
	t1 := a.NewID()
	a.Put(events.CreateBegin, task, t1)
	a.Put(events.CreateEnd, task, t1)
	a.Wait(100)
	// A new block: its LOC, then what the blocks before it lost.
	a.Put(events.Loc, 0, s.Loc("0.0", 0))
	a.Put(events.Dropped, 0, 5)
	a.Put(events.TaskBegin, task, t1, ia)
	a.Put(events.TaskEnd, task, t1)
	a.Lost(3)
	b.Put(events.EnterBarrier, par)
	b.Lost(7)
	s.Unwritten(2, 11)
	return s, s.Close()
}
