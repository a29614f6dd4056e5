package e2e

import (
	"encoding/xml"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"gopari/internal/chrome"
	"gopari/internal/events"
	"gopari/internal/grains"
	"gopari/internal/profile"
	"gopari/internal/timeline"
	"gopari/parser"
	"gopari/rewrite"
)

// TestGrains is part of issue 14's acceptance: fib(18) with cutoff 6 run
// with GOPARI_GRAINS=1 gives exactly the task grains of the model, each
// with its lineage and the parent whose lineage is its own less the last
// step; the taskloop's grains cover its 100 iterations exactly once, as
// many as the profile says the runtime made. At 1, 2 and 4 threads with
// every compiler.
func TestGrains(t *testing.T) {
	needTools(t)
	// The model: lineage R.p0.w0 is the team's first worksharing
	// construct, the single; a call above the cutoff makes children .0
	// (fib(n-1)) and .1 (fib(n-2)).
	want := map[string]bool{}
	var model func(n int, lin string)
	model = func(n int, lin string) {
		if n < 2 || n <= 6 {
			return
		}
		for k, m := range []int{n - 1, n - 2} {
			l := lin + "." + strconv.Itoa(k)
			want[l] = true
			model(m, l)
		}
	}
	model(18, "R.p0.w0")
	for _, c := range compilers {
		c := c
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := build(t, c, "grainfib.c")
			for _, threads := range []string{"1", "2", "4"} {
				env := []string{"OMP_NUM_THREADS=" + threads, "GOPARI_GRAINS=1"}
				orig, got := run(t, p.orig, env), run(t, p.inst, env)
				if got.stdout != orig.stdout || got.code != orig.code {
					t.Fatalf("instrumented printed %q, original %q\n%s", got.stdout, orig.stdout, got.stderr)
				}
				exp, err := events.OpenExperiment(got.dir)
				if err != nil {
					t.Skipf("no event stream (the runtime's grains mode): %v", err)
				}
				prof := readProfile(t, got)
				var tasks []grains.Grain
				seen := make([]int, 100)
				var taskloop int
				if _, err := grains.Extract(exp, func(g *grains.Grain, _ *timeline.Event) {
					switch g.Kind {
					case grains.Task:
						tasks = append(tasks, *g)
					case grains.Taskloop:
						taskloop++
						for i := g.First; i <= g.Last && i >= 0 && i < 100; i++ {
							seen[i]++
						}
					}
				}, nil); err != nil {
					t.Fatal(err)
				}
				if len(tasks) != len(want) {
					t.Errorf("%s threads: %d task grains, want %d", threads, len(tasks), len(want))
				}
				byID := map[uint64]string{}
				for _, g := range tasks {
					byID[g.ID] = g.Lineage
					if !want[g.Lineage] {
						t.Errorf("%s threads: grain with lineage %s", threads, g.Lineage)
					}
				}
				// Each grain's parent is the grain one step up its lineage, or
				// the team (an implicit task) for the first two.
				for _, g := range tasks {
					pl, ok := byID[g.Parent]
					i := strings.LastIndexByte(g.Lineage, '.')
					switch {
					case ok && pl != g.Lineage[:i]:
						t.Errorf("grain %s has parent %s", g.Lineage, pl)
					case !ok && g.Lineage[:i] != "R.p0.w0":
						t.Errorf("grain %s: its parent is no grain", g.Lineage)
					}
				}
				for i, n := range seen {
					if n != 1 {
						t.Errorf("%s threads: iteration %d in %d taskloop grains", threads, i, n)
					}
				}
				var made uint64
				for _, ts := range prof.Tasks {
					if r := prof.Region(ts.Region); r != nil && r.Kind == "taskloop" {
						made += ts.Executed
					}
				}
				if uint64(taskloop) != made {
					t.Errorf("%s threads: %d taskloop grains, the runtime made %d tasks", threads, taskloop, made)
				}
			}
		})
	}
}

// loopMarks returns, for a test program, the loops it marks with
// "loop: NAME ITERATIONS" on their directive's line: line and iteration
// count by name.
func loopMarks(t *testing.T, name string) map[string][2]int {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][2]int{}
	rx := regexp.MustCompile(`#pragma omp .*loop: (\w+) (\d+)`)
	for i, l := range strings.Split(string(src), "\n") {
		if m := rx.FindStringSubmatch(l); m != nil {
			n, _ := strconv.Atoi(m[2])
			out[m[1]] = [2]int{i + 1, n}
		}
	}
	return out
}

