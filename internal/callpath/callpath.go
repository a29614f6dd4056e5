// Package callpath is the model every view of a call-path profile
// renders (gopari report, gopari pprof, the HTML page, an MPI job's
// merge): the profile's tree of paths with its function addresses
// resolved (internal/symbols), the functions a compiler outlined for
// OpenMP constructs spliced out, sibling paths of one name merged, and
// per path and location the visits and the exclusive and inclusive time.
package callpath

import (
	"fmt"
	"path/filepath"
	"sort"

	"gopari/internal/profile"
	"gopari/internal/symbols"
)

// A Tree is a run's call paths. Node 0 is the root; a node's parent has
// a lower ID. Totals are summed over the locations.
type Tree struct {
	Nodes     []Node     `json:"nodes"`
	Locations []Location `json:"locations"`
	// Warnings say what could not be resolved or trusted (a file rebuilt
	// since the run) and what the runtime could not keep (a full tree).
	Warnings []string `json:"warnings,omitempty"`
	// Sampling is how the run sampled (GOPARI_SAMPLE_HZ), nil if it did
	// not; then the views weigh paths by their sampled CPU time.
	Sampling *profile.Sampling `json:"sampling,omitempty"`
	// Of is the tree's node of each node of the profile's call paths
	// (an outlined function's is its parent's), for what refers to
	// those: a trace's samples.
	Of []int `json:"-"`
}

// A Node is one call path: its parent's and one more frame, named as
// every view names it: functions by their demangled names (an address
// when nothing better is known), construct frames as the OTF2 export
// ("!$omp task @file.c:15"), the root by the program's name.
type Node struct {
	Parent int    `json:"parent"` // -1 for the root
	Kind   string `json:"kind"`   // "root", "function", "region" or "overflow"
	Name   string `json:"name"`
	// Mangled is a function's symbol name as its file spells it (what a
	// filter's MANGLED rules match); "" when its address resolved to no
	// symbol (then Name is the address form).
	Mangled string `json:"mangled,omitempty"`
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	Visits  uint64 `json:"visits"`
	ExclNs  uint64 `json:"excl_ns"`
	// InclNs is the exclusive time of the node's subtree.
	InclNs uint64 `json:"incl_ns"`
	// Samples and CPUNs count the samples taken on the path itself and
	// the CPU (or wall) time they stand for; InclCPUNs the subtree's.
	Samples   uint64 `json:"samples,omitempty"`
	CPUNs     uint64 `json:"cpu_ns,omitempty"`
	InclCPUNs uint64 `json:"incl_cpu_ns,omitempty"`
	Children  []int  `json:"-"`
}

// A Location is what one location (a place of the team tree) ran.
type Location struct {
	Thread int    `json:"thread"` // index into Profile.Threads
	Path   string `json:"path"`   // its team path, such as 0.1
	Stats  []Stat `json:"stats"`  // by node ID: the nodes with time or visits in their subtree
}

// A Stat is a node at one location.
type Stat struct {
	Node      int    `json:"node"`
	Visits    uint64 `json:"visits"`
	ExclNs    uint64 `json:"excl_ns"`
	InclNs    uint64 `json:"incl_ns"`
	Samples   uint64 `json:"samples,omitempty"`
	CPUNs     uint64 `json:"cpu_ns,omitempty"`
	InclCPUNs uint64 `json:"incl_cpu_ns,omitempty"`
}

