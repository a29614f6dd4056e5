package main

/*
#include <stdlib.h>
#include "rt.h"
#include "buildid.h"
void pomp_cp_totals(uint64_t *unmatched, uint64_t *lost);
int pomp_cp_go_ready(void);
const char *pomp_cp_embedded_filter(const char **name);
uint64_t pomp_cp_probe(void);
extern uint64_t pomp_cp_cost_ticks;
extern int pomp_cp_cost_pairs;
*/
import "C"

import (
	"encoding/hex"
	"fmt"
	"math"
	"os"
	"sort"
	"unsafe"

	"gopari/internal/filter"
	"gopari/internal/profile"
	"gopari/internal/symbols"
)

// Call paths (callpath.c records them): at exit, the tree and each
// location's counters become profile.CallPaths, and the memory map
// profile.Mappings; at the first hook call, the filter decides which
// functions are left out.

// frameNames name a region node's frame by its FR_* kind (rt.h).
var frameNames = map[int]string{
	C.FR_PHASE: "phase", C.FR_FORK: "fork", C.FR_IMPLICIT: "implicit", C.FR_TASK: "task", C.FR_TASKLOOP: "taskloop",
}

var phaseNames = [...]string{C.PH_CONSTRUCT: "construct", C.PH_BODY: "body", C.PH_BARRIER: "barrier", C.PH_WAIT: "wait"}

// addCallPaths adds the call paths of this process's run g, if they were
// on, and the run's mappings to p.
func addCallPaths(p *profile.Profile, g *C.pomp_rt, ck clock) {
	if C.pomp_cp.on != 1 {
		return
	}
	cp := &profile.CallPaths{MaxNodes: int(C.pomp_cp.max) - 1}
	if C.pomp_cp_cost_ticks > 0 && C.pomp_cp_cost_pairs > 0 {
		cp.CallCostNs = math.Round(float64(ck.ns(C.pomp_cp_cost_ticks))/float64(C.pomp_cp_cost_pairs)*100) / 100
	}
	C.pomp_cp_lock()
	n := int(C.pomp_cp.n)
	parents := unsafe.Slice(C.pomp_cp.parent, n)
	keys := unsafe.Slice(C.pomp_cp.key, n)
	kept := sampledPaths(parents) // nil: every path; else the kept nodes, ascending
	if kept == nil {
		kept = make([]int, n)
		for i := range kept {
			kept[i] = i
		}
	}
	ids := make([]int, n) // the run's node -> cp.Nodes, -1 if left out
	for i := range ids {
		ids[i] = -1
	}
	cp.PrunedNodes = n - len(kept)
	cp.Nodes = make([]profile.CallNode, 0, len(kept)) // the collector is off at exit: size once
	for _, i := range kept {
		nd := callNode(i, int(parents[i]), uint64(keys[i]))
		if nd.Parent >= 0 && nd.Parent < i {
			nd.Parent = ids[nd.Parent] // kept: a kept node's ancestors are
		}
		ids[i] = len(cp.Nodes)
		cp.Nodes = append(cp.Nodes, nd)
	}
	C.pomp_cp_unlock()
	probe := uint64(C.pomp_cp_probe())
	nodes, dropped := profile.DropLeaves(cp.Nodes, func(n profile.CallNode) bool { return n.Kind == "function" && n.Addr == probe })
	renumber := ids // the run's node -> its ID in the profile, -1 if left out
	for i, id := range ids {
		if id >= 0 {
			renumber[i] = dropped[id]
		}
	}
	var unmatched, lost C.uint64_t
	C.pomp_cp_totals(&unmatched, &lost)
	cp.UnmatchedCalls, cp.LostCreations = uint64(unmatched), uint64(lost)

	addLocationCounts(cp, g, kept, renumber, ck)
	cp.Nodes = nodes
	p.CallPaths = cp
	p.Mappings = symbols.ReadMappings("/proc/self/maps", loadedBuildIDs())
	addSamples(p, cp, renumber) // GOPARI_SAMPLE_HZ (sample.go)
}