// runGrains extracts the grains of an experiment, by the line of their
// construct.
func runGrains(t *testing.T, dir string) (map[int][]grains.Grain, *events.Experiment) {
	t.Helper()
	exp, err := events.OpenExperiment(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[int][]grains.Grain{}
	if _, err := grains.Extract(exp, func(g *grains.Grain, _ *timeline.Event) {
		if r := exp.Region(g.Region); r != nil {
			out[r.BeginLine] = append(out[r.BeginLine], *g)
		}
	}, nil); err != nil {
		t.Fatal(err)
	}
	return out, exp
}

// TestChunks is part of issue 14's acceptance: the chunks of loops of
// known schedule, recorded with --chunks and GOPARI_GRAINS=1, at 1, 2
// and 4 threads with every compiler, strip-mined or hooked.
// schedule(static, k) gives exactly ceil(n/k) chunks, chunk m holding
// iterations mk..(m+1)k-1 on thread m mod T; dynamic, k and
// schedule(runtime) with OMP_SCHEDULE=dynamic,4 chunks aligned on k
// that cover every iteration once; guided, static
// and collapse(2) chunks that cover the iteration space once (static: at
// most one per thread, in thread order); loop variables' values where
// they are integers; and each of the loop's two executions apart. The
// taskloop's grains are as many as the tasks the program counted itself.
// The program prints what it printed uninstrumented (lastprivate,
// linear, reduction and ordered loops keep their meaning).
func TestChunks(t *testing.T) {
	needTools(t)
	for _, c := range compilers {
		for _, prog := range []string{"grainloops.c", "grainloops.cpp"} {
			c, prog := c, prog
			t.Run(c.name+"/"+prog, func(t *testing.T) {
				t.Parallel()
				testChunks(t, c, prog)
			})
		}
	}
}

// testChunks runs one program of TestChunks.
func testChunks(t *testing.T, c compiler, prog string) {
	marks := loopMarks(t, prog)
	p := buildOpts(t, c, prog, rewrite.Options{Chunks: true})
	for _, threads := range []int{1, 2, 4} {
		env := []string{"OMP_NUM_THREADS=" + strconv.Itoa(threads), "OMP_SCHEDULE=dynamic,4", "GOPARI_GRAINS=1"}
		orig, got := run(t, p.orig, env), run(t, p.inst, env)
		if got.stdout != orig.stdout || got.code != orig.code {
			t.Fatalf("%d threads: instrumented printed %q, original %q\n%s", threads, got.stdout, orig.stdout, got.stderr)
		}
		byLine, exp := runGrains(t, got.dir)
		for name, m := range marks {
			checkLoop(t, fmt.Sprintf("%d threads, loop %s", threads, name), name, m[1], threads, byLine[m[0]], exp)
		}
		tl, ok := marks["taskloop"]
		if !ok {
			continue
		}
		var tasks int
		fmt.Sscanf(got.stdout[strings.Index(got.stdout, "tasks "):], "tasks %d", &tasks)
		if n := len(byLine[tl[0]]); n != tasks || tasks == 0 {
			t.Errorf("%d threads: %d taskloop grains, the program counted %d tasks", threads, n, tasks)
		}
	}
}

// chunkSizes are the chunk sizes of the loops of grainloops.c and .cpp
// whose chunks lie on its multiples.
var chunkSizes = map[string]int{"static7": 7, "dynamic5": 5, "collapse": 3, "runtime": 4, "down4": 4, "unsigned": 1,
	"reduction": 3, "linear": 5, "ordered": 2, "iterator8": 8, "auto16": 16}

// staticK are the loops of chunkSizes under schedule(static, k): chunk m
// runs on thread m mod T.
var staticK = map[string]bool{"static7": true, "down4": true, "reduction": true, "linear": true, "auto16": true}

// checkLoop checks the grains of one loop of grainloops.c: two
// executions, each covering its n iterations once, with the chunks its
// schedule makes.
func checkLoop(t *testing.T, what, name string, n, threads int, gs []grains.Grain, exp *events.Experiment) {
	t.Helper()
	execs := map[grains.LoopKey][]grains.Grain{}
	for _, g := range gs {
		k := g.Loop
		if g.Kind == grains.Taskloop {
			k = grains.LoopKey{Team: g.Team, Region: g.Region} // one execution per team
		}
		execs[k] = append(execs[k], g)
	}
	if len(execs) != 2 {
		t.Errorf("%s: %d executions, want 2", what, len(execs))
	}
	for _, cs := range execs {
		sort.Slice(cs, func(i, j int) bool { return cs[i].First < cs[j].First })
		seen := make([]int, n)
		prevThread := -1
		for m, g := range cs {
			for i := g.First; i <= g.Last; i++ {
				if i < 0 || int(i) >= n {
					t.Fatalf("%s: chunk %d..%d outside 0..%d", what, g.First, g.Last, n-1)
				}
				seen[i]++
			}
			th := threadNum(exp, g.Loc)
			if k := chunkSizes[name]; k > 0 {
				if g.First%int64(k) != 0 || g.Last != min(g.First+int64(k), int64(n))-1 {
					t.Errorf("%s: chunk %d..%d, want chunks of %d", what, g.First, g.Last, k)
				}
				if staticK[name] && (g.First != int64(k*m) || th != m%threads) {
					t.Errorf("%s: chunk %d is %d..%d on thread %d, want %d.. on thread %d", what, m, g.First, g.Last, th, k*m, m%threads)
				}
			}
			if name == "static" {
				if th <= prevThread {
					t.Errorf("%s: thread %d's chunk follows thread %d's", what, th, prevThread)
				}
				prevThread = th
			}
			if name == "down4" && (g.FirstValue != 307-3*g.First || g.LastValue != 307-3*g.Last) {
				t.Errorf("%s: chunk %d..%d has values %d..%d, want %d..%d", what, g.First, g.Last, g.FirstValue, g.LastValue, 307-3*g.First, 307-3*g.Last)
			}
			if (name == "unsigned" || name == "static7" || name == "auto16") && (g.FirstValue != g.First || g.LastValue != g.Last) {
				t.Errorf("%s: chunk %d..%d has values %d..%d", what, g.First, g.Last, g.FirstValue, g.LastValue)
			}
			if name == "outside" && (g.FirstValue != 299-g.First || g.LastValue != 299-g.Last) {
				t.Errorf("%s: chunk %d..%d has values %d..%d, want %d..%d", what, g.First, g.Last, g.FirstValue, g.LastValue, 299-g.First, 299-g.Last)
			}
			if name == "iterator8" && (g.FirstValue != events.UnknownIteration || g.LastValue != events.UnknownIteration) {
				t.Errorf("%s: an iterator's chunk %d..%d has values %d..%d", what, g.First, g.Last, g.FirstValue, g.LastValue)
			}
		}
		for i, s := range seen {
			if s != 1 {
				t.Errorf("%s: iteration %d in %d chunks", what, i, s)
				break
			}
		}
		if k := chunkSizes[name]; k > 0 && len(cs) != (n+k-1)/k {
			t.Errorf("%s: %d chunks, want %d", what, len(cs), (n+k-1)/k)
		}
	}
}

// threadNum returns the thread number of a location in its team: the
// last part of its team path.
func threadNum(exp *events.Experiment, loc int) int {
	if loc < 0 || loc >= len(exp.Threads) {
		return -1
	}
	p := exp.Threads[loc].Path
	n, _ := strconv.Atoi(p[strings.LastIndexByte(p, '.')+1:])
	return n
}

// TestChunksKeepBehaviour is part of issue 14's acceptance: every program
// of TestPrograms, built with --chunks and run with GOPARI_GRAINS=1 at 1,
// 2 and 4 threads, prints what it prints uninstrumented, and its profile
// is whole.
func TestChunksKeepBehaviour(t *testing.T) {
	needTools(t)
	for _, c := range compilers {
		for _, name := range testPrograms {
			c, name := c, name
			t.Run(c.name+"/"+name, func(t *testing.T) {
				t.Parallel()
				p := buildOpts(t, c, name, rewrite.Options{Chunks: true})
				for _, threads := range []string{"1", "2", "4"} {
					compareRun(t, p, []string{"OMP_NUM_THREADS=" + threads, "GOPARI_GRAINS=1"})
				}
			})
		}
	}
}

// randomChunkPrograms random programs, other seeds than those of
// TestRandomPrograms, are tested with --chunks.
var randomChunkPrograms = flag.Int("randchunks", 100, "random programs for TestRandomProgramsChunks")

// TestRandomProgramsChunks runs random programs (internal/randprog)
// built with --chunks, with GOPARI_GRAINS=1, and checks that they print
// what they print uninstrumented, as TestRandomPrograms does without
// --chunks.
func TestRandomProgramsChunks(t *testing.T) {
	needTools(t)
	const offset = 1 << 20 // seeds TestRandomPrograms does not take
	for first := 0; first < *randomChunkPrograms; first += programsPerFile {
		c := compilers[(first/programsPerFile)%len(compilers)]
		lo := *randSeed + offset + uint64(first)
		n := min(programsPerFile, *randomChunkPrograms-first)
		t.Run(fmt.Sprintf("%s/seeds-%d-%d", c.name, lo, lo+uint64(n)-1), func(t *testing.T) {
			t.Parallel()
			testRandomFile(t, c, lo, n, rewrite.Options{Chunks: true}, "GOPARI_GRAINS=1")
		})
	}
}

// analyze analyzes the run in dir, against the baseline run in base if
// base is not empty, as gopari grains does.
func analyze(t *testing.T, dir, base string) *grains.Analysis {
	t.Helper()
	exp, err := events.OpenExperiment(dir)
	if err != nil {
		t.Fatal(err)
	}
	var opts grains.Options
	if base != "" {
		if opts.Baseline, err = events.OpenExperiment(base); err != nil {
			t.Fatal(err)
		}
	}
	a, err := grains.Analyze(exp, opts)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// summary analyzes the run in dir, with a baseline run if base is not
// empty, and returns the summary gopari grains prints.
func summary(t *testing.T, dir, base string, graph *grains.Graph) string {
	t.Helper()
	a := analyze(t, dir, base)
	res, err := a.Write(grains.Outputs{Graph: graph})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	a.Summary(&b, res, 0)
	return b.String()
}

// TestGrainMetrics is part of issue 14's acceptance: the problems
// gopari grains flags on programs of known shape (testdata/grainmetrics.c),
// recorded with GOPARI_GRAINS=1 at 2 threads. Tasks that do nothing have
// parallel benefit below 1; tasks whose work grows with the team are
// flagged for work inflation against a 1-thread baseline, tasks whose
// work does not are not; a loop whose iterations grow in cost is flagged
// for imbalance, one whose iterations cost alike is not. Times on a
// shared machine vary: the flags of work inflation and imbalance are a
// region's when most of its instances have them, and the constructed
// effects are far above the thresholds (4x and 0.67 against 1.5x and 0.8).
func TestGrainMetrics(t *testing.T) {
	needTools(t)
	if runtime.NumCPU() < 2 {
		t.Skip("metrics at 2 threads need 2 CPUs: more threads than CPUs look like inflation")
	}
	lines := map[string]int{}
	src, _ := os.ReadFile(filepath.Join("testdata", "grainmetrics.c"))
	for i, l := range strings.Split(string(src), "\n") {
		switch {
		case strings.TrimSpace(l) == "#pragma omp task":
			lines["tiny"] = i + 1
		case strings.Contains(l, "#pragma omp task firstprivate"):
			lines["spin"] = i + 1
		case strings.Contains(l, "#pragma omp for schedule(static)"):
			lines["loop"] = i + 1
		}
	}
	for _, c := range compilers {
		c := c
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := buildOpts(t, c, "grainmetrics.c", rewrite.Options{Chunks: true})
			at := func(mode, threads string) result {
				r := run(t, p.inst, []string{"OMP_NUM_THREADS=" + threads, "GOPARI_GRAINS=1"}, mode)
				if r.code != 0 {
					t.Fatalf("%s: exit %d\n%s", mode, r.code, r.stderr)
				}
				return r
			}
			// want is a regular expression for the summary's line; its
			// group is the share of the instances flagged, at least half.
			tests := []struct {
				mode, want string
				flagged    bool
			}{
				{"tiny", fmt.Sprintf(`task at grainmetrics.c:%d: (\d+)%% of its 20k instances have parallel benefit < 1`, lines["tiny"]), true},
				{"inflate", fmt.Sprintf(`task at grainmetrics.c:%d: (\d+)%% of its 200 instances take more than 1.5×`, lines["spin"]), true},
				{"balanced", fmt.Sprintf(`task at grainmetrics.c:%d: (\d+)%% of its 200 instances take more than 1.5×`, lines["spin"]), false},
				{"skewed", fmt.Sprintf(`loop at grainmetrics.c:%d: (\d+) of its 20 executions have load balance below 0.8`, lines["loop"]), true},
				{"uniform", fmt.Sprintf(`loop at grainmetrics.c:%d: (\d+) of its 20 executions have load balance below 0.8`, lines["loop"]), false},
			}
			for _, tc := range tests {
				var sum string
				var m []string
				// A thread preempted on a shared machine makes a balanced
				// case look imbalanced or inflated, and an imbalanced one
				// balanced (the fast thread's chunks take as long as the
				// slow one's): each case gets three runs, and fails only
				// if all disagree with it.
				for try := 0; try < 3; try++ {
					base := at(tc.mode, "1")
					sum = summary(t, at(tc.mode, "2").dir, base.dir, nil)
					m = regexp.MustCompile(`(?m)^` + tc.want).FindStringSubmatch(sum)
					if (m != nil) == tc.flagged {
						break
					}
					t.Logf("%s: flagged %v in run %d, run again:\n%s", tc.mode, m != nil, try+1, sum)
				}
				found := m != nil
				if n, _ := strconv.Atoi(m1(m)); found && tc.mode != "skewed" && tc.mode != "uniform" && n < 50 {
					t.Errorf("%s: %d%% flagged, want most\n%s", tc.mode, n, sum)
				}
				if found != tc.flagged {
					t.Errorf("%s: flagged %v, want %v (%q)\n%s", tc.mode, found, tc.flagged, tc.want, sum)
				}
			}
		})
	}
}