// FromProfile builds the tree of a run's call paths, resolving their
// addresses with the run's mappings; nil without call paths. An error
// says how the call paths are malformed.
func FromProfile(p *profile.Profile) (*Tree, error) {
	cp := p.CallPaths
	if cp == nil || len(cp.Nodes) == 0 {
		return nil, nil
	}
	if err := check(p); err != nil {
		return nil, err
	}
	res := symbols.New(p.Mappings)
	t := &Tree{Sampling: cp.Sampling}
	ids := t.nodes(p, res)
	t.Of = ids
	t.Warnings = append(t.Warnings, res.Warnings()...)
	if cp.OverflowVisits > 0 {
		t.Warnings = append(t.Warnings, fmt.Sprintf("the call-path tree was full (%d nodes, GOPARI_CALLPATH_NODES): %d visits were charged to overflow nodes", cp.MaxNodes, cp.OverflowVisits))
	}
	if cp.LostCreations > 0 {
		t.Warnings = append(t.Warnings, fmt.Sprintf("%d tasks began when the run no longer knew the path that created them: theirs hang below the root", cp.LostCreations))
	}
	for _, ct := range cp.Threads {
		t.Locations = append(t.Locations, t.location(p, ct, ids))
	}
	sort.SliceStable(t.Locations, func(i, j int) bool { return t.Locations[i].Thread < t.Locations[j].Thread })
	for _, l := range t.Locations {
		for _, s := range l.Stats {
			n := &t.Nodes[s.Node]
			n.Visits += s.Visits
			n.ExclNs += s.ExclNs
			n.InclNs += s.InclNs
			n.Samples += s.Samples
			n.CPUNs += s.CPUNs
			n.InclCPUNs += s.InclCPUNs
		}
	}
	if sg := cp.Sampling; sg != nil && sg.Dropped > 0 {
		t.Warnings = append(t.Warnings, fmt.Sprintf("%d of %d samples were lost to a full buffer", sg.Dropped, sg.Samples+sg.Dropped))
	}
	return t, nil
}

// check refuses call paths whose references do not hold.
func check(p *profile.Profile) error {
	cp := p.CallPaths
	if cp.Nodes[0].Parent != -1 {
		return fmt.Errorf("call_paths: node 0 is not the root (parent %d)", cp.Nodes[0].Parent)
	}
	for i, n := range cp.Nodes[1:] {
		if n.Parent < 0 || n.Parent > i {
			return fmt.Errorf("call_paths: node %d: parent %d is not an earlier node", i+1, n.Parent)
		}
	}
	for _, ct := range cp.Threads {
		if ct.Thread < 0 || ct.Thread >= len(p.Threads) {
			return fmt.Errorf("call_paths: thread %d: no such location", ct.Thread)
		}
		for _, s := range append(ct.Nodes, ct.Samples...) {
			if s[0] >= uint64(len(cp.Nodes)) {
				return fmt.Errorf("call_paths: thread %d: node %d out of range", ct.Thread, s[0])
			}
		}
	}
	return nil
}

// nodes builds the tree's nodes from the profile's and returns, per
// profile node, its node here: an outlined function's is its parent's,
// and siblings of one name are one node.
func (t *Tree) nodes(p *profile.Profile, res *symbols.Resolver) []int {
	cp := p.CallPaths
	var addrs []uint64
	for _, n := range cp.Nodes {
		if n.Kind == "function" {
			addrs = append(addrs, n.Addr)
		}
	}
	frames := res.Resolve(addrs)
	type key struct {
		parent int
		name   string
	}
	byName := map[key]int{}
	ids := make([]int, len(cp.Nodes))
	t.Nodes = append(t.Nodes, Node{Parent: -1, Kind: "root", Name: filepath.Base(p.Program)})
	for i := 1; i < len(cp.Nodes); i++ {
		n := cp.Nodes[i]
		parent := ids[n.Parent]
		nn := Node{Parent: parent, Kind: n.Kind}
		switch n.Kind {
		case "function":
			f := frames[n.Addr]
			if symbols.IsOutlined(f.Func) {
				ids[i] = parent
				continue
			}
			nn.Name, nn.File, nn.Line = f.Func, f.File, f.Line
			if f.Known {
				nn.Mangled = f.Mangled
			}
		case "region":
			if forkOf(cp.Nodes, n) {
				ids[i] = parent // one "!$omp parallel" node for every thread of the team
				continue
			}
			nn.Name = regionName(p, n)
			if r := p.Region(n.Region); r != nil {
				nn.File, nn.Line = r.File, r.BeginLine
			}
		default:
			nn.Name = "(" + n.Kind + ")"
		}
		k := key{parent, nn.Name}
		id, ok := byName[k]
		if !ok {
			id = len(t.Nodes)
			byName[k] = id
			t.Nodes = append(t.Nodes, nn)
			t.Nodes[parent].Children = append(t.Nodes[parent].Children, id)
		}
		ids[i] = id
	}
	return ids
}

