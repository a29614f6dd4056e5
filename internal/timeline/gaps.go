package timeline

import "gopari/internal/events"

// A Gap is a span of a location's time whose records the runtime dropped
// (GOPARI_TRACE_MAX_BYTES, a full disk): the exporters mark each one,
// with its count, so that the gaps of a run add up to profile.json's
// events.dropped.
//
// A DROPPED record is one: its records were dropped between the
// stream's previous event (the run's start if it had none) and the
// record. A stream that stopped (a failed write) says nothing of what
// its thread recorded after its last block: those records are counted
// in profile.json alone, per file (dropped, less what the file's DROPPED
// records say) and per OS thread that wrote no file (events.unwritten).
// Each is an end gap, from the thread's last event kept (the run's
// start for a thread without a file) to the end of the run, on the
// location its thread acted as last (for a thread without a file, the
// first location profile.json gives it).
type Gap struct {
	Loc      int
	From, To uint64 // ticks; From is never before what the location had before
	Records  int64
	End      bool // an end gap, returned by EndGaps
}

// dropped handles a DROPPED record of thread th: its gap, as an event.
func (r *Replay) dropped(th *thread, src int, rec events.Record) error {
	l := &r.Locs[th.loc]
	from := r.exp.Clock.Tick0
	if th.seen {
		from = th.last
	}
	from = max(from, l.Last)
	t := r.Clamp(th.loc, rec.Time)
	r.maxTime = max(r.maxTime, t)
	n := int64(rec.Args[0])
	th.dropped += n
	r.Stats.Dropped += n
	r.ev = Event{Record: rec, Src: src, OS: th.os, Loc: th.loc, From: -1, Task: th.top(),
		Gap: Gap{Loc: th.loc, From: min(from, t), To: t, Records: n}}
	r.ev.Time = t
	return nil
}

// EndGaps returns the end gaps of a replay that ran to the end, in the
// order of the stream files, then of the OS threads without a file. Their
// From is no earlier than the location's last time when Run returned;
// an exporter that closes what was left open first (at that time) draws
// them after.
func (r *Replay) EndGaps() []Gap { return r.gaps }

// endGaps finds the end gaps once every stream is read.
func (r *Replay) endGaps() {
	if len(r.Locs) == 0 {
		return
	}
	ev := &r.exp.Events
	var end uint64
	if p := r.exp.Profile; p != nil && r.exp.Clock.NsPerTick > 0 {
		end = r.exp.Clock.Tick0 + uint64(float64(p.WallNs)/r.exp.Clock.NsPerTick)
	}
	end = max(end, r.maxTime)
	add := func(loc int, from uint64, n int64) {
		from = max(from, r.Locs[loc].Last)
		r.gaps = append(r.gaps, Gap{Loc: loc, From: from, To: max(end, from), Records: n, End: true})
		r.Stats.Dropped += n
	}
	counted := int64(0)
	for i, f := range ev.Files {
		counted += f.Dropped
		if i >= len(r.threads) {
			break
		}
		th := r.threads[i]
		lost := f.Dropped - th.dropped
		if lost <= 0 {
			continue
		}
		loc, from := th.loc, r.exp.Clock.Tick0
		if loc < 0 {
			loc = r.locOfOS(f.OSThread)
		}
		if th.seen {
			from = th.last
		}
		add(loc, from, lost)
	}
	for _, u := range ev.Unwritten {
		counted += u.Dropped
		if u.Dropped > 0 {
			add(r.locOfOS(u.OSThread), r.exp.Clock.Tick0, u.Dropped)
		}
	}
	// A profile written before events.unwritten counted the records of
	// threads without a file in events.dropped alone.
	if rest := ev.Dropped - counted; rest > 0 {
		add(0, r.exp.Clock.Tick0, rest)
	}
}

// locOfOS returns the first location profile.json gives OS thread os,
// or 0.
func (r *Replay) locOfOS(os int) int {
	for i, t := range r.exp.Threads {
		if t.OSThread == os {
			return i
		}
	}
	return 0
}
