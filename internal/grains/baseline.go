package grains

import (
	"math"
	"strconv"
	"strings"

	"gopari/internal/events"
	"gopari/internal/timeline"
)

// A baseline is a 1-thread run of the same program: the execution time of
// each of its grains, for the work deviation of a run's grains.
type baseline struct {
	exec  map[string]float64  // ns by identity; NaN where two grains have one
	loops map[string]*LoopSum // chunks together, by loop execution
}

// A LoopSum is the chunks of one execution of a loop together: the
// loop-level figure of work inflation where the chunks are other grains
// than the baseline's (a static schedule divides the iterations by the
// team's size). It is never a grain's work deviation.
type LoopSum struct {
	Region      uint32
	Ns          float64
	Iters       int64
	First, Last int64
	Unmatched   bool // a chunk of it has no baseline chunk
}

// add counts chunk g, of ns, into the sum of its loop execution in m.
func addLoop(m map[string]*LoopSum, g *Grain, ns float64, matched bool) {
	if g.Kind != Chunk || !g.HasIters || g.Last == events.UnknownIteration || strings.Contains(g.Lineage, timeline.Unknown) {
		return
	}
	k := g.Lineage
	if i := strings.LastIndexByte(k, '@'); i >= 0 {
		k = k[:i]
	}
	s := m[k]
	if s == nil {
		s = &LoopSum{Region: g.Region, First: g.First, Last: g.Last}
		m[k] = s
	}
	s.Ns += ns
	s.Iters += g.Last - g.First + 1
	s.First, s.Last = min(s.First, g.First), max(s.Last, g.Last)
	s.Unmatched = s.Unmatched || !matched
}

// A Match says how a grain was matched with the baseline's grains.
type Match uint8

const (
	NoBaseline Match = iota // no baseline given
	Matched                 // the same grain ran in the baseline: a work deviation
	Ambiguous               // its identity is not known, or not unique: never compared
	Missing                 // no grain of the baseline is this one
)

// identity returns what names grain g in any run of the program, or ""
// when nothing does: its lineage has a "?" (timeline.Unknown), or it is
// a taskloop task or a chunk whose iterations are not numbered. A
// taskloop task is its lineage and its iteration range: the runtime
// splits a taskloop by the team's size unless grainsize or num_tasks
// says otherwise, and a task of other iterations is another grain. So is
// a chunk: its lineage names its loop's execution and its first
// iteration, and a chunk of other iterations (a static schedule divides
// them by the team's size) is another grain, never compared with this
// one in proportion: iterations need not cost alike.
func identity(g *Grain) string {
	if strings.Contains(g.Lineage, timeline.Unknown) {
		return ""
	}
	if g.Kind == Taskloop || g.Kind == Chunk {
		if !g.HasIters || g.Last == events.UnknownIteration {
			return ""
		}
		return g.Kind.String() + " " + g.Lineage + "-" + strconv.FormatInt(g.Last, 10)
	}
	return g.Kind.String() + " " + g.Lineage
}

// readBaseline reads the grains of exp.
func readBaseline(exp *events.Experiment) (*baseline, error) {
	b := &baseline{exec: map[string]float64{}, loops: map[string]*LoopSum{}}
	_, err := Extract(exp, func(g *Grain, _ *timeline.Event) {
		addLoop(b.loops, g, exp.Clock.Dur(g.Exec), true)
		k := identity(g)
		if k == "" {
			return
		}
		ns := exp.Clock.Dur(g.Exec)
		if _, dup := b.exec[k]; dup {
			ns = math.NaN() // two grains of one name: neither is compared
		}
		b.exec[k] = ns
	}, nil)
	return b, err
}

// time returns the baseline's execution time of grain g in ns (NaN when
// it has none), and how g was matched: by its identity.
func (b *baseline) time(g *Grain) (float64, Match) {
	k := identity(g)
	if k == "" {
		return math.NaN(), Ambiguous
	}
	ns, ok := b.exec[k]
	switch {
	case !ok:
		return math.NaN(), Missing
	case math.IsNaN(ns):
		return ns, Ambiguous
	}
	return ns, Matched
}
