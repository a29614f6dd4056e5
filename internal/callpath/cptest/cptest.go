// Package cptest builds, for the tests of the call-path views, a
// profile whose call paths are known by construction: a real program
// (internal/symbols/testdata/paths.c, built with gcc -g -fopenmp) gives
// the addresses and mappings, and the paths and times are set by hand.
package cptest

import (
	"debug/elf"
	"os/exec"
	"path/filepath"
	"testing"

	"gopari/internal/profile"
	"gopari/internal/symbols/symtest"
)

// Ms is a millisecond in ns.
const Ms = 1_000_000

// Profile returns the profile of a run of paths.c with these call paths
// (profile node: function or region, parent), at locations 0 and 0.1:
//
//	0 root                                         thread 0          thread 0.1
//	1  main                                        1 visit  1 ms
//	2   top                                        1        10 ms
//	3    mid                                       2        20 ms
//	4     leaf                                     4        30 ms
//	5    !$omp parallel @paths.c:19   (fork)       1         2 ms
//	6     top._omp_fn.0 (outlined: spliced out)    1         5 ms    1 visit 4 ms
//	7      leaf                                    3         7 ms    2       8 ms
//	8     leaf (merges with 7 once 6 is spliced)   1         1 ms
//
// Truth: top 87 ms inclusive; mid 50, leaf below it 30; the parallel
// region 11 ms exclusive (2 + 5 + 4), 1 visit, 27 inclusive; its leaf
// 16 ms and 6 visits; main 88, the total.
func Profile(t testing.TB) *profile.Profile {
	t.Helper()
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("no gcc")
	}
	dir := t.TempDir()
	symtest.Copy(t, dir, "paths.c")
	symtest.Compile(t, dir, "gcc", "-g", "-O0", "-fopenmp", "-no-pie", "-fno-pie", "-o", "paths", "paths.c")
	exe := filepath.Join(dir, "paths")
	addrs, maps := symtest.Run(t, exe, "OMP_NUM_THREADS=1")
	outlined := symbolValue(t, exe, "top._omp_fn.0") // not PIE: its address
	fn := func(parent int, name string) profile.CallNode {
		return profile.CallNode{Parent: parent, Kind: "function", Addr: addrs[name]}
	}
	cp := &profile.CallPaths{
		Nodes: []profile.CallNode{
			{Parent: -1, Kind: "root"},
			fn(0, "main"), fn(1, "top"), fn(2, "mid"), fn(3, "leaf"),
			{Parent: 2, Kind: "region", Region: 1, Frame: "fork"},
			{Parent: 5, Kind: "function", Addr: outlined},
			fn(6, "leaf"), fn(5, "leaf"),
		},
		Threads: []profile.CallThread{
			{Thread: 0, Nodes: [][3]uint64{{1, 1, 1 * Ms}, {2, 1, 10 * Ms}, {3, 2, 20 * Ms}, {4, 4, 30 * Ms}, {5, 1, 2 * Ms}, {6, 1, 5 * Ms}, {7, 3, 7 * Ms}, {8, 1, 1 * Ms}}},
			{Thread: 1, Nodes: [][3]uint64{{6, 1, 4 * Ms}, {7, 2, 8 * Ms}}},
		},
		MaxNodes: 100000,
	}
	return &profile.Profile{
		Format: profile.Format, Version: profile.Version, Program: exe, PID: 1, Mode: "profile", WallNs: 100 * Ms, Exit: "exit",
		Regions:   []profile.Region{{ID: 1, Kind: "parallel", Name: "parallel", File: "paths.c", BeginLine: symtest.Line(t, filepath.Join(dir, "paths.c"), "top") + 2, EndLine: symtest.Line(t, filepath.Join(dir, "paths.c"), "top") + 3}},
		Threads:   []profile.Thread{{Index: 0, Path: "0", Level: 0}, {Index: 1, Path: "0.1", Level: 1, ImplicitTasks: 1}},
		OSThreads: 2, CallPaths: cp, Mappings: maps,
	}
}

// Hot is Profile with the times of a program that calls a tiny function
// very often (the truth of gopari filter's tests):
//
//	main     10^6 visits of 5 ns: cheap and hot, but the root: kept
//	top      10^6 visits of 5 ns, a parallel region below it: kept
//	mid      10 visits of 1 ms: long calls, kept
//	leaf     10^6 visits of 5 ns over three paths and two threads: excluded
//
// The run measured what a call costs: 20 ns (call_cost_ns), so leaving
// leaf out saves 20 ms.
func Hot(t testing.TB) *profile.Profile {
	p := Profile(t)
	p.CallPaths.Threads = []profile.CallThread{
		{Thread: 0, Nodes: [][3]uint64{{1, 1e6, 5e6}, {2, 1e6, 5e6}, {3, 10, 10 * Ms}, {4, 600_000, 3e6}, {5, 1, 2 * Ms}, {6, 1, 1 * Ms}, {7, 250_000, 1_250_000}, {8, 50_000, 250_000}}},
		{Thread: 1, Nodes: [][3]uint64{{6, 1, 1 * Ms}, {7, 100_000, 500_000}}},
	}
	p.CallPaths.CallCostNs = 20
	return p
}

// Line is the line of the marker /* @name */ in paths.c.
func Line(t testing.TB, name string) int {
	dir := t.TempDir()
	symtest.Copy(t, dir, "paths.c")
	return symtest.Line(t, filepath.Join(dir, "paths.c"), name)
}

func symbolValue(t testing.TB, exe, name string) uint64 {
	t.Helper()
	f, err := elf.Open(exe)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	syms, _ := f.Symbols()
	for _, s := range syms {
		if s.Name == name {
			return s.Value
		}
	}
	t.Fatalf("%s: no symbol %s", exe, name)
	return 0
}
