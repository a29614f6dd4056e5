package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	gpprof "github.com/google/pprof/profile"

	"gopari/internal/callpath"
	"gopari/internal/chrome"
	"gopari/internal/profile"
	"gopari/internal/symbols"
)

// Sampled call paths (issue 26): testdata/sampled.c, built through gopari
// cc at -O2 without -g (names from the symbol table) and run with
// GOPARI_SAMPLE_HZ=1000, measures the CPU time of each of its parts
// itself; the samples must agree, where gopari says they were.

// buildSampled builds testdata/sampled.c through gopari cc with c, at
// -O2 and without -g.
func buildSampled(t *testing.T, c compiler) string {
	t.Helper()
	src, _ := filepath.Abs(filepath.Join("testdata", "sampled.c"))
	exe := filepath.Join(t.TempDir(), "sampled")
	argv := append(append([]string{"cc", c.cc}, c.openmp...), "-O2", src, "-o", exe)
	cmd := exec.Command(gopariCommand(t), argv...)
	cmd.Env = append(os.Environ(), "GOPARI_PREFIX="+runtimePrefix(t))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gopari %s: %v\n%s", strings.Join(argv, " "), err, out)
	}
	return exe
}

// TestSampledCallPaths runs sampled.c at 1 and 2 threads, gcc and clang,
// sampled at 1000 Hz over about 4.5 s of CPU time: top, mid and leaf's
// own CPU time within 10% of what they measured (3 s in all); every
// sample of taskwork below the task construct below the single region
// that created it (the task's creating path), its CPU time within 10%;
// at 2 threads the CPU time the threads spent in the explicit barrier
// (OMP_WAIT_POLICY=active, and KMP_USE_YIELD=0 lest libomp yield the
// CPU: a busy-wait) charged to the barrier construct, within 10%; the program's own SIGPROF handler and ITIMER_PROF still
// fire; gopari pprof's samples/count and cpu/nanoseconds, and --folded;
// at 2 threads in trace mode, one instant event per sample in gopari
// trace --chrome, on the thread's track, named by its path's frame. The
// times' bounds and dropped samples fail only if three runs show them.
func TestSampledCallPaths(t *testing.T) {
	needTools(t)
	for _, c := range compilers {
		c := c
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			exe := buildSampled(t, c)
			for _, n := range []int{1, 2} {
				t.Run(fmt.Sprint(n), func(t *testing.T) {
					// A thread that yields in a loop runs in bursts shorter
					// than the kernel's tick, when CPU-time timers fire: its
					// samples come late, in what it runs next (docs/sampling.md).
					env := []string{fmt.Sprintf("OMP_NUM_THREADS=%d", n), "OMP_WAIT_POLICY=active", "KMP_USE_YIELD=0", "GOPARI_SAMPLE_HZ=1000"}
					if n == 2 {
						env = append(env, "GOPARI_MODE=trace")
					}
					// A thread preempted while it unwinds makes the other's
					// sample wait and, after 10 ms, drop; CPU-time timers
					// on loaded cores fire late: the attribution's bounds
					// and dropped samples fail only if three runs show them.
					var off []string
					for try := 0; try < 3; try++ {
						if off = sampledRun(t, exe, env, n); len(off) == 0 {
							break
						}
					}
					for _, e := range off {
						t.Error(e)
					}
				})
			}
		})
	}
}

// checkMappings checks the build IDs of a run's mappings, which the
// runtime reads from the notes its loader mapped: each is the one its
// file holds on disk, and the executable has one.
func checkMappings(t *testing.T, p *profile.Profile, exe string) {
	t.Helper()
	sawExe := false
	for _, m := range p.Mappings {
		if want := symbols.FileBuildID(m.File); m.BuildID != want {
			t.Errorf("mapping of %s: build ID %q, its file's is %q", m.File, m.BuildID, want)
		}
		sawExe = sawExe || (m.File == exe && m.BuildID != "")
	}
	if !sawExe {
		t.Errorf("no mapping of %s with a build ID among %d mappings", exe, len(p.Mappings))
	}
}