// addLocationCounts adds to cp each location's visits and exclusive
// time of the run's nodes kept (ascending), by their IDs in the profile
// (renumber: -1 for a node left out).
func addLocationCounts(cp *profile.CallPaths, g *C.pomp_rt, kept, renumber []int, ck clock) {
	C.pthread_mutex_lock(&g.mu)
	locs := unsafe.Slice(g.locs, int(g.nlocs))
	for li, l := range locs {
		if l.ncp == 0 {
			continue
		}
		counts := unsafe.Slice(l.cp, int(l.ncp))
		has := func(id int) bool {
			c := counts[id]
			return (c.visits != 0 || c.excl != 0) && renumber[id] >= 0
		}
		k := 0 // the collector is off at exit: size once
		for _, id := range kept {
			if id < len(counts) && has(id) {
				k++
			}
		}
		th := profile.CallThread{Thread: li, Nodes: make([][3]uint64, 0, k)}
		for _, id := range kept {
			if id >= len(counts) || !has(id) {
				continue
			}
			c := counts[id]
			th.Nodes = append(th.Nodes, [3]uint64{uint64(renumber[id]), uint64(c.visits), ck.ns(c.excl)})
			if id == C.CP_OVERFLOW {
				cp.OverflowVisits += uint64(c.visits)
			}
		}
		if len(th.Nodes) > 0 {
			cp.Threads = append(cp.Threads, th)
		}
	}
	C.pthread_mutex_unlock(&g.mu)
}

// loadedBuildIDs returns the build IDs of the objects loaded in this
// process, read from memory (buildid.c), by an address a mapping of each
// starts at: a mapping of none is read from its file.
func loadedBuildIDs() func(profile.Mapping) (string, bool) {
	var objs [256]C.pomp_objid
	n := int(C.pomp_build_ids(&objs[0], C.int(len(objs))))
	return func(m profile.Mapping) (string, bool) {
		for i := 0; i < n; i++ {
			o := &objs[i]
			if m.Start >= uint64(o.lo) && m.Start < uint64(o.hi) {
				return hex.EncodeToString(C.GoBytes(unsafe.Pointer(&o.id[0]), C.int(o.len))), true
			}
		}
		return "", false
	}
}

// callNode is node i of the tree, with its parent and key as callpath.c
// keeps them.
func callNode(i, parent int, key uint64) profile.CallNode {
	switch {
	case i == C.CP_ROOT:
		return profile.CallNode{Parent: -1, Kind: "root"}
	case i == C.CP_OVERFLOW:
		return profile.CallNode{Parent: parent, Kind: "overflow"}
	case key&C.CP_REGION == 0:
		return profile.CallNode{Parent: parent, Kind: "function", Addr: key}
	}
	kind, phase := int(key>>4&15), int(key&15)
	nd := profile.CallNode{Parent: parent, Kind: "region", Region: int(key >> 8 & 0xffffffff), Frame: frameNames[kind]}
	if kind == C.FR_PHASE && phase < len(phaseNames) {
		nd.Phase = phaseNames[phase]
	}
	return nd
}

// ---------------------------------------------------------------------
// The run-time filter.

//export pompGoCallpathExcluded
func pompGoCallpathExcluded(out **C.uint64_t) C.int {
	f := runtimeFilter()
	addrs := excludedFunctions("/proc/self/exe", "/proc/self/maps", f)
	if len(addrs) == 0 {
		return 0
	}
	a := (*C.uint64_t)(C.malloc(C.size_t(len(addrs)) * 8))
	if a == nil {
		return 0
	}
	copy(unsafe.Slice((*uint64)(unsafe.Pointer(a)), len(addrs)), addrs)
	*out = a
	return C.int(len(addrs))
}

// runtimeFilter returns the filter in force: GOPARI_FILTER's file, else
// the one gopari cc --filter embedded (pomp_callpath_filter), else none.
// A file that cannot be read or parsed is said once, and no filter holds.
func runtimeFilter() *filter.Filter {
	if name := os.Getenv("GOPARI_FILTER"); name != "" {
		f, _, err := filter.ReadFile(name)
		if err != nil {
			fmt.Fprintf(os.Stderr, "gopari: GOPARI_FILTER: %v; no filter is applied\n", err)
			return nil
		}
		return f
	}
	var cname *C.char
	src := C.pomp_cp_embedded_filter(&cname)
	if src == nil {
		return nil
	}
	name := "the program's filter"
	if cname != nil {
		name = C.GoString(cname)
	}
	f, err := filter.Parse(name, []byte(C.GoString(src)))
	if err != nil {
		fmt.Fprintf(os.Stderr, "gopari: %v; no filter is applied\n", err)
		return nil
	}
	return f
}

// excludedFunctions returns the sorted entry addresses, in this process,
// of the functions that are not measured: those of the executable, and
// of the shared libraries built with --functions that are mapped already,
// that the filter excludes, and the default exclusions
// (filter.DefaultExcluded).
func excludedFunctions(exe, maps string, flt *filter.Filter) []uint64 {
	var out []uint64
	for _, file := range append([]string{exe}, symbols.HookedLibraries(exe, maps)...) {
		syms, bias, err := symbols.Functions(file, maps, flt != nil && len(flt.Files) > 0)
		if err != nil {
			continue
		}
		for _, s := range syms {
			if filter.DefaultExcluded(s.Name) || !flt.Function(s.Name, s.Mangled, s.File) {
				out = append(out, s.Addr+bias)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}
