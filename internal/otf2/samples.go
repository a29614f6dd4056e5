//go:build otf2

package otf2

/*
#include <otf2/otf2.h>
*/
import "C"

import (
	"fmt"
	"sort"

	"gopari/internal/callpath"
	"gopari/internal/events"
	"gopari/internal/experiment"
	"gopari/internal/profile"
	"gopari/internal/timeline"
)

// A sampled run's samples (GOPARI_SAMPLE_HZ in trace mode) are written
// as CALLING_CONTEXT_SAMPLE events on their locations, beside the
// ENTER/LEAVE events of the instrumented regions: a reader that knows
// only ENTER/LEAVE sees the trace it saw before, one that knows samples
// gets each sample's whole call path. The calling-context tree is the
// call-path tree every view shows (internal/callpath: outlined functions
// spliced out, a task below the path that created it), cut to the paths
// that samples name and their ancestors; a construct frame's region is
// the region its ENTER/LEAVE use, a function's the one its measured
// calls use (gopari cc --functions), else a region of paradigm SAMPLING.
// Ranks of a job share the contexts of paths that read alike.

// ctxDef is a calling context: a node of the tree, below parent.
type ctxDef struct {
	region C.OTF2_RegionRef
	scl    C.OTF2_SourceCodeLocationRef
	parent C.OTF2_CallingContextRef
}

// sclDef is a source code location.
type sclDef struct {
	file string
	line int
}

// genDef is an interrupt generator: a sampling timer.
type genDef struct {
	name     string
	periodNs uint64
}

// sampleDefs are the definitions the samples of every source need.
type sampleDefs struct {
	ctxs     []ctxDef
	depth    []int // per context: its depth, 1 for a root
	ctxIndex map[ctxDef]C.OTF2_CallingContextRef
	scls     []sclDef
	sclIndex map[sclDef]C.OTF2_SourceCodeLocationRef
	gens     []genDef
}

// partSamples are a part's samples by time, those before next written,
// and what its call-path tree's nodes are in the archive.
type partSamples struct {
	list []events.Sample
	next int
	tree *callpath.Tree
	rep  []int                      // per tree node: its first node in the profile
	ctx  []C.OTF2_CallingContextRef // per tree node, once defined
	prev []C.OTF2_CallingContextRef // per location: its last sample's context
	// Per location: the teams it forked that have not joined, and the
	// samples taken there meanwhile, written at the join after the
	// fork (forkJoin).
	forks []int
	held  [][]events.Sample
	// Per location: the regions it entered or left since its last
	// sample (unwindDistance).
	touched []map[C.OTF2_RegionRef]bool
	gen     C.OTF2_InterruptGeneratorRef
}

const noContext = C.OTF2_CallingContextRef(C.OTF2_UNDEFINED_CALLING_CONTEXT)

// loadSamples reads the part's samples (events/samples.bin), sorted by
// time, and checks that their nodes and locations exist.
func (p *part) loadSamples() error {
	path := experiment.Samples(p.exp.Dir)
	ss, err := events.ReadSamples(path)
	if err != nil || len(ss) == 0 || p.exp.Profile == nil || p.exp.Profile.CallPaths == nil {
		return err
	}
	t, err := callpath.FromProfile(p.exp.Profile)
	if err != nil || t == nil {
		return err
	}
	for _, s := range ss {
		if int(s.Node) >= len(t.Of) || int(s.Loc) >= len(p.r.Locs) {
			return fmt.Errorf("%s: a sample of node %d at location %d: no such node or location", path, s.Node, s.Loc)
		}
	}
	sort.SliceStable(ss, func(i, j int) bool { return ss[i].Tick < ss[j].Tick })
	ps := &partSamples{list: ss, tree: t, rep: make([]int, len(t.Nodes)), ctx: make([]C.OTF2_CallingContextRef, len(t.Nodes)),
		prev: make([]C.OTF2_CallingContextRef, len(p.r.Locs)), forks: make([]int, len(p.r.Locs)), held: make([][]events.Sample, len(p.r.Locs)),
		touched: make([]map[C.OTF2_RegionRef]bool, len(p.r.Locs))}
	for i := range ps.ctx {
		ps.ctx[i], ps.rep[i] = noContext, -1
	}
	for i := range ps.prev {
		ps.prev[i] = noContext
	}
	for raw := len(t.Of) - 1; raw >= 0; raw-- {
		ps.rep[t.Of[raw]] = raw // parents have lower IDs: the first is the node's own
	}
	ps.gen = p.x.generator(p.exp.Profile.CallPaths.Sampling)
	p.samples = ps
	return nil
}

// generator returns the interrupt generator of a run's sampling, defined
// at first sight.
func (x *exporter) generator(sg *profile.Sampling) C.OTF2_InterruptGeneratorRef {
	d := genDef{name: "gopari samples", periodNs: 0}
	if sg != nil {
		clock := "thread CPU time"
		if sg.Clock == "wall" {
			clock = "wall-clock time"
		}
		d = genDef{name: fmt.Sprintf("GOPARI_SAMPLE_HZ=%d (%s)", sg.Hz, clock), periodNs: sg.PeriodNs}
	}
	for i, g := range x.samp.gens {
		if g == d {
			return C.OTF2_InterruptGeneratorRef(i)
		}
	}
	x.samp.gens = append(x.samp.gens, d)
	return C.OTF2_InterruptGeneratorRef(len(x.samp.gens) - 1)
}

