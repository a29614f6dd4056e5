package main

/*
#include "rt.h"
#include "sample.h"
int pomp_cp_is_light(void);
*/
import "C"

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"unsafe"

	"gopari/internal/events"
	"gopari/internal/experiment"
	"gopari/internal/filter"
	"gopari/internal/profile"
	"gopari/internal/symbols"
)

// Sampled call paths (sample.c takes them): at exit, the distinct
// samples the runtime folded become nodes of the call-path tree and
// counts of its locations. A sample hangs below the path the runtime
// knew when it was taken (cur), with the frames of its stack that ran
// inside that path: those inner of the innermost frame of an OpenMP
// outlined function or of the OpenMP runtime library, which stand for
// the construct the path already names.

// sampledPaths returns, for a run whose call paths serve its samples
// alone (light call paths, no function measured), the run's nodes
// (parents: each node's parent) that a sample names or that are an
// ancestor of one, ascending, found from the samples up; nil for any
// other run. The others are left out before they
// are made: a recursive task code makes thousands (fib with tasks to
// depth 12: 12,000) where its samples name tens, and making them all
// and pruning them after the samples cost a millisecond at exit.
func sampledPaths(parents []C.uint32_t) []int {
	sg := &C.pomp_sg
	if sg.on != 2 || C.pomp_cp_is_light() == 0 {
		return nil
	}
	keep := make([]bool, len(parents))
	kept := []int{}
	mark := func(id int) { // id and its ancestors, up to one marked already
		for id >= 0 && id < len(keep) && !keep[id] {
			keep[id] = true
			kept = append(kept, id)
			if p := int(parents[id]); p < id { // a parent comes before its children
				id = p
			} else {
				break
			}
		}
	}
	mark(C.CP_ROOT)
	mark(C.CP_OVERFLOW)
	for _, s := range unsafe.Slice(sg.folds, int(sg.nfolds)) {
		mark(int(s.node))
	}
	slices.Sort(kept)
	return kept
}

// addSamples folds the run's samples into cp (the call paths of the
// run, already collected; ids: the run's node -> its ID in cp.Nodes, -1
// if left out), resolving their program counters with the run's
// mappings.
func addSamples(p *profile.Profile, cp *profile.CallPaths, ids []int) {
	sg := &C.pomp_sg
	if sg.on != 2 {
		return
	}
	clock := "cpu"
	if sg.wall != 0 {
		clock = "wall"
	}
	period := uint64(sg.period_ns)
	cp.Sampling = &profile.Sampling{Hz: int(sg.hz), Clock: clock, PeriodNs: period, Samples: uint64(sg.samples),
		Ns: uint64(sg.ns), Dropped: uint64(sg.dropped), Truncated: uint64(sg.truncated),
		Signals: uint64(sg.signals), HandlerNs: uint64(sg.handler), FoldNs: uint64(sg.fold_ns), UnwindTables: int(sg.tables)}
	folds := unsafe.Slice(sg.folds, int(sg.nfolds))
	measured := false // functions: a --functions build
	for _, n := range cp.Nodes {
		measured = measured || n.Kind == "function"
	}
	f := newFolder(cp, symbols.NewFuncs(p.Mappings), len(p.Threads))
	nodes := make([]uint32, len(folds))
	for i := range folds {
		s := &folds[i]
		pcs := unsafe.Slice((*uint64)(unsafe.Pointer(s.pc)), int(s.depth))
		node := uint32(s.node)
		if int(node) < len(ids) {
			node = C.CP_ROOT // left out: cannot be, but safe
			if ids[s.node] >= 0 {
				node = uint32(ids[s.node])
			}
		}
		nodes[i] = uint32(f.add(int(s.loc), node, int(s.region), pcs, [2]uint64{uint64(s.weight), uint64(s.ns)}))
	}
	f.finish()
	if !measured {
		ids := prune(cp)
		for i, n := range nodes {
			nodes[i] = uint32(ids[n])
		}
	}
	traced := unsafe.Slice(sg.trace, int(sg.ntrace))
	tracedSamples = make([]events.Sample, len(traced))
	for i, s := range traced {
		tracedSamples[i] = events.Sample{Loc: uint32(f.loc(int(s.loc))), Node: nodes[s.fold], Tick: uint64(s.ts)}
	}
	cp.Sampling.TraceLost = uint64(sg.trace_lost)
}

