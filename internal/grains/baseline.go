package grains

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"gopari/internal/events"
	"gopari/internal/timeline"
)

// A baseline is a 1-thread run of the same program: the execution time of
// each of its grains, for the work deviation of a run's grains.
type baseline struct {
	exec  map[string]float64     // ns by identity; NaN where two grains have one
	loops map[string][]baseChunk // chunks by loop execution, in iteration order
}

type baseChunk struct {
	first, last int64
	ns          float64
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
// a taskloop task whose iterations are not numbered. A taskloop task is
// its lineage and its iteration range: the runtime splits a taskloop
// by the team's size unless grainsize or num_tasks says otherwise, and
// a task of other iterations is another grain.
func identity(g *Grain) string {
	if strings.Contains(g.Lineage, timeline.Unknown) {
		return ""
	}
	if g.Kind == Taskloop {
		if !g.HasIters || g.Last == events.UnknownIteration {
			return ""
		}
		return "taskloop " + g.Lineage + "-" + strconv.FormatInt(g.Last, 10)
	}
	return g.Kind.String() + " " + g.Lineage
}

// readBaseline reads the grains of exp.
func readBaseline(exp *events.Experiment) (*baseline, error) {
	b := &baseline{exec: map[string]float64{}, loops: map[string][]baseChunk{}}
	_, err := Extract(exp, func(g *Grain, _ *timeline.Event) {
		ns := exp.Clock.Dur(g.Exec)
		if g.Kind == Chunk {
			if !strings.Contains(g.Lineage, timeline.Unknown) {
				k := loopLineage(g.Lineage)
				b.loops[k] = append(b.loops[k], baseChunk{g.First, g.Last, ns})
			}
			return
		}
		k := identity(g)
		if k == "" {
			return
		}
		if _, dup := b.exec[k]; dup {
			ns = math.NaN() // two grains of one name: neither is compared
		}
		b.exec[k] = ns
	}, nil)
	for _, cs := range b.loops {
		sort.Slice(cs, func(i, j int) bool { return cs[i].first < cs[j].first })
	}
	return b, err
}

// loopLineage is a chunk's lineage without its first iteration: its
// loop's execution.
func loopLineage(l string) string {
	if i := strings.LastIndexByte(l, '@'); i >= 0 {
		return l[:i]
	}
	return l
}

// time returns the baseline's execution time of grain g in ns (NaN when
// it has none), and how g was matched. A task is matched by its identity.
// A chunk gets the time of the baseline's chunks of the same iterations:
// the same chunk where the schedule makes the same chunks at any team
// size (static and dynamic with a chunk size); otherwise (static without
// a chunk size divides the iterations by the team's size, guided by what
// is left) the chunks it overlaps, each in proportion to the iterations
// they share, as if its iterations cost alike.
func (b *baseline) time(g *Grain) (float64, Match) {
	if g.Kind != Chunk {
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
	if strings.Contains(g.Lineage, timeline.Unknown) {
		return math.NaN(), Ambiguous
	}
	cs := b.loops[loopLineage(g.Lineage)]
	i := sort.Search(len(cs), func(i int) bool { return cs[i].last >= g.First })
	var ns float64
	covered := int64(0)
	for ; i < len(cs) && cs[i].first <= g.Last; i++ {
		c := cs[i]
		lo, hi := max(c.first, g.First), min(c.last, g.Last)
		ns += c.ns * float64(hi-lo+1) / float64(c.last-c.first+1)
		covered += hi - lo + 1
	}
	if covered != g.Last-g.First+1 {
		return math.NaN(), Missing // the baseline ran other iterations
	}
	return ns, Matched
}
