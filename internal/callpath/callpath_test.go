package callpath_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gopari/internal/callpath"
	"gopari/internal/callpath/cptest"
	"gopari/internal/profile"
)

const ms = cptest.Ms

// find is the node at the path of names below the root.
func find(t *testing.T, tr *callpath.Tree, names ...string) *callpath.Node {
	t.Helper()
	id := 0
next:
	for _, name := range names {
		for _, c := range tr.Nodes[id].Children {
			if tr.Nodes[c].Name == name {
				id = c
				continue next
			}
		}
		t.Fatalf("no path %q", strings.Join(names, ";"))
	}
	return &tr.Nodes[id]
}

// TestFromProfile checks the model against the truth cptest built.
func TestFromProfile(t *testing.T) {
	t.Parallel()
	p := cptest.Profile(t)
	tr, err := callpath.FromProfile(p)
	if err != nil {
		t.Fatal(err)
	}
	par := fmt.Sprintf("!$omp parallel @paths.c:%d", p.Regions[0].BeginLine)
	for _, c := range []struct {
		path               []string
		visits, excl, incl uint64
	}{
		{nil, 0, 0, 88 * ms},
		{[]string{"main"}, 1, 1 * ms, 88 * ms},
		{[]string{"main", "top"}, 1, 10 * ms, 87 * ms},
		{[]string{"main", "top", "mid"}, 2, 20 * ms, 50 * ms},
		{[]string{"main", "top", "mid", "leaf"}, 4, 30 * ms, 30 * ms},
		{[]string{"main", "top", par}, 1, 11 * ms, 27 * ms},
		{[]string{"main", "top", par, "leaf"}, 6, 16 * ms, 16 * ms},
	} {
		n := find(t, tr, c.path...)
		if n.Visits != c.visits || n.ExclNs != c.excl || n.InclNs != c.incl {
			t.Errorf("%q: visits %d excl %d incl %d, want %d %d %d", c.path, n.Visits, n.ExclNs, n.InclNs, c.visits, c.excl, c.incl)
		}
	}
	if len(tr.Nodes) != 7 {
		t.Errorf("%d nodes, want 7 (outlined spliced, two leaves merged)", len(tr.Nodes))
	}
	top := find(t, tr, "main", "top")
	if filepath.Base(top.File) != "paths.c" || top.Line != cptest.Line(t, "top") {
		t.Errorf("top at %s:%d, want paths.c:%d", top.File, top.Line, cptest.Line(t, "top"))
	}
	if top.Mangled != "top" || tr.Nodes[0].Mangled != "" {
		t.Errorf("mangled names: top %q, the root %q; want top and none", top.Mangled, tr.Nodes[0].Mangled)
	}
	// Per location: 0.1 ran the region's outlined function and leaf.
	l1 := tr.Locations[1]
	if l1.Path != "0.1" {
		t.Fatalf("location 1 is %q", l1.Path)
	}
	got := map[string]uint64{}
	for _, s := range l1.Stats {
		got[strings.Join(tr.Path(s.Node), ";")] = s.InclNs
	}
	want := map[string]uint64{"paths": 12 * ms, "paths;main": 12 * ms, "paths;main;top": 12 * ms,
		"paths;main;top;" + par: 12 * ms, "paths;main;top;" + par + ";leaf": 8 * ms}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("location 0.1 inclusive:\n got %v\nwant %v", got, want)
	}
}

func TestHot(t *testing.T) {
	t.Parallel()
	tr, err := callpath.FromProfile(cptest.Profile(t))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range tr.Hot(0.2) { // 17.6 ms and more
		names = append(names, strings.Repeat(" ", r.Depth)+tr.Nodes[r.Node].Name)
	}
	if len(names) != 6 || names[3] != "   mid" || names[4] != "    leaf" || !strings.HasPrefix(names[5], "   !$omp parallel") {
		t.Errorf("hot paths at 20%%:\n%s", strings.Join(names, "\n"))
	}
	if n := len(tr.Hot(0.5)); n != 4 { // root, main, top, mid
		t.Errorf("hot paths at 50%%: %d, want 4", n)
	}
}

func TestMerge(t *testing.T) {
	t.Parallel()
	p := cptest.Profile(t)
	a, err := callpath.FromProfile(p)
	if err != nil {
		t.Fatal(err)
	}
	p.CallPaths.Threads = p.CallPaths.Threads[:1] // rank 1: thread 0 alone
	b, err := callpath.FromProfile(p)
	if err != nil {
		t.Fatal(err)
	}
	m := callpath.Merge([]int{0, 1, 2}, []*callpath.Tree{a, b, nil})
	if len(m.Ranks) != 2 || len(m.Nodes) != 7 {
		t.Fatalf("merged ranks %v, %d nodes", m.Ranks, len(m.Nodes))
	}
	root := m.Nodes[0].InclNs
	if root.Min != 76*ms || root.Max != 88*ms || root.Mean != 82*ms {
		t.Errorf("root: %+v, want 76/82/88 ms", root)
	}
	if rows := m.Hot(0); len(rows) != 7 {
		t.Errorf("%d hot merged paths, want 7", len(rows))
	}
	if callpath.Merge([]int{0}, []*callpath.Tree{nil}) != nil {
		t.Error("a job without call paths merged into some")
	}
}