// sampledCPU is the CPU ns of the samples in the subtrees of nodes.
func sampledCPU(tree *callpath.Tree, ids []int) uint64 {
	var ns uint64
	for _, id := range ids {
		ns += tree.Nodes[id].InclCPUNs
	}
	return ns
}

// within reports whether got is within 10% of want.
func within(got, want uint64) bool {
	return math.Abs(float64(got)-float64(want)) <= 0.1*float64(want)
}

// runSampledTree runs sampled.c's build exe with env and its argument:
// it must exit 0 and quietly, with sampled call paths; it returns the
// run, what the program printed and the call-path tree.
func runSampledTree(t *testing.T, exe string, env []string, arg string) (result, map[string]uint64, *callpath.Tree) {
	t.Helper()
	r := run(t, exe, env, arg)
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	tree, err := callpath.FromProfile(readProfile(t, r))
	if err != nil || tree == nil || tree.Sampling == nil {
		t.Fatalf("no sampled call paths (%v)", err)
	}
	return r, printed(t, r.stdout), tree
}

// sampledRun makes one run of sampled.c for TestSampledCallPaths at n
// threads: what must hold on every run is checked (errors), what the
// machine's load may move is returned, for the caller to judge.
func sampledRun(t *testing.T, exe string, env []string, n int) (off []string) {
	t.Helper()
	r, got, tree := runSampledTree(t, exe, env, "3")
	if sg := tree.Sampling; sg.Hz != 1000 || sg.Clock != "cpu" || sg.PeriodNs != 1000000 {
		t.Errorf("sampling %+v, want 1000 Hz of cpu time", *sg)
	}
	if sg := tree.Sampling; sg.Dropped != 0 {
		off = append(off, fmt.Sprintf("sampling %+v, want nothing dropped", *sg))
	}
	if sg := tree.Sampling; sg.UnwindTables < 2 {
		t.Errorf("%d code segments' unwind tables registered, want the executable's and its libraries'", sg.UnwindTables)
	}
	for i, nd := range tree.Nodes {
		if i > 0 && nd.Kind != "overflow" && nd.InclCPUNs == 0 {
			t.Errorf("%s: a path without samples, kept in a run without --functions", strings.Join(tree.Path(i), " / "))
		}
	}
	off = append(off, checkSampledChain(t, tree, got)...)
	off = append(off, checkSampledTasks(t, tree, got)...)
	checkMappings(t, readProfile(t, r), exe)
	if n == 2 {
		off = append(off, checkSampledBarrier(t, tree, got)...)
	}
	// Too few signals fail only if three runs show them (a handler that
	// never runs shows it in every run): on a loaded core the kernel
	// delivers few of ITIMER_PROF's signals to any program. At 1 thread
	// beside four spinning processes (2 cores), sampled.c caught 0 to 4
	// of about 19 built with gcc alone, as it did instrumented and
	// sampled (docs/sampling.md, Limits).
	if got["sigprof"] < 3 {
		off = append(off, fmt.Sprintf("the program's SIGPROF handler caught %d signals in 0.2 s at 10 ms, want about 20", got["sigprof"]))
	}
	if n == 2 {
		checkSampledViews(t, r.dir)
		checkSampledTrace(t, r.dir, tree.Sampling)
	}
	return off
}

