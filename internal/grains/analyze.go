package grains

import (
	"io"
	"math"
	"math/bits"
	"sort"

	"gopari/internal/events"
	"gopari/internal/timeline"
)

// Options are the thresholds of the problems flagged.
type Options struct {
	// Benefit flags grains whose parallel benefit is below it (default 1:
	// they cost more to create or dispatch than they run).
	Benefit float64
	// Inflation flags grains whose execution time is above this many
	// times their time in the baseline run (default 1.5).
	Inflation float64
	// Parallelism flags critical-path grains that ran while fewer than
	// this many grains executed on average (default: half the largest
	// team).
	Parallelism float64
	// Balance flags loops whose load balance is below it (default 0.8).
	Balance float64
	// Baseline is a 1-thread run of the same program, for work deviation.
	Baseline *events.Experiment
	// Scatter computes each task's scatter, which only the CSV shows: it
	// keeps one entry per task family for the whole first pass.
	Scatter bool
	// Slice selects the grains written; the zero Slice keeps them all.
	Slice Slice
	// Progress, when not nil, receives a line every Every of a long pass
	// over the stream.
	Progress io.Writer
}

func (o *Options) defaults() {
	if o.Benefit == 0 {
		o.Benefit = 1
	}
	if o.Inflation == 0 {
		o.Inflation = 1.5
	}
	if o.Balance == 0 {
		o.Balance = 0.8
	}
}

// Problems of a grain, as a bit set.
type Problem uint8

const (
	LowBenefit Problem = 1 << iota
	Inflation
	LowParallelism
	Imbalance
)

var problemNames = []string{"low_benefit", "inflation", "low_parallelism", "imbalance"}

// Names returns the problem names, joined by sep.
func (p Problem) Names(sep string) string {
	s := ""
	for i, n := range problemNames {
		if p&(1<<i) != 0 {
			if s != "" {
				s += sep
			}
			s += n
		}
	}
	return s
}

// Metrics are a grain's derived values, in nanoseconds where they are
// times. NaN means "not defined" (no cost measured, no baseline grain, no
// siblings, not a chunk).
type Metrics struct {
	CreateNs, SchedNs, ExecNs float64
	StartNs, EndNs            float64
	Benefit                   float64 // execution over creation plus scheduling cost
	Deviation                 float64 // execution over the baseline's
	Parallelism               float64 // mean number of grains executing during this one
	Balance                   float64 // chunks: their loop's mean thread time over the maximum
	Scatter                   float64 // distinct threads of the siblings, 0 (one) .. 1 (all they could)
	Critical                  bool
	Problems                  Problem
	Baseline                  Match // how the grain was matched with the baseline's
}

// hist is the number of executing grains over time, in bins that double
// their width as the run grows, so that its memory stays fixed.
type hist struct {
	start, width uint64
	bins         [histBins]float64 // grain-ticks per bin
	init         bool
}

const histBins = 4096

func (h *hist) grow(t uint64) {
	for t >= h.start+h.width*histBins {
		for i := 0; i < histBins/2; i++ {
			h.bins[i] = h.bins[2*i] + h.bins[2*i+1]
		}
		for i := histBins / 2; i < histBins; i++ {
			h.bins[i] = 0
		}
		h.width *= 2
	}
}

// add adds n grains executing over [a, b).
func (h *hist) add(a, b uint64, n float64) {
	if b <= a || n == 0 {
		return
	}
	if !h.init {
		h.start, h.width, h.init = a, 1, true
	}
	if a < h.start {
		a = h.start
	}
	h.grow(b)
	for a < b {
		i := (a - h.start) / h.width
		end := h.start + (i+1)*h.width
		if end > b {
			end = b
		}
		h.bins[i] += n * float64(end-a)
		a = end
	}
}