// m1 returns the first group of a match, or "".
func m1(m []string) string {
	if len(m) < 2 {
		return ""
	}
	return m[1]
}

// TestGrainGraph is part of issue 14's acceptance: the grain graph of real
// runs (fib's tasks, and the loops and taskloop of grainloops.c) renders
// with Graphviz's dot -Tsvg, and its GraphML parses, names only nodes it
// has in its edges, and reads back with networkx's GraphML reader.
func TestGrainGraph(t *testing.T) {
	needTools(t)
	c := compilers[0]
	for _, name := range []string{"grainfib.c", "grainloops.c"} {
		p := buildOpts(t, c, name, rewrite.Options{Chunks: true})
		r := run(t, p.inst, []string{"OMP_NUM_THREADS=2", "OMP_SCHEDULE=dynamic,4", "GOPARI_GRAINS=1"})
		g := grains.NewGraph(100000)
		summary(t, r.dir, "", g)
		dir := t.TempDir()
		dot, gml := filepath.Join(dir, "g.dot"), filepath.Join(dir, "g.graphml")
		var db, gb strings.Builder
		if err := g.WriteDOT(&db, name); err != nil {
			t.Fatal(err)
		}
		if err := g.WriteGraphML(&gb); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(dot, []byte(db.String()), 0o644)
		os.WriteFile(gml, []byte(gb.String()), 0o644)
		if out, err := exec.Command("dot", "-Tsvg", "-o", filepath.Join(dir, "g.svg"), dot).CombinedOutput(); err != nil || len(out) > 0 {
			t.Errorf("%s: dot -Tsvg: %v\n%s", name, err, out)
		}
		var doc struct {
			Nodes []struct {
				ID string `xml:"id,attr"`
			} `xml:"graph>node"`
			Edges []struct {
				Source string `xml:"source,attr"`
				Target string `xml:"target,attr"`
			} `xml:"graph>edge"`
		}
		if err := xml.Unmarshal([]byte(gb.String()), &doc); err != nil {
			t.Fatalf("%s: GraphML does not parse: %v", name, err)
		}
		ids := map[string]bool{}
		for _, n := range doc.Nodes {
			ids[n.ID] = true
		}
		for _, e := range doc.Edges {
			if !ids[e.Source] || !ids[e.Target] {
				t.Errorf("%s: edge %s -> %s names a node the graph lacks", name, e.Source, e.Target)
			}
		}
		if len(doc.Nodes) != g.Nodes() || int64(len(doc.Nodes)) < g.Grains() {
			t.Errorf("%s: GraphML has %d nodes; the graph %d, for %d grains", name, len(doc.Nodes), g.Nodes(), g.Grains())
		}
		out, err := exec.Command("python3", "-c", "import sys, networkx as nx\ng = nx.read_graphml(sys.argv[1])\nprint(g.number_of_nodes())", gml).CombinedOutput()
		if err != nil {
			t.Errorf("%s: networkx (python3-networkx) cannot read the GraphML: %v\n%s", name, err, out)
		} else if strings.TrimSpace(string(out)) != strconv.Itoa(len(doc.Nodes)) {
			t.Errorf("%s: networkx read %s nodes, want %d", name, out, len(doc.Nodes))
		}
	}
}