// sampleStrings names the strings the samples' definitions use.
func (x *exporter) sampleStrings() {
	for _, g := range x.samp.gens {
		x.str(g.name)
	}
	for _, s := range x.samp.scls {
		x.str(s.file)
	}
}

// sampleDefinitions writes the source code locations, the calling
// contexts (parents first, as they were made) and the interrupt
// generators: a period in ns, of time (OTF2's unit: seconds).
func (x *exporter) sampleDefinitions(g *C.OTF2_GlobalDefWriter) C.OTF2_ErrorCode {
	for i, s := range x.samp.scls {
		if e := C.OTF2_GlobalDefWriter_WriteSourceCodeLocation(g, C.OTF2_SourceCodeLocationRef(i), x.strings[s.file], C.uint32_t(s.line)); e != C.OTF2_SUCCESS {
			return e
		}
	}
	for i, c := range x.samp.ctxs {
		if e := C.OTF2_GlobalDefWriter_WriteCallingContext(g, C.OTF2_CallingContextRef(i), c.region, c.scl, c.parent); e != C.OTF2_SUCCESS {
			return e
		}
	}
	for i, d := range x.samp.gens {
		if e := C.OTF2_GlobalDefWriter_WriteInterruptGenerator(g, C.OTF2_InterruptGeneratorRef(i), x.strings[d.name],
			C.OTF2_INTERRUPT_GENERATOR_MODE_TIME, C.OTF2_BASE_DECIMAL, -9, C.uint64_t(d.periodNs)); e != C.OTF2_SUCCESS {
			return e
		}
	}
	return C.OTF2_SUCCESS
}

// samplesTo writes the samples taken up to tick t that the cut keeps;
// the others are passed over.
func (p *part) samplesTo(t uint64) {
	ps := p.samples
	if ps == nil {
		return
	}
	for ; ps.next < len(ps.list) && ps.list[ps.next].Tick <= t; ps.next++ {
		s := ps.list[ps.next]
		loc := int(s.Loc)
		switch {
		case !p.keep(loc) || s.Tick < p.fromT || s.Tick > p.toT:
		case ps.forks[loc] > 0:
			ps.held[loc] = append(ps.held[loc], s)
		default:
			p.writeSample(s)
		}
	}
}

// writeSample writes sample s, no earlier than what its location wrote:
// OTF2 takes a location's events in time order.
func (p *part) writeSample(s events.Sample) {
	ps, loc := p.samples, int(s.Loc)
	ctx := p.context(ps.tree.Of[s.Node])
	at := s.Tick
	if at < p.last[loc] {
		at = p.last[loc]
		p.x.stats.Timeline.Clamped++
	}
	p.x.rec("CALLING_CONTEXT_SAMPLE", C.OTF2_EvtWriter_CallingContextSample(p.writer(loc), nil, p.at(loc, at), ctx,
		C.uint32_t(p.x.unwindDistance(ps.prev[loc], ctx, ps.touched[loc])), ps.gen))
	ps.prev[loc] = ctx
	clear(ps.touched[loc])
}

// touch notes that location loc entered or left region reg.
func (p *part) touch(loc int, reg C.OTF2_RegionRef) {
	ps := p.samples
	if ps == nil || loc < 0 || loc >= len(ps.touched) {
		return
	}
	if ps.touched[loc] == nil {
		ps.touched[loc] = map[C.OTF2_RegionRef]bool{}
	}
	ps.touched[loc][reg] = true
}

// writeHeld writes the samples still held at the end of a run: of teams
// whose join the run lost with their fork.
func (p *part) writeHeld() {
	if p.samples == nil {
		return
	}
	for loc, held := range p.samples.held {
		for _, s := range held {
			p.writeSample(s)
		}
		p.samples.held[loc] = nil
	}
}

// forked notes that location loc forked a team: its fork is written at
// the join (forkJoin), and its samples are held until then.
func (p *part) forked(loc int) {
	if p.samples != nil && loc >= 0 {
		p.samples.forks[loc]++
	}
}

// joined notes that a team location loc forked joined, and returns the
// samples held at loc if no other fork of its is open.
func (p *part) joined(loc int) []events.Sample {
	ps := p.samples
	if ps == nil || loc < 0 || ps.forks[loc] == 0 {
		return nil
	}
	if ps.forks[loc]--; ps.forks[loc] > 0 {
		return nil
	}
	held := ps.held[loc]
	ps.held[loc] = nil
	return held
}