// mean returns the mean number of executing grains over [a, b).
func (h *hist) mean(a, b uint64) float64 {
	if !h.init || b <= a {
		if h.init && a >= h.start && (a-h.start)/h.width < histBins {
			i := (a - h.start) / h.width
			return h.bins[i] / float64(h.width)
		}
		return math.NaN()
	}
	var sum float64
	for t := a; t < b; {
		if t < h.start {
			t = h.start
			continue
		}
		i := (t - h.start) / h.width
		if i >= histBins {
			break
		}
		bs := h.start + i*h.width
		end := bs + h.width
		if end > b {
			end = b
		}
		sum += h.bins[i] * float64(end-t) / float64(h.width)
		t = end
	}
	return sum / float64(b-a)
}

// A family is the children of one parent, for scatter: one per parent
// task until the CSV is written, so kept small. Locations 64 and up, in
// runs that have them, are in familyTable.more.
type family struct {
	children uint32
	locs     uint64 // bit set of executing locations 0..63
}

// A familyTable holds the families by parent ID. Task IDs are a
// thread's index in the high 32 bits and a count of the IDs it handed
// out in the low 32 (pomprt/tasks.c), so the families of each index fill
// pages of consecutive IDs: 16 bytes per ID, where a map entry took 100
// or more, and no copy as the table grows. IDs far beyond the pages
// held (not from gopari's runtime) go to a map.
type familyTable struct {
	pages [][]*familyPage // by thread index, then by ID / pageIDs
	other map[uint64]*family
	more  map[uint64][]uint64
}

const pageIDs = 4096

type familyPage [pageIDs]family

// at returns the family of parent id, created empty if need be. An ID
// that went to the map stays there when pages come to cover it.
func (ft *familyTable) at(id uint64) *family {
	if f := ft.other[id]; f != nil {
		return f
	}
	if f := ft.slot(id, true); f != nil {
		return f
	}
	if ft.other == nil {
		ft.other = map[uint64]*family{}
	}
	f := &family{}
	ft.other[id] = f
	return f
}

// lookup returns the family of parent id, or nil if it has no children.
func (ft *familyTable) lookup(id uint64) *family {
	if f := ft.other[id]; f != nil {
		return f
	}
	if f := ft.slot(id, false); f != nil && f.children > 0 {
		return f
	}
	return nil
}

// slot returns id's entry in the pages, or nil where none holds it; grow
// adds the pages of IDs not far beyond the ones held.
func (ft *familyTable) slot(id uint64, grow bool) *family {
	idx, n := id>>32, int(uint32(id))
	pn := n / pageIDs
	if idx >= 1<<16 || !grow && (idx >= uint64(len(ft.pages)) || pn >= len(ft.pages[idx])) {
		return nil
	}
	for uint64(len(ft.pages)) <= idx {
		ft.pages = append(ft.pages, nil)
	}
	pt := ft.pages[idx]
	if pn >= len(pt) && pn <= 2*len(pt)+16 {
		pt = append(pt, make([]*familyPage, pn+1-len(pt))...)
		ft.pages[idx] = pt
	}
	if pn >= len(pt) {
		return nil
	}
	if pt[pn] == nil {
		if !grow {
			return nil
		}
		pt[pn] = new(familyPage)
	}
	return &pt[pn][n%pageIDs]
}

type loopAgg struct {
	perLoc map[int]uint64
	size   int
}

type cpEntry struct {
	own  uint64 // the parent's own critical work: its chunks, for an implicit task
	best uint64 // the longest child path
	path *cpNode
}

type cpNode struct {
	id   uint64
	next *cpNode
}

// Analysis holds what the first pass over a run learned.
type Analysis struct {
	Exp        *events.Experiment
	Opts       Options
	Grains     int64
	Kept       int64 // the grains Opts.Slice keeps
	MaxTeam    int
	conc       hist
	executing  map[int]bool // OS thread -> executing a grain
	nexec      int
	lastChange uint64
	families   familyTable
	loops      map[LoopKey]*loopAgg
	cp         map[uint64]*cpEntry
	critical   map[uint64]bool // task IDs on the critical path; implicit task IDs whose chunks are
	baseline   *baseline
	Timeline   timeline.Stats
}