// TestGrainsMode checks what GOPARI_GRAINS=1 records: with profile mode a
// stream of kind grains (the profile's mode stays profile) holding only
// the types of grains mode, and region phases only of what grains need
// (grainPhase); with trace mode
// a stream of both kinds; with ids mode, or a value other than 0 and 1,
// no stream and a warning.
func TestGrainsMode(t *testing.T) {
	needTools(t)
	p := buildOpts(t, compilers[0], "grainloops.c", rewrite.Options{Chunks: true})
	grainTypes := map[events.Type]bool{events.Time: true, events.Loc: true, events.Dropped: true, events.Fork: true, events.Join: true,
		events.ImplicitBegin: true, events.ImplicitEnd: true, events.CreateBegin: true, events.CreateEnd: true, events.TaskBegin: true,
		events.TaskEnd: true, events.Resume: true, events.TaskloopBegin: true, events.TaskloopEnd: true, events.ChunkBegin: true,
		events.ChunkEnd: true, events.EnterConstruct: true, events.ExitConstruct: true, events.EnterWait: true, events.ExitWait: true,
		events.EnterBody: true, events.ExitBody: true}
	for _, tc := range []struct {
		env   []string
		mode  string
		kinds string // "" for no stream
		warn  string
	}{
		{[]string{"GOPARI_GRAINS=1"}, "profile", "grains", ""},
		{[]string{"GOPARI_GRAINS=1", "GOPARI_MODE=trace"}, "trace", "trace grains", ""},
		{[]string{"GOPARI_GRAINS=0", "GOPARI_MODE=trace"}, "trace", "trace", ""},
		{[]string{"GOPARI_GRAINS=1", "GOPARI_MODE=ids"}, "ids", "", "GOPARI_GRAINS=1 needs GOPARI_MODE=profile or trace"},
		{[]string{"GOPARI_GRAINS=yes"}, "profile", "", "GOPARI_GRAINS=yes is not 0 or 1"},
	} {
		r := run(t, p.inst, append([]string{"OMP_NUM_THREADS=2"}, tc.env...))
		if r.code != 0 || (tc.warn == "") != (r.stderr == "") || !strings.Contains(r.stderr, tc.warn) {
			t.Errorf("%v: exit %d, stderr %q, want %q", tc.env, r.code, r.stderr, tc.warn)
		}
		prof := readProfile(t, r)
		if prof.Mode != tc.mode {
			t.Errorf("%v: mode %s, want %s", tc.env, prof.Mode, tc.mode)
		}
		exp, err := events.OpenExperiment(r.dir)
		if tc.kinds == "" {
			if err == nil {
				t.Errorf("%v: a stream of %v", tc.env, exp.Events.Kinds)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%v: %v", tc.env, err)
		}
		if k := strings.Join(exp.Events.Kinds, " "); k != tc.kinds {
			t.Errorf("%v: kinds %q, want %q", tc.env, k, tc.kinds)
		}
		if tc.mode == "trace" {
			continue
		}
		rs, err := exp.Open()
		if err != nil {
			t.Fatal(err)
		}
		for _, rd := range rs {
			for {
				rec, err := rd.Next()
				if err != nil {
					break
				}
				reg := exp.Region(rec.Region)
				switch {
				case !grainTypes[rec.Type]:
					t.Errorf("%v: a %v record", tc.env, rec.Type)
				case rec.Type >= events.EnterConstruct && rec.Type <= events.ExitWait && !grainPhase(reg, rec.Type.PhaseOf()):
					t.Errorf("%v: %v of region %d (%v)", tc.env, rec.Type, rec.Region, reg)
				}
			}
			rd.Close()
		}
	}
}

// grainPhase reports whether grains mode records phase ph of region reg:
// the waits of taskwait and taskgroup regions, the executions of loops
// and taskloops, and the parts of single and sections constructs.
func grainPhase(reg *profile.Region, ph events.Phase) bool {
	if reg == nil {
		return false
	}
	switch reg.Kind {
	case "taskwait", "for", "taskloop":
		return ph == events.PhaseConstruct
	case "taskgroup":
		return ph == events.PhaseWait
	case "single", "sections":
		return ph == events.PhaseConstruct || ph == events.PhaseBody
	}
	return false
}

// TestChunksVectorize checks what the README says of --chunks and
// vectorization: loops that gcc and clang vectorize at -O3 (-fopt-info-vec,
// -Rpass=loop-vectorize) stay vectorized with --chunks where the loop only
// counts its iterations (no schedule clause, schedule(static)) or is
// strip-mined (schedule(static, k), schedule(dynamic, k)), and lose it
// where the body begins with the hook of the other schedules.
func TestChunksVectorize(t *testing.T) {
	needTools(t)
	src, err := os.ReadFile(filepath.Join("testdata", "vectorloops.c"))
	if err != nil {
		t.Fatal(err)
	}
	// Each function holds one loop; a compiler names the loop's line
	// (gcc) or, in outlined code, the function's (clang).
	want := map[string]string{}
	funcAt := map[int]string{}
	fn := ""
	for i, l := range strings.Split(string(src), "\n") {
		if strings.HasPrefix(l, "void ") {
			fn = l[5:strings.IndexByte(l, '(')]
		}
		funcAt[i+1] = fn
		if _, kind, ok := strings.Cut(l, "/* vector: "); ok {
			want[fn] = strings.TrimSuffix(kind, " */")
		}
	}
	res, diags := rewrite.Source("vectorloops.c", src, parser.Config{}, rewrite.Options{Chunks: true})
	if res == nil {
		t.Fatal(diags)
	}
	dir := t.TempDir()
	inst := filepath.Join(dir, "vectorloops.c")
	os.WriteFile(inst, res.Bytes(), 0o644)
	for _, c := range compilers {
		for _, f := range []string{filepath.Join("testdata", "vectorloops.c"), inst} {
			args := append([]string{"-O3", "-g", "-c", "-o", os.DevNull, "-I", incDir, f}, c.openmp...)
			if strings.Contains(c.name, "clang") {
				args = append(args, "-Rpass=loop-vectorize")
			} else {
				args = append(args, "-fopt-info-vec-optimized")
			}
			out, err := exec.Command(c.cc, args...).CombinedOutput()
			if err != nil {
				t.Fatalf("%s %v: %v\n%s", c.cc, args, err, out)
			}
			vectorized := map[string]bool{}
			for _, m := range regexp.MustCompile(`vectorloops\.c:(\d+):\d+: (?:optimized: loop vectorized|remark: vectorized loop)`).FindAllStringSubmatch(string(out), -1) {
				n, _ := strconv.Atoi(m[1])
				vectorized[funcAt[n]] = true
			}
			for fn, kind := range want {
				if wantVec := f != inst || kind == "kept"; vectorized[fn] != wantVec {
					t.Errorf("%s, %s: the %s loop of %s vectorized: %v, want %v\n%s", c.name, f, kind, fn, vectorized[fn], wantVec, out)
				}
			}
		}
	}
}

// TestChunksTrace checks --chunks in trace mode with grains: the chunks
// gopari grains finds in a trace are the grains mode's (the same loops,
// counts and ranges), and the Chrome export draws a slice for each.
func TestChunksTrace(t *testing.T) {
	needTools(t)
	marks := loopMarks(t, "grainloops.c")
	p := buildOpts(t, compilers[0], "grainloops.c", rewrite.Options{Chunks: true})
	r := run(t, p.inst, []string{"OMP_NUM_THREADS=2", "OMP_SCHEDULE=dynamic,4", "GOPARI_MODE=trace", "GOPARI_GRAINS=1"})
	byLine, exp := runGrains(t, r.dir)
	chunks := 0
	for name, m := range marks {
		checkLoop(t, "trace mode, loop "+name, name, m[1], 2, byLine[m[0]], exp)
		for _, g := range byLine[m[0]] {
			if g.Kind == grains.Chunk {
				chunks++
			}
		}
	}
	var b strings.Builder
	if _, err := chrome.Write(&b, exp); err != nil {
		t.Fatal(err)
	}
	sum, err := chrome.Check(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if sum.Slices["chunk"] != chunks || chunks == 0 {
		t.Errorf("Chrome export: %d chunk slices, %d chunk grains", sum.Slices["chunk"], chunks)
	}
}

// runChunks builds testdata/prog with --chunks for c, runs it with env
// in grains mode, checks that it printed stdout, and returns its marked
// loops and its grains by line.
func runChunks(t *testing.T, c compiler, prog string, env []string, stdout string) (map[string][2]int, map[int][]grains.Grain, *events.Experiment) {
	t.Helper()
	marks := loopMarks(t, prog)
	p := buildOpts(t, c, prog, rewrite.Options{Chunks: true})
	got := run(t, p.inst, append(env, "GOPARI_GRAINS=1"))
	if got.stdout != stdout {
		t.Fatalf("printed %q\n%s", got.stdout, got.stderr)
	}
	byLine, exp := runGrains(t, got.dir)
	return marks, byLine, exp
}

// TestChunkTimes checks chunk times against the truth: every iteration of
// chunktimes.c's loops spins for 2 ms of wall time, so a chunk of k
// iterations runs at least 2k ms, and a thread's chunks do not overlap
// (a chunk that held its neighbour's time would), whether the loop is
// strip-mined (static, k: whose chunks follow each other on a thread
// without a dispatch; dynamic, k: whose estimated dispatch is
// subtracted) or hooked. No upper bound: a thread that the machine's
// load deschedules takes longer, and its chunk with it. A dispatch
// estimated from one preempted (a hooked loop's first, or all three
// timed of a dynamic loop) makes chunks look shorter than they ran: the
// lower bound fails only if three runs show it, the rest on every run.
func TestChunkTimes(t *testing.T) {
	needTools(t)
	for _, c := range compilers {
		c := c
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var short []string
			for try := 0; try < 3; try++ {
				marks, byLine, exp := runChunks(t, c, "chunktimes.c", []string{"OMP_NUM_THREADS=2"}, "last 12\n")
				short = nil
				for name, m := range marks {
					short = append(short, checkChunkTimes(t, name, m[1], byLine[m[0]], exp)...)
				}
				if len(short) == 0 {
					break
				}
			}
			for _, e := range short {
				t.Error(e)
			}
		})
	}
}