// unwindDistance is OTF2's unwind distance of a sample at context cur
// after one at prev on the same location, which since entered or left
// the regions touched: the number of frames of cur below the deepest
// frame that went on from one to the other, plus one (that frame, which
// made progress). That frame is the deepest the two contexts share,
// unless a shared frame's region was entered or left in between: then
// its parent (of a region that repeats in the chain, as recursion
// makes it, the innermost counts). Between the frames gopari measures,
// a sampler sees only stacks: a function left and called again reads as
// one that went on.
func (x *exporter) unwindDistance(prev, cur C.OTF2_CallingContextRef, touched map[C.OTF2_RegionRef]bool) int {
	sd := &x.samp
	d := func(c C.OTF2_CallingContextRef) int {
		if c == noContext {
			return 0
		}
		return sd.depth[c]
	}
	a, b := prev, cur
	for d(a) > d(b) {
		a = sd.ctxs[a].parent
	}
	for d(b) > d(a) {
		b = sd.ctxs[b].parent
	}
	for a != b {
		a, b = sd.ctxs[a].parent, sd.ctxs[b].parent
	}
	if len(touched) > 0 {
		var chain []C.OTF2_CallingContextRef // a and its ancestors, innermost first
		for c := a; c != noContext; c = sd.ctxs[c].parent {
			chain = append(chain, c)
		}
		seen := map[C.OTF2_RegionRef]bool{}
		for _, c := range chain { // innermost first: the last touched one not repeated inside is the outermost
			if r := sd.ctxs[c].region; touched[r] && !seen[r] {
				a = sd.ctxs[c].parent
			}
			seen[sd.ctxs[c].region] = true
		}
	}
	return d(cur) - d(a) + 1
}

// context returns the calling context of tree node id, defining it and
// its ancestors at first sight.
func (p *part) context(id int) C.OTF2_CallingContextRef {
	ps := p.samples
	if c := ps.ctx[id]; c != noContext {
		return c
	}
	parent, depth := noContext, 1
	if up := ps.tree.Nodes[id].Parent; up >= 0 {
		parent = p.context(up)
		depth = p.x.samp.depth[parent] + 1
	}
	n := ps.tree.Nodes[id]
	def := ctxDef{region: p.nodeRegion(id), scl: C.OTF2_UNDEFINED_SOURCE_CODE_LOCATION, parent: parent}
	if n.File != "" && n.Line > 0 {
		def.scl = p.x.scl(sclDef{n.File, n.Line})
	}
	sd := &p.x.samp
	c, ok := sd.ctxIndex[def]
	if !ok {
		c = C.OTF2_CallingContextRef(len(sd.ctxs))
		sd.ctxIndex[def] = c
		sd.ctxs = append(sd.ctxs, def)
		sd.depth = append(sd.depth, depth)
	}
	ps.ctx[id] = c
	return c
}

// scl returns a source code location, defined at first sight.
func (x *exporter) scl(d sclDef) C.OTF2_SourceCodeLocationRef {
	if ref, ok := x.samp.sclIndex[d]; ok {
		return ref
	}
	ref := C.OTF2_SourceCodeLocationRef(len(x.samp.scls))
	x.samp.sclIndex[d] = ref
	x.samp.scls = append(x.samp.scls, d)
	return ref
}

// nodeRegion returns the region of tree node id's frame: the region of
// its construct frame, as ENTER and LEAVE name it; a function's measured
// region, or one of paradigm SAMPLING; the root (the program) and the
// idle and overflow nodes as artificial regions.
func (p *part) nodeRegion(id int) C.OTF2_RegionRef {
	ps := p.samples
	n := ps.tree.Nodes[id]
	raw := ps.rep[id]
	var rn = p.exp.Profile.CallPaths.Nodes[max(raw, 0)]
	switch {
	case n.Kind == "region" && raw >= 0:
		return p.region(uint32(rn.Region), frameKind(rn.Frame, rn.Phase))
	case n.Kind == "function":
		if ref, ok := p.funcs[rn.Addr]; ok && raw >= 0 {
			return ref
		}
		return p.x.region(regionDef{name: n.Name, file: n.File, begin: n.Line, end: n.Line,
			role: C.OTF2_REGION_ROLE_FUNCTION, paradigm: C.OTF2_PARADIGM_SAMPLING})
	case n.Kind == "root":
		return p.x.region(regionDef{name: n.Name, role: C.OTF2_REGION_ROLE_ARTIFICIAL, paradigm: C.OTF2_PARADIGM_USER})
	}
	return p.x.region(regionDef{name: n.Name, role: C.OTF2_REGION_ROLE_ARTIFICIAL, paradigm: C.OTF2_PARADIGM_MEASUREMENT_SYSTEM})
}

// frameKind is the region kind (as part.region takes it) of a call-path
// region node's frame and phase (profile.CallNode).
func frameKind(frame, phase string) uint8 {
	switch frame {
	case "task", "taskloop":
		return kindTask
	case "implicit":
		return kindImplicit
	case "fork":
		return uint8(timeline.FrameFork)
	case "phase":
		for ph := events.PhaseConstruct; ph <= events.PhaseWait; ph++ {
			if ph.String() == phase {
				return uint8(ph)
			}
		}
	}
	return uint8(timeline.FrameConstruct)
}