// Analyze makes the first pass over exp: concurrency over time, families,
// loops, the critical path; and reads the baseline, if any.
func Analyze(exp *events.Experiment, opts Options) (*Analysis, error) {
	opts.defaults()
	a := &Analysis{Exp: exp, Opts: opts, executing: map[int]bool{},
		loops: map[LoopKey]*loopAgg{}, cp: map[uint64]*cpEntry{}, critical: map[uint64]bool{}}
	nlocs := len(exp.Threads)
	r, err := Extract(exp, func(g *Grain, ev *timeline.Event) {
		a.Grains++
		if opts.Slice.keeps(exp, g) {
			a.Kept++
		}
		if g.Kind != Chunk {
			if opts.Scatter {
				a.family(g, nlocs)
			}
			// Critical path: this task's path is its work and its longest
			// child path; it competes among its parent's children.
			e := a.cp[g.ID]
			delete(a.cp, g.ID)
			length, path := g.Exec, &cpNode{id: g.ID}
			if e != nil {
				length += e.best
				path.next = e.path
			}
			p := a.entry(g.Parent)
			if length > p.best {
				p.best, p.path = length, path
			}
		} else {
			l := a.loops[g.Loop]
			if l == nil {
				l = &loopAgg{perLoc: map[int]uint64{}}
				a.loops[g.Loop] = l
			}
			l.perLoc[g.Loc] += g.Exec
			if g.TeamSize > l.size {
				l.size = g.TeamSize
			}
			a.entry(g.Parent).own += g.Exec
		}
		if g.TeamSize > a.MaxTeam {
			a.MaxTeam = g.TeamSize
		}
	}, a.progress(opts.Progress, "first pass", a.observe))
	if err != nil {
		return nil, err
	}
	a.Timeline = r.Stats
	if a.MaxTeam == 0 {
		a.MaxTeam = maxTeam(exp)
	}
	if a.Opts.Parallelism == 0 && a.MaxTeam > 2 {
		// Half the largest team. A grain runs with itself at least, so a
		// team of two or one has no parallelism to lack.
		a.Opts.Parallelism = float64(a.MaxTeam) / 2
	}
	// The critical path starts at the root whose path is longest.
	var best uint64
	var root uint64
	var path *cpNode
	for id, e := range a.cp {
		if l := e.own + e.best; l > best || (l == best && id < root) {
			best, root, path = l, id, e.path
		}
	}
	if best > 0 {
		a.critical[root] = true
		for n := path; n != nil; n = n.next {
			a.critical[n.id] = true
		}
	}
	a.cp = nil
	if opts.Baseline != nil {
		if a.baseline, err = readBaseline(opts.Baseline); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// maxTeam returns the size of the largest team from the profile's
// threads: the most children of one location.
func maxTeam(exp *events.Experiment) int {
	n := map[string]int{}
	best := 1
	for _, t := range exp.Threads {
		if t.Level == 0 {
			continue
		}
		p := t.Path
		for i := len(p) - 1; i >= 0; i-- {
			if p[i] == '.' {
				p = p[:i]
				break
			}
		}
		n[p]++
		if n[p] > best {
			best = n[p]
		}
	}
	return best
}

// family counts grain g in its family, for scatter.
func (a *Analysis) family(g *Grain, nlocs int) {
	f := a.families.at(g.Parent)
	f.children++
	switch l := g.Loc; {
	case l >= 0 && l < 64 && l < nlocs:
		f.locs |= 1 << l
	case l >= 64 && l < nlocs:
		ft := &a.families
		if ft.more == nil {
			ft.more = map[uint64][]uint64{}
		}
		more := ft.more[g.Parent]
		if more == nil {
			more = make([]uint64, (nlocs-64+63)/64)
			ft.more[g.Parent] = more
		}
		more[(l-64)/64] |= 1 << ((l - 64) % 64)
	}
}

func (a *Analysis) entry(id uint64) *cpEntry {
	e := a.cp[id]
	if e == nil {
		e = &cpEntry{}
		a.cp[id] = e
	}
	return e
}

// observe keeps the number of OS threads executing a grain, and adds it
// to the concurrency histogram whenever it changes.
func (a *Analysis) observe(r *timeline.Replay, ev *timeline.Event) {
	check := func(os int) {
		t := r.Current(os)
		on := false
		if t != nil && t.Current() {
			switch t.Kind {
			case timeline.Explicit, timeline.Taskloop:
				on = true
			case timeline.Implicit:
				for _, f := range t.Open {
					if f.Kind == timeline.FrameChunk {
						on = true
					}
				}
			}
		}
		if on != a.executing[os] {
			a.conc.add(a.lastChange, ev.Time, float64(a.nexec))
			a.lastChange = ev.Time
			a.executing[os] = on
			if on {
				a.nexec++
			} else {
				a.nexec--
			}
		}
	}
	if ev.Type == events.Resume || ev.Type == events.Join {
		for _, os := range r.OSThreads() {
			check(os)
		}
		return
	}
	check(ev.OS)
}

// Measure returns the metrics of grain g.
func (a *Analysis) Measure(g *Grain) Metrics {
	ck := a.Exp.Clock
	m := Metrics{CreateNs: ck.Dur(g.Create), SchedNs: ck.Dur(g.Sched), ExecNs: ck.Dur(g.Exec),
		StartNs: ck.Ns(g.Begin), EndNs: ck.Ns(g.End),
		Benefit: math.NaN(), Deviation: math.NaN(), Balance: math.NaN(), Scatter: math.NaN()}
	if cost := m.CreateNs + m.SchedNs; cost > 0 {
		m.Benefit = m.ExecNs / cost
		if m.Benefit < a.Opts.Benefit {
			m.Problems |= LowBenefit
		}
	}
	if a.baseline != nil {
		var b float64
		if b, m.Baseline = a.baseline.time(g); b > 0 {
			m.Deviation = m.ExecNs / b
			if m.Deviation > a.Opts.Inflation {
				m.Problems |= Inflation
			}
		}
	}
	m.Parallelism = a.conc.mean(g.Begin, g.End)
	if g.Kind == Chunk {
		m.Critical = a.critical[g.Parent]
		if l := a.loops[g.Loop]; l != nil {
			m.Balance = l.balance()
			if m.Balance < a.Opts.Balance {
				m.Problems |= Imbalance
			}
		}
	} else {
		m.Critical = a.critical[g.ID]
		if f := a.families.lookup(g.Parent); f != nil && f.children > 1 {
			m.Scatter = f.scatter(a.MaxTeam, a.families.more[g.Parent])
		}
	}
	if m.Critical && m.Parallelism < a.Opts.Parallelism {
		m.Problems |= LowParallelism
	}
	return m
}

// balance is the mean time of the team's threads in the loop over the
// largest: 1 when every thread worked as long as the slowest.
func (l *loopAgg) balance() float64 {
	var sum, max uint64
	for _, v := range l.perLoc {
		sum += v
		if v > max {
			max = v
		}
	}
	n := l.size
	if n < len(l.perLoc) {
		n = len(l.perLoc)
	}
	if max == 0 || n == 0 {
		return math.NaN()
	}
	return float64(sum) / float64(n) / float64(max)
}

// scatter is how many distinct threads a family's children ran on,
// from 0 (all on one) to 1 (as many as there could be).
func (f *family) scatter(team int, more []uint64) float64 {
	n := bits.OnesCount64(f.locs)
	for _, w := range more {
		n += bits.OnesCount64(w)
	}
	most := int(f.children)
	if team < most {
		most = team
	}
	if most <= 1 {
		return math.NaN()
	}
	if n > most {
		n = most
	}
	return float64(n-1) / float64(most-1)
}

// LoopBalances returns every loop execution's load balance, by region.
func (a *Analysis) LoopBalances() map[uint32][]float64 {
	out := map[uint32][]float64{}
	for k, l := range a.loops {
		if b := l.balance(); !math.IsNaN(b) {
			out[k.Region] = append(out[k.Region], b)
		}
	}
	for _, v := range out {
		sort.Float64s(v)
	}
	return out
}
