package html

import (
	"math"
	"sort"

	"gopari/internal/events"
	"gopari/internal/pop"
	"gopari/internal/profile"
	"gopari/internal/timeline"
)

// The timeline shows, for every team-tree thread, what it did over time:
// the task it executed, coloured by region, or that it waited, created
// a task, or had forked a team. It comes from one replay of the event
// stream (internal/timeline). Up to maxSegments segments are kept as
// they are; a larger trace is summarised in bins of equal width, each
// holding the share of its time per category, so that the page's size
// and the memory used do not grow with the trace.

// Categories of the timeline; regions follow from catRegion on.
const (
	catIdle = iota
	catSerial
	catWait
	catCreate
	catFork
	catOther // regions beyond maxCats
	catRegion
)

// tlData is the timeline as the page's script reads it.
type tlData struct {
	Mode      string    `json:"mode"` // "exact" or "binned"
	EndNs     int64     `json:"end_ns"`
	BinNs     float64   `json:"bin_ns,omitempty"`
	Bins      int       `json:"bins,omitempty"`
	Cats      []tlCat   `json:"cats"`
	Tracks    []tlTrack `json:"tracks"`
	Records   int64     `json:"records"`
	Segments  int64     `json:"segments"` // kept, up to MaxSegments
	Dropped   int64     `json:"dropped"`
	Unmatched int64     `json:"unmatched"`
}

type tlCat struct {
	Name  string `json:"name"`
	Color string `json:"color"`
}

// tlTrack is one thread. Exact: segment i starts at the sum of S[0..i]
// (nanoseconds since the start of the run), lasts D[i] and has category
// C[i]. Binned: B holds triples (bin, category, ‰ of the bin's time).
type tlTrack struct {
	Path string  `json:"path"`
	S    []int64 `json:"s,omitempty"`
	D    []int64 `json:"d,omitempty"`
	C    []int   `json:"c,omitempty"`
	B    []int32 `json:"b,omitempty"`
}

type segment struct {
	start, end int64
	cat        int
}

type tlState struct {
	cat   int
	start int64
}

// summary collects the timeline during a replay.
type summary struct {
	exp      *events.Experiment
	r        *timeline.Replay
	cats     []tlCat
	regCat   map[uint32]int
	waitKind map[uint32]bool
	cur      []tlState
	segs     [][]segment
	nsegs    int64
	maxSegs  int
	overflow bool
	// Bins: bins[loc][bin*len(cats)+cat] in ns; bin width doubles as
	// the run grows past the last bin.
	nbins int
	width float64
	bins  [][]float32
}

// palette colours regions: ColorBrewer's Set3 and Paired, light enough
// for dark text.
var palette = []string{"#8dd3c7", "#80b1d3", "#fdb462", "#b3de69", "#bebada", "#fccde5", "#bc80bd", "#ccebc5",
	"#ffed6f", "#a6cee3", "#b2df8a", "#fb9a99", "#cab2d6", "#ffff99", "#1f78b4", "#33a02c"}

// buildTimeline replays exp's stream.
func buildTimeline(exp *events.Experiment, wallNs uint64, opts Options) (*tlData, error) {
	s := &summary{exp: exp, regCat: map[uint32]int{}, waitKind: map[uint32]bool{}, maxSegs: opts.MaxSegments, nbins: opts.Bins}
	s.cats = []tlCat{{"idle", "#ffffff"}, {"initial task (serial)", "#9e9e9e"}, {"waiting: barrier, taskwait, critical, lock", "#e15759"},
		{"creating a task", "#f28e2b"}, {"forked a team (fork-join)", "#d9d9d9"}, {"other regions", "#c7c7c7"}}
	for i := range exp.Regions {
		r := &exp.Regions[i]
		switch r.Kind {
		case "parallel", "task", "taskloop":
			if len(s.cats)-catRegion >= opts.MaxCategories {
				s.regCat[uint32(r.ID)] = catOther
				continue
			}
			name := r.Label() + " " + r.Where()
			if r.Kind == "parallel" {
				name = "implicit task of " + name
			}
			s.regCat[uint32(r.ID)] = len(s.cats)
			s.cats = append(s.cats, tlCat{name, palette[(len(s.cats)-catRegion)%len(palette)]})
		case "barrier", "taskwait", "critical", "ordered", "lock", "taskyield", "mpi":
			s.waitKind[uint32(r.ID)] = true
		}
	}
	s.r = timeline.New(exp)
	n := len(s.r.Locs)
	if s.nbins <= 0 {
		s.nbins = 16384
		for s.nbins > 1024 && n*s.nbins*len(s.cats)*4 > 32<<20 {
			s.nbins /= 2
		}
	}
	s.cur = make([]tlState, n)
	s.segs = make([][]segment, n)
	s.bins = make([][]float32, n)
	for i := range s.bins {
		s.bins[i] = make([]float32, s.nbins*len(s.cats))
	}
	s.width = math.Max(1, math.Ceil(float64(wallNs)/float64(s.nbins)))
	if err := s.r.Run(s.event); err != nil {
		return nil, err
	}
	var end int64
	for i, l := range s.r.Locs {
		t := s.ns(l.Last)
		end = max(end, t)
		s.set(i, catIdle, t)
	}
	return s.data(end), nil
}

func (s *summary) ns(ticks uint64) int64 {
	return max(0, int64(math.Round(s.exp.Clock.Ns(ticks))))
}