func checkSampledChain(t *testing.T, tree *callpath.Tree, got map[string]uint64) (off []string) {
	t.Helper()
	top, mid, leaf := cpByName(tree, "top"), cpByName(tree, "mid"), cpByName(tree, "leaf")
	if len(top) == 0 || len(mid) == 0 || len(leaf) == 0 {
		t.Fatalf("no node of top, mid or leaf: %d, %d, %d", len(top), len(mid), len(leaf))
	}
	own := map[string][2]uint64{
		"top":  {sampledCPU(tree, top) - sampledCPU(tree, mid), got["top"]},
		"mid":  {sampledCPU(tree, mid) - sampledCPU(tree, leaf), got["mid"]},
		"leaf": {sampledCPU(tree, leaf), got["leaf"]},
	}
	for name, v := range own {
		if !within(v[0], v[1]) {
			off = append(off, fmt.Sprintf("%s: %d ns of samples of its own, the program spun %d ns there; the samples:\n%s", name, v[0], v[1], samplesText(tree)))
		}
	}
	for _, id := range append(append(top, mid...), leaf...) {
		p := strings.Join(tree.Path(id), " / ")
		if !strings.Contains(p, "!$omp parallel @") || strings.Contains(p, "omp_fn") || strings.Contains(p, "omp_outlined") ||
			strings.Contains(p, "libgomp") || strings.Contains(p, "libomp") {
			t.Errorf("a chain node at %s, want below the parallel region's frame, no outlined function or runtime frame", p)
		}
	}
	return off
}

func checkSampledTasks(t *testing.T, tree *callpath.Tree, got map[string]uint64) (off []string) {
	t.Helper()
	work := cpByName(tree, "taskwork")
	if !within(sampledCPU(tree, work), got["taskwork"]) {
		off = append(off, fmt.Sprintf("taskwork: %d ns of samples, the program spun %d ns there; the samples:\n%s", sampledCPU(tree, work), got["taskwork"], samplesText(tree)))
	}
	for _, id := range work {
		p := tree.Path(id)
		task, single := p[len(p)-2], p[len(p)-3]
		if !strings.HasPrefix(task, "!$omp task @") || !strings.HasPrefix(single, "!$omp single @") || !strings.HasSuffix(single, "(body)") {
			t.Errorf("taskwork at %s, want below its task, below the single region that created it", strings.Join(p, " / "))
		}
	}
	return off
}

func checkSampledBarrier(t *testing.T, tree *callpath.Tree, got map[string]uint64) []string {
	t.Helper()
	var at []int
	for i, nd := range tree.Nodes {
		if strings.HasPrefix(nd.Name, "!$omp barrier @") {
			at = append(at, i)
		}
	}
	// The threads measure their CPU time around the directive; the
	// construct's frame is a few instructions wider.
	ns, want := sampledCPU(tree, at), got["waited"]
	if want < 50e6 {
		t.Fatalf("the threads waited %d ns of CPU time in the barrier: no busy-wait", want)
	}
	if !within(ns, want) {
		return []string{fmt.Sprintf("the barrier: %d ns of samples, the threads waited %d ns of CPU time there; the samples:\n%s", ns, want, samplesText(tree))}
	}
	return nil
}

// checkSampledViews reads the run with gopari pprof (its sample types,
// and go tool pprof -top on cpu) and --folded.
func checkSampledViews(t *testing.T, dir string) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "run.pb.gz")
	folded := filepath.Join(t.TempDir(), "run.folded")
	for _, argv := range [][]string{{"pprof", "-o", out, dir}, {"pprof", "--folded", folded, dir}} {
		if b, err := exec.Command(gopariCommand(t), argv...).CombinedOutput(); err != nil {
			t.Fatalf("gopari %s: %v\n%s", strings.Join(argv, " "), err, b)
		}
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, err := gpprof.Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, st := range p.SampleType {
		types = append(types, st.Type+"/"+st.Unit)
	}
	if s := strings.Join(types, " "); !strings.Contains(s, "samples/count cpu/nanoseconds") {
		t.Errorf("pprof sample types %s, want samples/count and cpu/nanoseconds", s)
	}
	b, err := exec.Command("go", "tool", "pprof", "-top", "-sample_index=cpu", out).CombinedOutput()
	if err != nil || !strings.Contains(string(b), " leaf\n") {
		t.Errorf("go tool pprof -top -sample_index=cpu: %v, no leaf:\n%s", err, b)
	}
	fb, err := os.ReadFile(folded)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(fb), ";top;mid;leaf ") {
		t.Errorf("--folded has no path ...;top;mid;leaf:\n%s", fb)
	}
}

