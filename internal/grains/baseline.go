package grains

import (
	"math"
	"sort"
	"strings"

	"gopari/internal/events"
	"gopari/internal/timeline"
)

// A baseline is a 1-thread run of the same program: the execution time of
// each of its grains, for the work deviation of a run's grains.
type baseline struct {
	exec  map[string]float64     // ns by kind and lineage
	loops map[string][]baseChunk // chunks by loop execution, in iteration order
}

type baseChunk struct {
	first, last int64
	ns          float64
}

// readBaseline reads the grains of exp.
func readBaseline(exp *events.Experiment) (*baseline, error) {
	b := &baseline{exec: map[string]float64{}, loops: map[string][]baseChunk{}}
	_, err := Extract(exp, func(g *Grain, _ *timeline.Event) {
		ns := exp.Clock.Dur(g.Exec)
		if g.Kind != Chunk {
			b.exec[g.Kind.String()+" "+g.Lineage] = ns
			return
		}
		k := loopLineage(g.Lineage)
		b.loops[k] = append(b.loops[k], baseChunk{g.First, g.Last, ns})
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

// time returns the baseline's execution time of grain g in ns, or NaN.
// A chunk gets the time of the baseline's chunks of the same iterations:
// the same chunk where the schedule makes the same chunks at any team
// size (static and dynamic with a chunk size); otherwise (static without
// a chunk size divides the iterations by the team's size, guided by what
// is left) the chunks it overlaps, each in proportion to the iterations
// they share, as if its iterations cost alike.
func (b *baseline) time(g *Grain) float64 {
	if g.Kind != Chunk {
		if ns, ok := b.exec[g.Kind.String()+" "+g.Lineage]; ok {
			return ns
		}
		return math.NaN()
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
		return math.NaN() // the baseline ran other iterations
	}
	return ns
}
