package profile

import "math"

// A Time is what a region cost on one thread (TimeOn), or on all of them
// (Times): the one way every view of a profile counts it — gopari
// report, its HTML page and the merged report of an MPI job.
//
//   - Visits: how often the region ran. A parallel region's forks, on
//     the encountering thread (Implicit counts its implicit tasks, for
//     a region whose fork is not in the profile); a task or taskloop
//     region's instances executed; any other region's entries.
//   - InclNs: the time during which the region was open, what ran
//     inside it included (a region nested in itself counts once). A
//     parallel region's is its team's: its implicit tasks until the
//     join — their bodies, the tasks they ran in its closing barrier
//     and their wait there — and the fork and join on the encountering
//     thread. A task or taskloop region's is its instances' execution.
//   - ExclNs: the time in the region itself, nothing that runs inside
//     it: of a construct with a body (critical, single, master, section,
//     ...) its entry, its body's own code, its implicit barrier's wait
//     and a taskgroup's wait at its end. The exclusive times of the
//     regions at a thread, and an initial thread's InitialNs, add up to
//     the thread's time.
//   - WorkNs: what the thread imbalance of the region compares: its
//     time without the wait in its implicit barrier (a parallel region's
//     implicit tasks, ImplicitTask), a task or taskloop region's InclNs.
//   - Sampled: some of the times are estimates from timed samples.
//   - Threads: the threads that ran the region: of a parallel region
//     the team members that ran its implicit tasks (not the thread that
//     only forked and joined the team), of any other region those with
//     a visit of it.
//   - Imbalance: the thread imbalance of the region (Times): Imbalance
//     of the WorkNs of those threads; for a parallel region, of its
//     implicit tasks (as pop.Balances).
//   - Messages and Bytes: an MPI call's messages and their bytes.
type Time struct {
	Visits    uint64
	Implicit  uint64
	InclNs    float64
	ExclNs    float64
	WorkNs    float64
	Sampled   bool
	Threads   int
	Imbalance float64
	Messages  uint64
	Bytes     uint64
}

func (t *Time) add(o Time) {
	t.Visits += o.Visits
	t.Implicit += o.Implicit
	t.InclNs += o.InclNs
	t.ExclNs += o.ExclNs
	t.WorkNs += o.WorkNs
	t.Sampled = t.Sampled || o.Sampled
	t.Threads += o.Threads
	t.Messages += o.Messages
	t.Bytes += o.Bytes
}

// ImplicitTask returns what the implicit tasks of a parallel region did
// on the thread of s: their work (the bodies, and the tasks they ran in
// the region's closing barrier) and their wait in that barrier.
func (s *Stat) ImplicitTask() (workNs, waitNs float64) {
	if s.Body != nil {
		workNs = float64(s.Body.InclNs)
	}
	if b := s.Barrier; b != nil {
		waitNs = float64(b.ExclNs)
		workNs += math.Max(0, float64(b.InclNs)-float64(b.ExclNs))
	}
	return workNs, waitNs
}