// checkChunkTimes checks the chunks gs of chunktimes.c's loop name, of
// n iterations: what the runtime and the reader must get right on every
// run (errors), and the chunks that ran less than their iterations spun
// (returned, for the caller to judge).
func checkChunkTimes(t *testing.T, name string, n int, gs []grains.Grain, exp *events.Experiment) (short []string) {
	t.Helper()
	k := map[string]int{"static3": 3, "dynamic2": 2, "hooked2": 2}[name]
	if len(gs) != (n+k-1)/k {
		t.Errorf("loop %s: %d chunks, want %d", name, len(gs), (n+k-1)/k)
	}
	want := float64(k) * 2e6
	last := map[int]grains.Grain{} // by location
	dyn := dynamicChunks{count: map[int]int{}, shortest: map[int]uint64{}}
	sort.Slice(gs, func(i, j int) bool { return gs[i].Begin < gs[j].Begin })
	for _, g := range gs {
		if g.Exec > g.End-g.Begin {
			t.Errorf("loop %s: chunk %d..%d ran %d ticks in %d", name, g.First, g.Last, g.Exec, g.End-g.Begin)
		}
		if exec := exp.Clock.Dur(g.Exec); exec < want*0.99 {
			short = append(short, fmt.Sprintf("loop %s: chunk %d..%d ran %.3f ms in %.3f ms, want at least %.0f ms", name, g.First, g.Last,
				exec/1e6, exp.Clock.Dur(g.End-g.Begin)/1e6, want/1e6))
		}
		prev, ok := last[g.Loc]
		if ok && g.Begin < prev.End {
			t.Errorf("loop %s: chunk %d..%d begins before the thread's previous chunk %d..%d ends", name, g.First, g.Last, prev.First, prev.Last)
		}
		if ok && name == "static3" && (g.Begin != prev.End || g.Sched != 0) {
			t.Errorf("loop %s: chunk %d..%d begins %d ticks after the thread's previous chunk, dispatch %d ticks; want 0 and 0",
				name, g.First, g.Last, int64(g.Begin-prev.End), g.Sched)
		}
		if name == "dynamic2" {
			dyn.check(t, name, g, prev)
		}
		last[g.Loc] = g
	}
	if name == "dynamic2" && dyn.estimated == 0 {
		t.Errorf("loop %s: no chunk's dispatch was estimated: 12 chunks at 2 threads give one thread at least 6", name)
	}
	return short
}