// event updates the states that ev changes.
func (s *summary) event(ev *timeline.Event) error {
	if ev.Loc < 0 || ev.Type == events.Loc || ev.Type == events.Dropped {
		return nil
	}
	t := s.ns(ev.Time)
	if ev.Type == events.Join && ev.Team != nil {
		for _, m := range ev.Team.Members {
			if m.Loc >= 0 && m.Loc != ev.Loc {
				s.set(m.Loc, catIdle, t)
			}
		}
	}
	if ev.From >= 0 && ev.From != ev.Loc {
		s.set(ev.From, s.stateOf(ev.FromTask), t)
	}
	s.set(ev.Loc, s.stateOf(s.r.Current(ev.OS)), t)
	return nil
}

// stateOf is the category of what a thread does when it executes task:
// its innermost open frame decides, then the kind of task.
func (s *summary) stateOf(task *timeline.Task) int {
	if task == nil {
		return catIdle
	}
	if n := len(task.Open); n > 0 {
		f := task.Open[n-1]
		switch f.Kind {
		case timeline.FrameCreate:
			return catCreate
		case timeline.FrameBarrier, timeline.FrameWait:
			return catWait
		case timeline.FrameFork:
			return catFork
		case timeline.FrameConstruct:
			if s.waitKind[f.Region] {
				return catWait
			}
		}
	}
	switch task.Kind {
	case timeline.Initial:
		return catSerial
	case timeline.Implicit:
		if task.Ended {
			return catWait // the closing barrier
		}
	}
	if c, ok := s.regCat[task.Region]; ok {
		return c
	}
	return catOther
}

// set gives location loc the category cat from time t on.
func (s *summary) set(loc, cat int, t int64) {
	if loc >= len(s.cur) {
		return
	}
	c := &s.cur[loc]
	if c.cat == cat {
		return
	}
	if c.cat != catIdle && t > c.start {
		s.emit(loc, segment{c.start, t, c.cat})
	}
	c.cat, c.start = cat, t
}

func (s *summary) emit(loc int, g segment) {
	s.bin(loc, g)
	if s.overflow {
		return
	}
	if l := s.segs[loc]; len(l) > 0 && l[len(l)-1].cat == g.cat && l[len(l)-1].end == g.start {
		l[len(l)-1].end = g.end
		return
	}
	s.nsegs++
	if s.nsegs > int64(s.maxSegs) {
		s.overflow = true
		s.segs = nil
		return
	}
	s.segs[loc] = append(s.segs[loc], g)
}

// bin adds a segment's time to the bins it covers.
func (s *summary) bin(loc int, g segment) {
	for float64(g.end) > s.width*float64(s.nbins) {
		s.widen()
	}
	nc := len(s.cats)
	b := s.bins[loc]
	for i := int(float64(g.start) / s.width); i < s.nbins; i++ {
		lo, hi := float64(i)*s.width, float64(i+1)*s.width
		part := math.Min(hi, float64(g.end)) - math.Max(lo, float64(g.start))
		if part > 0 {
			b[i*nc+g.cat] += float32(part)
		}
		if hi >= float64(g.end) {
			break
		}
	}
}

// widen doubles the bins' width, merging pairs.
func (s *summary) widen() {
	nc := len(s.cats)
	for _, b := range s.bins {
		for i := 0; i < s.nbins/2; i++ {
			for c := 0; c < nc; c++ {
				b[i*nc+c] = b[2*i*nc+c] + b[(2*i+1)*nc+c]
			}
		}
		clear(b[s.nbins/2*nc:])
	}
	s.width *= 2
}

func (s *summary) data(end int64) *tlData {
	d := &tlData{Mode: "exact", EndNs: end, Cats: s.cats, Records: s.r.Stats.Records, Segments: s.nsegs,
		Dropped: s.r.Stats.Dropped, Unmatched: s.r.Stats.Unmatched}
	for i, l := range s.r.Locs {
		tr := tlTrack{Path: l.Path}
		if !s.overflow {
			var prev int64
			for _, g := range s.segs[i] {
				tr.S = append(tr.S, g.start-prev)
				tr.D = append(tr.D, g.end-g.start)
				tr.C = append(tr.C, g.cat)
				prev = g.start
			}
		}
		d.Tracks = append(d.Tracks, tr)
	}
	if s.overflow {
		s.binned(d, end)
	}
	// Tracks in team-tree order: 0, 0.0, 0.1, …, 0.10.
	order := make([]int, len(d.Tracks))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return pop.PathLess(d.Tracks[order[a]].Path, d.Tracks[order[b]].Path) })
	tracks := make([]tlTrack, len(order))
	for i, o := range order {
		tracks[i] = d.Tracks[o]
	}
	d.Tracks = tracks
	return d
}

// binned fills d with the bins.
func (s *summary) binned(d *tlData, end int64) {
	d.Mode, d.BinNs = "binned", s.width
	d.Bins = min(s.nbins, int(math.Ceil(float64(end)/s.width)))
	nc := len(s.cats)
	for i := range d.Tracks {
		b := s.bins[i]
		for bin := 0; bin < d.Bins; bin++ {
			for c := 1; c < nc; c++ {
				if pm := int32(math.Round(1000 * float64(b[bin*nc+c]) / s.width)); pm > 0 {
					d.Tracks[i].B = append(d.Tracks[i].B, int32(bin), int32(c), pm)
				}
			}
		}
	}
}

// hasTrace reports whether p's run recorded a trace stream.
func hasTrace(p *profile.Profile) bool {
	if p.Events == nil {
		return false
	}
	for _, k := range p.Events.Kinds {
		if k == "trace" {
			return true
		}
	}
	return false
}