// TimeOn returns what region r cost on the thread of s.
func TimeOn(r *Region, s *Stat) Time {
	t := Time{Messages: s.Messages, Bytes: s.Bytes}
	if s.Construct != nil || s.Body != nil || s.Barrier != nil || s.Wait != nil {
		t.Threads = 1
	}
	excl := func(ph *Phase) {
		if ph != nil {
			t.ExclNs += ph.ExclEstimateNs()
			t.Sampled = t.Sampled || ph.Sampled()
		}
	}
	incl := func(ph *Phase) float64 {
		if ph == nil {
			return 0
		}
		return float64(ph.InclNs)
	}
	switch r.Kind {
	case "parallel":
		if c := s.Construct; c != nil { // the fork and join, on the encountering thread
			t.Visits = c.Visits
			t.InclNs += float64(c.ExclNs)
			t.ExclNs += float64(c.ExclNs)
		}
		t.Threads = 0 // the encountering thread's fork and join is no implicit task
		if s.Body != nil {
			t.Implicit = s.Body.Visits
			t.Threads = 1
		}
		t.InclNs += incl(s.Body) + incl(s.Barrier)
		excl(s.Body)
		excl(s.Barrier)
		t.WorkNs, _ = s.ImplicitTask()
		return t
	case "task":
		if s.Construct != nil { // its instances that ended here
			t.Visits = s.Construct.Visits
		}
		t.InclNs = s.Construct.taskExecNs()
		excl(s.Construct)
	case "taskloop":
		// The construct where this thread encountered a taskloop
		// (creating and awaiting its tasks, and the tasks it ran
		// meanwhile) and the tasks it executed (Body), which may have
		// run outside a construct here: the inclusive time is the
		// construct's, or its own time and the tasks', whichever is
		// more, never below the exclusive time.
		if s.Body != nil { // its tasks that ended here
			t.Visits = s.Body.Visits
		}
		var cIncl, cExcl float64
		if c := s.Construct; c != nil {
			cIncl = c.inclEstimateNs()
			cExcl = c.ExclEstimateNs()
		}
		t.InclNs = math.Max(cIncl, cExcl+s.Body.taskExecNs())
		excl(s.Construct)
		excl(s.Body)
	default:
		if s.Construct != nil {
			t.Visits = s.Construct.Visits
		}
		// The body and a taskgroup's wait lie inside the construct; a
		// worksharing construct's implicit barrier follows it.
		t.InclNs = incl(s.Construct) + incl(s.Barrier)
		excl(s.Construct)
		excl(s.Body)
		excl(s.Wait)
		excl(s.Barrier)
		// Its work: the construct, and the tasks run in its barrier.
		t.WorkNs = incl(s.Construct)
		if b := s.Barrier; b != nil {
			t.WorkNs += math.Max(0, float64(b.InclNs)-float64(b.ExclNs))
		}
		return t
	}
	t.WorkNs = t.InclNs
	return t
}

// inclEstimateNs is the inclusive time of all visits, scaled where only
// some were timed.
func (p *Phase) inclEstimateNs() float64 {
	if p.Timed == 0 || p.Timed >= p.Visits {
		return float64(p.InclNs)
	}
	return float64(p.InclNs) * float64(p.Visits) / float64(p.Timed)
}

// Times returns what every region of the profile cost, summed over the
// threads, by region id. Estimates stay within the run (the wall time
// times the threads) and an exclusive time within its inclusive time.
func (p *Profile) Times() map[int]Time {
	return TimesBy(p, func(r *Region) int { return r.ID })
}

// TimesBy is Times with the regions grouped by key: regions of one key
// add up, as one region. The merge of an MPI job groups so the regions
// of ranks that may run different builds: by what and where they are.
func TimesBy[K comparable](p *Profile, key func(*Region) K) map[K]Time {
	out := map[K]Time{}
	work := map[K][]float64{} // per key, per thread that ran it
	for i := range p.Stats {
		s := &p.Stats[i]
		r := p.Region(s.Region)
		if r == nil {
			continue
		}
		k, on := key(r), TimeOn(r, s)
		t := out[k]
		t.add(on)
		out[k] = t
		if on.Threads > 0 {
			work[k] = append(work[k], on.WorkNs)
		}
	}
	limit := float64(p.WallNs) * float64(len(p.Threads))
	for k, t := range out {
		if limit > 0 {
			t.InclNs = math.Min(t.InclNs, limit)
		}
		t.ExclNs = math.Min(t.ExclNs, t.InclNs)
		if t.Visits == 0 {
			t.Visits = t.Implicit // a parallel region seen by its team only
		}
		t.Imbalance = Imbalance(work[k])
		out[k] = t
	}
	return out
}

// Initial returns what the initial tasks cost in their own code, outside
// every region (the program's serial code): Visits counts the initial
// threads that ran code of their own, InclNs is the run's wall time on
// each, ExclNs their own code. With the regions' exclusive times it makes
// up the threads' whole time.
func (p *Profile) Initial() Time {
	var t Time
	for _, th := range p.Threads {
		if th.InitialNs > 0 {
			t.Visits++
			t.InclNs += float64(p.WallNs)
			t.ExclNs += float64(th.InitialNs)
		}
	}
	t.WorkNs = t.InclNs
	return t
}

// Imbalance is (max − mean) / max of the work of the threads that ran a
// region: the share of the slowest thread's time that the others spent
// waiting for it; 0 for one thread or none.
func Imbalance(work []float64) float64 {
	var max, sum float64
	for _, w := range work {
		max = math.Max(max, w)
		sum += w
	}
	if len(work) < 2 || max <= 0 {
		return 0
	}
	return (max - sum/float64(len(work))) / max
}