// forkOf reports whether region node n is an implicit task right below
// the fork of its parallel region: the thread that forked the region
// runs the two nested, the others the implicit task alone, and all of
// them read as one "!$omp parallel" frame, as the OTF2 export shows it.
func forkOf(nodes []profile.CallNode, n profile.CallNode) bool {
	if n.Frame != "implicit" || n.Parent < 0 {
		return false
	}
	par := nodes[n.Parent]
	return par.Kind == "region" && par.Frame == "fork" && par.Region == n.Region
}

// regionName names a region node as the OTF2 export names its frame.
func regionName(p *profile.Profile, n profile.CallNode) string {
	r := p.Region(n.Region)
	if r == nil {
		return fmt.Sprintf("region %d", n.Region)
	}
	frame := n.Frame
	switch n.Frame {
	case "phase":
		frame = n.Phase
	case "taskloop":
		frame = "task"
	}
	return r.FrameName(frame)
}

// location sums a location's paths into the tree's nodes: an outlined
// function's time goes to its parent (its visits do not), an implicit
// task's to its parallel region's fork (its visit only on a thread that
// did not fork it), and inclusive times are summed up the tree.
func (t *Tree) location(p *profile.Profile, ct profile.CallThread, ids []int) Location {
	l := Location{Thread: ct.Thread, Path: p.Threads[ct.Thread].Path}
	visits := make([]uint64, len(t.Nodes))
	excl := make([]uint64, len(t.Nodes))
	incl := make([]uint64, len(t.Nodes))
	seen := make([]bool, len(t.Nodes))
	ran := make(map[int]bool, len(ct.Nodes))
	for _, s := range ct.Nodes {
		ran[int(s[0])] = true
	}
	samples, cpu, inclCPU := make([]uint64, len(t.Nodes)), make([]uint64, len(t.Nodes)), make([]uint64, len(t.Nodes))
	for _, s := range ct.Samples {
		id := ids[s[0]]
		samples[id] += s[1]
		cpu[id] += s[2]
		seen[id] = true
	}
	for _, s := range ct.Nodes {
		raw := int(s[0])
		id := ids[raw]
		switch n := p.CallPaths.Nodes[raw]; {
		case raw == 0 || id != ids[n.Parent]:
			visits[id] += s[1]
		case n.Kind == "region" && !ran[n.Parent]:
			visits[id] += s[1] // a worker's implicit task: its visit of the parallel region
		}
		excl[id] += s[2]
		seen[id] = true
	}
	for id := len(t.Nodes) - 1; id >= 0; id-- {
		incl[id] += excl[id]
		inclCPU[id] += cpu[id]
		if id > 0 && seen[id] {
			par := t.Nodes[id].Parent
			incl[par] += incl[id]
			inclCPU[par] += inclCPU[id]
			seen[par] = true
		}
	}
	for id, ok := range seen {
		if ok {
			l.Stats = append(l.Stats, Stat{Node: id, Visits: visits[id], ExclNs: excl[id], InclNs: incl[id],
				Samples: samples[id], CPUNs: cpu[id], InclCPUNs: inclCPU[id]})
		}
	}
	return l
}

// TotalNs is the time of every path: the root's inclusive time.
func (t *Tree) TotalNs() uint64 { return t.Nodes[0].InclNs }

// Incl is the time the views weigh node id by: its subtree's sampled
// CPU time in a sampled run, else its inclusive time.
func (t *Tree) Incl(id int) uint64 {
	if t.Sampling != nil {
		return t.Nodes[id].InclCPUNs
	}
	return t.Nodes[id].InclNs
}

// Excl is the exclusive counterpart of Incl.
func (t *Tree) Excl(id int) uint64 {
	if t.Sampling != nil {
		return t.Nodes[id].CPUNs
	}
	return t.Nodes[id].ExclNs
}

// Path is the names of the frames from the root to node id.
func (t *Tree) Path(id int) []string {
	var names []string
	for ; id >= 0; id = t.Nodes[id].Parent {
		names = append(names, t.Nodes[id].Name)
	}
	for i, j := 0, len(names)-1; i < j; i, j = i+1, j-1 {
		names[i], names[j] = names[j], names[i]
	}
	return names
}