// samplesText lists the paths that have samples of their own.
func samplesText(tree *callpath.Tree) string {
	var b strings.Builder
	for i, nd := range tree.Nodes {
		if nd.Samples > 0 {
			fmt.Fprintf(&b, "%6d %s\n", nd.Samples, strings.Join(tree.Path(i), " / "))
		}
	}
	return b.String()
}

// checkSampledTrace writes the run's Chrome trace and counts its
// samples: one instant event per signal the run kept, each on a track of
// the trace, named "sample: " and its path's innermost frame, the path
// in its args.
func checkSampledTrace(t *testing.T, dir string, sg *profile.Sampling) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "run.json")
	if b, err := exec.Command(gopariCommand(t), "trace", "--chrome", out, dir).CombinedOutput(); err != nil {
		t.Fatalf("gopari trace --chrome: %v\n%s", err, b)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := chrome.Check(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("the Chrome trace: %v", err)
	}
	var doc struct {
		TraceEvents []struct {
			Ph, Name string
			Tid      int
			Args     struct{ Path string }
		}
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	var samples, leaves uint64
	for _, e := range doc.TraceEvents {
		if e.Ph != "i" || !strings.HasPrefix(e.Name, "sample: ") {
			continue
		}
		samples++
		if _, ok := sum.Names[e.Tid]; !ok {
			t.Errorf("a sample on track %d, which the trace does not name", e.Tid)
		}
		if e.Name == "sample: leaf" {
			leaves++
			if !strings.HasSuffix(e.Args.Path, ";top;mid;leaf") {
				t.Errorf("a sample of leaf at %q", e.Args.Path)
			}
		}
	}
	if want := sg.Signals - sg.Dropped - sg.TraceLost; samples != want || leaves == 0 {
		t.Errorf("%d sample events (%d of leaf) in the Chrome trace, want one per signal kept, %d", samples, leaves, want)
	}
}

// TestSampledWithFunctions samples sampled.c built with --functions, at
// 1 thread, gcc and clang: samples and measured calls share one tree,
// each sample below the call it was taken in and no frame twice
// (leaf's time within 10%, no path through leaf twice); taskwork's
// samples below its task, below creator, the function that created it.
func TestSampledWithFunctions(t *testing.T) {
	needTools(t)
	for _, c := range compilers {
		c := c
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			exe := buildCC(t, c, "sampled.c", "--functions")
			_, got, tree := runSampledTree(t, exe, []string{"OMP_NUM_THREADS=1", "GOPARI_SAMPLE_HZ=1000"}, "2")
			leaf := cpByName(tree, "leaf")
			if ns := sampledCPU(tree, leaf); !within(ns, got["leaf"]) || cpVisits(tree, leaf) != 1 {
				t.Errorf("leaf: %d ns of samples, %d visits; the program spun %d ns there in 1 call:\n%s", ns, cpVisits(tree, leaf), got["leaf"], samplesText(tree))
			}
			for i := range tree.Nodes {
				p := strings.Join(tree.Path(i), " / ")
				if strings.Count(p, "/ leaf") > 1 || strings.Count(p, "/ top") > 1 {
					t.Errorf("a path through a call twice: %s", p)
				}
			}
			work := cpByName(tree, "taskwork")
			if !within(sampledCPU(tree, work), got["taskwork"]) {
				t.Errorf("taskwork: %d ns of samples, the program spun %d ns there", sampledCPU(tree, work), got["taskwork"])
			}
			for _, id := range work {
				if p := strings.Join(tree.Path(id), " / "); !strings.Contains(p, "/ creator / !$omp task @") {
					t.Errorf("taskwork at %s, want below its task below creator", p)
				}
			}
		})
	}
}