// tracedSamples are a traced run's samples, for writeSamples.
var tracedSamples []events.Sample

// writeSamples writes a traced run's samples into its directory dir
// (events/samples.bin), if it took any.
func writeSamples(dir string) {
	if len(tracedSamples) == 0 {
		return
	}
	err := writeNew(experiment.Samples(dir), func(w io.Writer) error { return events.WriteSamples(w, tracedSamples) })
	if err != nil {
		fmt.Fprintf(os.Stderr, "gopari: the trace's samples not written: %v\n", err)
	}
}

// A folder adds samples to call paths.
type folder struct {
	cp  *profile.CallPaths
	res *symbols.Resolver
	// The run's nodes, n0 of them, by parent: the children of node p are
	// kids[first[p]:first[p+1]]. A map of every node cost a sampled run
	// of a task program milliseconds at exit; samples look up few.
	n0     int
	first  []int32
	kids   []int32
	added  map[childKey]int     // children the samples added
	counts map[[2]int][2]uint64 // (location, node) -> samples, ns
	nlocs  int
}

type childKey struct {
	parent       int
	kind         string
	addr         uint64
	region       int
	frame, phase string
}

func keyOf(n profile.CallNode, parent int) childKey {
	return childKey{parent, n.Kind, n.Addr, n.Region, n.Frame, n.Phase}
}

func newFolder(cp *profile.CallPaths, res *symbols.Resolver, nlocs int) *folder {
	n := len(cp.Nodes)
	f := &folder{cp: cp, res: res, n0: n, first: make([]int32, n+1), kids: make([]int32, 0, n), added: map[childKey]int{},
		counts: map[[2]int][2]uint64{}, nlocs: nlocs}
	for i, nd := range cp.Nodes {
		if i > 0 && nd.Parent >= 0 && nd.Parent < n {
			f.first[nd.Parent+1]++
		}
	}
	for p := 1; p <= n; p++ {
		f.first[p] += f.first[p-1]
	}
	f.kids = f.kids[:f.first[n]]
	next := append([]int32(nil), f.first[:n]...)
	for i, nd := range cp.Nodes {
		if i > 0 && nd.Parent >= 0 && nd.Parent < n {
			f.kids[next[nd.Parent]] = int32(i)
			next[nd.Parent]++
		}
	}
	return f
}

// sameNode reports whether two nodes are the same child of a parent.
func sameNode(a, b *profile.CallNode) bool {
	return a.Kind == b.Kind && a.Addr == b.Addr && a.Region == b.Region && a.Frame == b.Frame && a.Phase == b.Phase
}

// child returns node n below parent, appended if new; the overflow node
// below the overflow node, or once the tree holds MaxNodes.
func (f *folder) child(parent int, n profile.CallNode) int {
	if parent == C.CP_OVERFLOW {
		return parent
	}
	return f.childOf(parent, n)
}

// childOf is child, below the overflow node too.
func (f *folder) childOf(parent int, n profile.CallNode) int {
	n.Parent = parent
	if parent < f.n0 {
		for _, id := range f.kids[f.first[parent]:f.first[parent+1]] {
			if sameNode(&f.cp.Nodes[id], &n) {
				return int(id)
			}
		}
	}
	k := keyOf(n, parent)
	if id, ok := f.added[k]; ok {
		return id
	}
	if len(f.cp.Nodes) > 2*f.cp.MaxNodes { // the samples' paths may add as many as the runtime's
		return C.CP_OVERFLOW
	}
	id := len(f.cp.Nodes)
	f.cp.Nodes = append(f.cp.Nodes, n)
	f.added[k] = id
	return id
}