// dynamicChunks checks the chunks of a schedule(dynamic, k) loop, in
// order of their beginning. Read before the runtime's dispatch, the
// clock ends a chunk at its last iteration, and the next chunk's time
// begins with its dispatch, which the grain's execution leaves out,
// estimated by the shortest of the three dispatches timed on their own:
// the thread's second to fourth chunks begin after theirs.
type dynamicChunks struct {
	count     map[int]int    // chunks so far, by location
	shortest  map[int]uint64 // the shortest timed dispatch, by location
	estimated int            // chunks whose dispatch is estimated
}

func (d *dynamicChunks) check(t *testing.T, name string, g, prev grains.Grain) {
	t.Helper()
	n := d.count[g.Loc]
	d.count[g.Loc]++
	wantExec, wantBegin := g.End-g.Begin, prev.End
	timed := n >= 1 && n <= 3
	switch {
	case timed:
		wantBegin += g.Sched
		if n == 1 || g.Sched < d.shortest[g.Loc] {
			d.shortest[g.Loc] = g.Sched
		}
	case n > 3:
		wantExec -= min(g.Sched, wantExec)
		d.estimated++
	}
	if n > 0 && g.Begin != wantBegin || g.Exec != wantExec || timed && g.Sched == 0 || n > 3 && g.Sched != d.shortest[g.Loc] {
		t.Errorf("loop %s: the thread's chunk %d, %d..%d, runs %d of its %d ticks, dispatch %d, %d ticks after the previous chunk",
			name, n, g.First, g.Last, g.Exec, g.End-g.Begin, g.Sched, int64(g.Begin-prev.End))
	}
}