func TestMalformed(t *testing.T) {
	t.Parallel()
	p := cptest.Profile(t)
	p.CallPaths.Nodes[3].Parent = 7
	if _, err := callpath.FromProfile(p); err == nil || !strings.Contains(err.Error(), "node 3") {
		t.Errorf("got %v, want an error about node 3", err)
	}
	p = cptest.Profile(t)
	p.CallPaths.Threads[1].Thread = 9
	if _, err := callpath.FromProfile(p); err == nil {
		t.Error("a location out of range passed")
	}
	p.CallPaths = nil
	if tr, err := callpath.FromProfile(p); tr != nil || err != nil {
		t.Errorf("no call paths: %v %v", tr, err)
	}
}

// BenchmarkFromProfile builds a tree of 10^5 paths over 1,000 functions
// at 4 locations.
func BenchmarkFromProfile(b *testing.B) {
	p := cptest.Profile(b)
	base := p.CallPaths.Nodes[1:5]
	nodes := p.CallPaths.Nodes[:1]
	var stats [][3]uint64
	for i := 1; len(nodes) < 100000; i++ {
		n := base[i%len(base)]
		n.Parent = (i - 1) / 3
		n.Addr += uint64(i % 1000)
		nodes = append(nodes, n)
		stats = append(stats, [3]uint64{uint64(i), 1, uint64(i)})
	}
	p.CallPaths.Nodes = nodes
	p.CallPaths.Threads = nil
	for th := range 2 {
		p.CallPaths.Threads = append(p.CallPaths.Threads, profile.CallThread{Thread: th, Nodes: stats})
	}
	for b.Loop() {
		if _, err := callpath.FromProfile(p); err != nil {
			b.Fatal(err)
		}
	}
}

// TestForkAndImplicit checks that a parallel region reads as one frame:
// the forking thread runs the fork and its implicit task nested, a worker
// the implicit task alone, and both count one visit of one node.
func TestForkAndImplicit(t *testing.T) {
	t.Parallel()
	p := cptest.Profile(t)
	nodes := p.CallPaths.Nodes
	leaf := nodes[4]
	leaf.Parent = 4
	p.CallPaths.Nodes = []profile.CallNode{nodes[0], nodes[1], nodes[2],
		{Parent: 2, Kind: "region", Region: 1, Frame: "fork"},
		{Parent: 3, Kind: "region", Region: 1, Frame: "implicit"},
		leaf,
	}
	p.CallPaths.Threads = []profile.CallThread{
		{Thread: 0, Nodes: [][3]uint64{{1, 1, 0}, {2, 1, 0}, {3, 1, 2 * ms}, {4, 1, 3 * ms}, {5, 1, 4 * ms}}},
		{Thread: 1, Nodes: [][3]uint64{{4, 1, 5 * ms}, {5, 2, 6 * ms}}},
	}
	tr, err := callpath.FromProfile(p)
	if err != nil {
		t.Fatal(err)
	}
	par := fmt.Sprintf("!$omp parallel @paths.c:%d", p.Regions[0].BeginLine)
	if n := find(t, tr, "main", "top", par); n.Visits != 2 || n.ExclNs != 10*ms || n.InclNs != 20*ms || len(n.Children) != 1 {
		t.Errorf("%s: visits %d excl %d incl %d children %d, want 2 (one a thread), 10 ms, 20 ms, 1", par, n.Visits, n.ExclNs, n.InclNs, len(n.Children))
	}
	if n := find(t, tr, "main", "top", par, "leaf"); n.Visits != 3 || n.ExclNs != 10*ms {
		t.Errorf("leaf: visits %d excl %d, want 3, 10 ms", n.Visits, n.ExclNs)
	}
	if len(tr.Nodes) != 5 {
		t.Errorf("%d nodes, want 5: root, main, top, the region, leaf", len(tr.Nodes))
	}
}

// TestWarnings: a run whose tree overflowed or lost tasks' creating
// paths says so, with the counts, in every view's notes.
func TestWarnings(t *testing.T) {
	t.Parallel()
	p := cptest.Profile(t)
	p.CallPaths.MaxNodes, p.CallPaths.OverflowVisits, p.CallPaths.LostCreations = 7, 12, 3
	tr, err := callpath.FromProfile(p)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"the call-path tree was full (7 nodes, GOPARI_CALLPATH_NODES): 12 visits were charged to overflow nodes",
		"3 tasks began when the run no longer knew the path that created them: theirs hang below the root"}
	for _, w := range want {
		if !slices.Contains(tr.Warnings, w) {
			t.Errorf("no note %q in %q", w, tr.Warnings)
		}
	}
}