// add folds one distinct sample (w: its samples and ns) at location loc, taken on
// path node (CP_NONE: none; then region is the parallel region whose
// closing barrier the thread waited in, or 0).
// It returns the node the sample was charged to.
func (f *folder) add(loc int, node uint32, region int, pcs []uint64, w [2]uint64) int {
	loc = f.loc(loc)
	base := int(node)
	switch {
	case node == C.CP_NONE && region > 0:
		base = f.child(C.CP_ROOT, profile.CallNode{Kind: "region", Region: region, Frame: "phase", Phase: "barrier"})
	case node == C.CP_NONE:
		base = f.child(C.CP_ROOT, profile.CallNode{Kind: "idle"})
	case node == C.CP_OVERFLOW && region > 0 && frameNames[region>>C.SAMPLE_KIND_SHIFT] != "":
		// A full tree: the task's construct below the overflow node.
		n := profile.CallNode{Kind: "region", Region: region & (C.SAMPLE_KIND - 1), Frame: frameNames[region>>C.SAMPLE_KIND_SHIFT]}
		base = f.childOf(C.CP_OVERFLOW, n)
	case base >= len(f.cp.Nodes):
		base = C.CP_ROOT
	}
	frames := f.inside(pcs, f.cp.Nodes[base])
	for i := len(frames) - 1; i >= 0; i-- {
		base = f.child(base, profile.CallNode{Kind: "function", Addr: frames[i]})
	}
	c := f.counts[[2]int{loc, base}]
	f.counts[[2]int{loc, base}] = [2]uint64{c[0] + w[0], c[1] + w[1]}
	return base
}

// loc is the location a sample is counted at: its own, or the first
// for a thread sampled before its first event placed it.
func (f *folder) loc(loc int) int {
	if loc < 0 || loc >= f.nlocs {
		return 0
	}
	return loc
}

// Classes of a stack's frames.
const (
	user = iota
	ompRuntime
	outlined
	own    // gopari's runtime
	system // the C library, the loader, the vDSO
)

// inside returns the entry addresses of the frames of a sample (pcs,
// the innermost first) that ran inside the path cur, the innermost
// first; see the top of this file.
func (f *folder) inside(pcs []uint64, cur profile.CallNode) []uint64 {
	type fr struct {
		entry uint64
		class int
		name  string
	}
	var st []fr
	stopped := false
	for i, pc := range pcs {
		if i > 0 {
			pc-- // a return address: the call is before it
		}
		if ompLibrary(f.res.Module(pc)) {
			stopped = true // its name is not needed: its library's symbols are not read
			break
		}
		r := f.res.Frame(pc)
		e := fr{pc, classify(r), r.Mangled}
		if r.Known {
			e.entry = r.Entry
		}
		if e.class == ompRuntime || e.class == outlined {
			stopped = true
			break
		}
		if r.Module == "" && len(st) == 0 {
			continue // the vDSO, inside its caller: no file to name it
		}
		st = append(st, e)
	}
	bottom := !stopped // no construct around the stack
	for i := len(st) - 1; i >= 0; i-- {
		if st[i].class == own {
			st = st[:i] // gopari's runtime and what it called
			break
		}
	}
	if bottom {
		for len(st) > 0 && (st[len(st)-1].class == system || startup(st[len(st)-1].name)) {
			st = st[:len(st)-1]
		}
	}
	// Frames inner of an instrumented call: those of the call itself
	// and outer are cur's path already.
	if cur.Kind == "function" {
		j := -1
		for i := range st {
			if st[i].entry == cur.Addr {
				j = i
				break
			}
		}
		if j < 0 {
			return nil
		}
		st = st[:j]
	}
	var out []uint64
	allSystem := true
	for _, e := range st {
		out = append(out, e.entry)
		allSystem = allSystem && e.class == system
	}
	if allSystem {
		return nil // the C library called by the runtime
	}
	return out
}

// ompLibrary reports whether module is an OpenMP runtime library.
func ompLibrary(module string) bool {
	base := filepath.Base(module)
	return strings.HasPrefix(base, "libgomp") || strings.HasPrefix(base, "libomp") || strings.HasPrefix(base, "libiomp")
}

