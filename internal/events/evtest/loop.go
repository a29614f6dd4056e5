package evtest

import "gopari/internal/events"

// A LoopChunk is a chunk the Loop scenario recorded.
type LoopChunk struct {
	Thread      int
	First, Last int64
}

// Loop writes a parallel region of threads threads that runs a loop of n
// iterations in chunks (--chunks), schedule static with chunk size k
// (k = 0: one block per thread), dynamic with chunk size k, or guided
// with minimum chunk k, and returns the chunks by construction. cost(i)
// is the ticks iteration i takes; dispatch the ticks between chunks.
// The loop runs reps times.
func Loop(dir, schedule string, n, k, threads, reps int, cost func(i int) uint64, dispatch uint64) (*Sim, []LoopChunk, error) {
	s, err := New(dir)
	if err != nil {
		return nil, nil, err
	}
	s.Kinds = []string{"grains"}
	par := s.Region("parallel", "loop.c", 5)
	loop := s.Region("for", "loop.c", 6)
	th := make([]*Thread, threads)
	for i := range th {
		th[i] = s.Thread()
	}
	m := th[0]
	m.Put(events.Loc, 0, s.Loc("0", 0))
	m.Put(events.Fork, par, 0)
	ids := make([]uint64, threads)
	for i, t := range th {
		t.T = m.T
		t.Put(events.Loc, 0, s.Loc("0."+Itoa(i), i))
		ids[i] = t.NewID()
		t.Put(events.ImplicitBegin, par, ids[i], 0)
	}
	var chunks []LoopChunk
	run := func(t *Thread, ti int, first, last int) {
		t.Wait(dispatch)
		t.Put(events.ChunkBegin, loop, uint64(first))
		for i := first; i <= last; i++ {
			t.Wait(cost(i))
		}
		t.Put(events.ChunkEnd, loop, uint64(last))
		chunks = append(chunks, LoopChunk{ti, int64(first), int64(last)})
	}
	for r := 0; r < reps; r++ {
		switch schedule {
		case "static":
			size := k
			if size == 0 {
				size = (n + threads - 1) / threads
			}
			for ti, t := range th {
				for first := ti * size; first < n; first += threads * size {
					run(t, ti, first, min(first+size, n)-1)
				}
			}
		default: // dynamic and guided: the thread that is free first takes the next chunk
			for next := 0; next < n; {
				ti := 0
				for i, t := range th {
					if t.T < th[ti].T {
						ti = i
					}
				}
				size := k
				if schedule == "guided" {
					size = max(k, (n-next)/(2*threads))
				}
				last := min(next+size, n) - 1
				run(th[ti], ti, next, last)
				next = last + 1
			}
		}
		end := m.T
		for _, t := range th {
			end = max(end, t.T)
		}
		for _, t := range th {
			t.T = end
		}
	}
	for i, t := range th {
		t.Put(events.ImplicitEnd, par, ids[i])
	}
	m.Put(events.Loc, 0, s.Loc("0", 0))
	m.Put(events.Join, par, 0)
	return s, chunks, s.Close()
}