// TestWideChunks checks chunks beyond 32-bit iterations: widechunks.c's
// loops run 2^32 + 3 iterations from -5 in chunks of 2^31 at 1 thread, so
// exactly three chunks each. The boundary from 2147483647 to 2147483648
// fits one CHUNK_NEXT record, the one from 4294967295 to 4294967296 does
// not and takes CHUNK_END and CHUNK_BEGIN: both must give the same
// iterations and values, strip-mined (static, dynamic) or hooked.
func TestWideChunks(t *testing.T) {
	needTools(t)
	for _, c := range compilers {
		c := c
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			// 3 loops of 2147483650 odd values
			marks, byLine, _ := runChunks(t, c, "widechunks.c", []string{"OMP_NUM_THREADS=1"}, "6442450950\n")
			type chunk struct{ First, Last, FirstValue, LastValue int64 }
			want := []chunk{
				{0, 1<<31 - 1, -5, 1<<31 - 6},
				{1 << 31, 1<<32 - 1, 1<<31 - 5, 1<<32 - 6},
				{1 << 32, 1<<32 + 2, 1<<32 - 5, 1<<32 - 3},
			}
			if len(marks) != 3 {
				t.Fatalf("%d marked loops, want 3", len(marks))
			}
			for name, m := range marks {
				var gs []chunk
				for _, g := range byLine[m[0]] {
					gs = append(gs, chunk{g.First, g.Last, g.FirstValue, g.LastValue})
				}
				sort.Slice(gs, func(i, j int) bool { return gs[i].First < gs[j].First })
				if diff := cmp.Diff(want, gs); diff != "" {
					t.Errorf("loop %s (%d iterations): chunks (-want +got):\n%s", name, m[1], diff)
				}
			}
		})
	}
}