// classify says what kind of code frame r is.
func classify(r symbols.Frame) int {
	base := filepath.Base(r.Module)
	name := r.Mangled
	switch {
	case ompLibrary(r.Module):
		return ompRuntime
	case r.Known && symbols.IsOutlined(name):
		return outlined
	case r.Known && (filter.DefaultExcluded(name) || strings.HasPrefix(name, "__cyg_profile_func_")):
		return own
	case r.Module == "" || strings.HasPrefix(base, "libc.so") || strings.HasPrefix(base, "libc-") ||
		strings.HasPrefix(base, "ld-linux") || strings.HasPrefix(base, "libpthread") || strings.HasPrefix(base, "[vdso]"):
		return system
	}
	return user
}

// startup names the functions that start a process or a thread, below
// the program's own frames.
func startup(name string) bool {
	switch name {
	case "_start", "__libc_start_main", "__libc_start_call_main", "start_thread", "clone", "clone3":
		return true
	}
	return false
}

// finish adds the counts to the locations' call paths, by node ID.
func (f *folder) finish() {
	byLoc := map[int]int{}
	for i, t := range f.cp.Threads {
		byLoc[t.Thread] = i
	}
	for k, w := range f.counts {
		i, ok := byLoc[k[0]]
		if !ok {
			i = len(f.cp.Threads)
			byLoc[k[0]] = i
			f.cp.Threads = append(f.cp.Threads, profile.CallThread{Thread: k[0]})
		}
		th := &f.cp.Threads[i]
		th.Samples = append(th.Samples, [3]uint64{uint64(k[1]), w[0], w[1]})
	}
	for i := range f.cp.Threads {
		s := f.cp.Threads[i].Samples
		sort.Slice(s, func(a, b int) bool { return s[a][0] < s[b][0] })
	}
	sort.SliceStable(f.cp.Threads, func(a, b int) bool { return f.cp.Threads[a].Thread < f.cp.Threads[b].Thread })
}

// prune keeps, in a run that measured no function (sampled without
// --functions), only the paths that hold samples, their ancestors, the
// root and the overflow node: such a run's tree holds a path for every
// construct and task frame it ran, one per recursion depth of a
// recursive task code (BOTS sort: the 100,000 nodes of the limit and a
// 16 MB profile for 2,000 samples), where the samples need a few. It
// returns each node's new ID (-1: pruned); the pruned nodes are counted
// in PrunedNodes.
func prune(cp *profile.CallPaths) []int {
	keep := make([]bool, len(cp.Nodes))
	keep[C.CP_ROOT], keep[C.CP_OVERFLOW] = true, true
	for _, th := range cp.Threads {
		for _, s := range th.Samples {
			keep[s[0]] = true
		}
	}
	for i := len(cp.Nodes) - 1; i > 0; i-- {
		if keep[i] {
			keep[cp.Nodes[i].Parent] = true
		}
	}
	ids := make([]int, len(cp.Nodes))
	nodes := make([]profile.CallNode, 0, len(cp.Nodes))
	for i, n := range cp.Nodes {
		ids[i] = -1
		if keep[i] {
			ids[i] = len(nodes)
			if n.Parent >= 0 {
				n.Parent = ids[n.Parent]
			}
			nodes = append(nodes, n)
		}
	}
	cp.PrunedNodes += len(cp.Nodes) - len(nodes) // and those addCallPaths left out
	cp.Nodes = nodes
	threads := cp.Threads[:0]
	for _, th := range cp.Threads {
		th.Nodes, th.Samples = renumber(th.Nodes, ids), renumber(th.Samples, ids)
		if len(th.Nodes)+len(th.Samples) > 0 {
			threads = append(threads, th)
		}
	}
	cp.Threads = threads
	return ids
}

// renumber gives counts by node their nodes' new IDs, dropping those of
// nodes pruned (-1).
func renumber(counts [][3]uint64, ids []int) [][3]uint64 {
	out := counts[:0]
	for _, c := range counts {
		if id := ids[c[0]]; id >= 0 {
			c[0] = uint64(id)
			out = append(out, c)
		}
	}
	return out
}
