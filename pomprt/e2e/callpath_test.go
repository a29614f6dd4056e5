package e2e

import (
	"debug/elf"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"gopari/internal/profile"
)

// Call paths (issue 25): programs built with gopari cc --functions, whose
// call-path profiles are checked against what the programs measure of
// themselves, or counts known by construction.

var (
	prefixOnce sync.Once
	prefixDir  string
	prefixErr  error
)

// runtimePrefix returns a GOPARI_PREFIX holding the libpomp.a and pomp.h
// under test, for gopari cc.
func runtimePrefix(t *testing.T) string {
	t.Helper()
	prefixOnce.Do(func() {
		dir := filepath.Join(libDir, "prefix")
		prefixDir, prefixErr = dir, makePrefix(dir)
	})
	if prefixErr != nil {
		t.Fatal(prefixErr)
	}
	return prefixDir
}

// buildCC builds testdata/name through gopari cc with c and the gopari
// flags given (--functions, --filter FILE), and returns the executable.
func buildCC(t *testing.T, c compiler, name string, flags ...string) string {
	t.Helper()
	needTools(t)
	src, _ := filepath.Abs(filepath.Join("testdata", name))
	exe := filepath.Join(t.TempDir(), strings.TrimSuffix(name, filepath.Ext(name)))
	cc := c.cc
	if filepath.Ext(name) == ".cpp" {
		cc = c.cxx
	}
	argv := append([]string{"cc"}, flags...)
	argv = append(append(append(argv, cc), c.openmp...), "-O2", "-g", src, "-o", exe)
	cmd := exec.Command(gopariCommand(t), argv...)
	cmd.Env = append(os.Environ(), "GOPARI_PREFIX="+runtimePrefix(t))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gopari %s: %v\n%s", strings.Join(argv, " "), err, out)
	}
	return exe
}

// cpView is a call-path profile with its functions named.
type cpView struct {
	p     *profile.Profile
	cp    *profile.CallPaths
	names []string // by node: a function's name, "region N frame phase", "root", "overflow"
	kids  [][]int
}

func newCPView(t *testing.T, p *profile.Profile, exe string) *cpView {
	t.Helper()
	cp := p.CallPaths
	if cp == nil {
		t.Fatalf("no call paths in the profile")
	}
	v := &cpView{p: p, cp: cp, names: make([]string, len(cp.Nodes)), kids: make([][]int, len(cp.Nodes))}
	syms := exeSymbols(t, exe)
	for i, n := range cp.Nodes {
		if n.Parent >= 0 {
			v.kids[n.Parent] = append(v.kids[n.Parent], i)
		}
		switch n.Kind {
		case "function":
			v.names[i] = resolve(p.Mappings, exe, syms, n.Addr)
		case "region":
			v.names[i] = fmt.Sprintf("region %d %s %s", n.Region, n.Frame, n.Phase)
		default:
			v.names[i] = n.Kind
		}
	}
	return v
}

// exeSymbols maps the file offsets of exe's functions to their names.
func exeSymbols(t *testing.T, exe string) map[uint64]string {
	t.Helper()
	f, err := elf.Open(exe)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	syms, err := f.Symbols()
	if err != nil {
		t.Fatal(err)
	}
	out := map[uint64]string{}
	for _, s := range syms {
		if elf.ST_TYPE(s.Info) != elf.STT_FUNC || s.Value == 0 {
			continue
		}
		for _, p := range f.Progs {
			if p.Type == elf.PT_LOAD && s.Value >= p.Vaddr && s.Value < p.Vaddr+p.Filesz {
				out[s.Value-p.Vaddr+p.Off] = s.Name
			}
		}
	}
	return out
}

// resolve names address a of the run through its mappings.
func resolve(maps []profile.Mapping, exe string, syms map[uint64]string, a uint64) string {
	for _, m := range maps {
		if a >= m.Start && a < m.Limit && m.File == exe {
			if name, ok := syms[a-m.Start+m.Offset]; ok {
				return name
			}
		}
	}
	return fmt.Sprintf("%#x", a)
}

// path returns the names from the root's child down to node i.
func (v *cpView) path(i int) []string {
	var out []string
	for ; i > 0; i = v.cp.Nodes[i].Parent {
		out = append([]string{v.names[i]}, out...)
	}
	return out
}

// nodes returns the nodes named name.
func (v *cpView) nodes(name string) []int {
	var out []int
	for i, n := range v.names {
		if n == name {
			out = append(out, i)
		}
	}
	return out
}

// counts returns, per location, each node's visits and exclusive ns.
func (v *cpView) counts() map[int]map[int][2]uint64 {
	out := map[int]map[int][2]uint64{}
	for _, th := range v.cp.Threads {
		m := map[int][2]uint64{}
		for _, e := range th.Nodes {
			m[int(e[0])] = [2]uint64{e[1], e[2]}
		}
		out[th.Thread] = m
	}
	return out
}

// visits returns node i's visits over all locations.
func (v *cpView) visits(i int) uint64 {
	var n uint64
	for _, m := range v.counts() {
		n += m[i][0]
	}
	return n
}

// incl returns node i's inclusive ns over all locations: the exclusive
// times of its subtree.
func (v *cpView) incl(i int) uint64 {
	var n uint64
	for _, m := range v.counts() {
		n += v.inclAt(m, i)
	}
	return n
}

func (v *cpView) inclAt(m map[int][2]uint64, i int) uint64 {
	n := m[i][1]
	for _, k := range v.kids[i] {
		n += v.inclAt(m, k)
	}
	return n
}

// checkCallPaths checks what holds for every call-path profile: nodes
// before their children, counters of existing nodes, nothing unmatched,
// and no location's tree longer than the run.
func checkCallPaths(t *testing.T, v *cpView) {
	t.Helper()
	for i, n := range v.cp.Nodes {
		if i > 0 && (n.Parent < 0 || n.Parent >= i) {
			t.Errorf("node %d has parent %d", i, n.Parent)
		}
	}
	if v.cp.UnmatchedCalls != 0 || v.cp.LostCreations != 0 {
		t.Errorf("%d unmatched calls, %d lost creations", v.cp.UnmatchedCalls, v.cp.LostCreations)
	}
	// The run measured what a call costs at its end (callcost.c), unless
	// the tree was full (or in trace mode, where the calls write records).
	if v.p.Mode == "profile" && v.p.Exit == "exit" && v.cp.OverflowVisits == 0 && v.cp.CallCostNs <= 0 {
		t.Errorf("call_cost_ns %v: the run did not measure a call", v.cp.CallCostNs)
	}
	for li, m := range v.counts() {
		for id := range m {
			if id >= len(v.cp.Nodes) {
				t.Errorf("location %d counts node %d of %d", li, id, len(v.cp.Nodes))
			}
		}
		if in := v.inclAt(m, 0); in > v.p.WallNs {
			t.Errorf("location %d: the root's inclusive time %d ns exceeds the wall time %d ns", li, in, v.p.WallNs)
		}
	}
}

// printed reads "word value" pairs that a program printed.
func printed(t *testing.T, out string) map[string]uint64 {
	t.Helper()
	f := strings.Fields(out)
	m := map[string]uint64{}
	for i := 0; i+1 < len(f); i += 2 {
		n, err := strconv.ParseUint(strings.TrimSuffix(f[i+1], ","), 10, 64)
		if err == nil {
			m[f[i]] = n
		}
	}
	return m
}

// TestCallPathChain: top -> mid -> leaf, whose inclusive times the
// program measures itself; the visits are known.
func TestCallPathChain(t *testing.T) {
	needTools(t)
	for _, c := range compilers {
		c := c
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			exe := buildCC(t, c, "cpdeep.c", "--functions")
			checkChain(t, exe, cChain)
		})
	}
}

// checkChain runs a cpdeep program at 1 and 2 threads through chainRun.
// The program's clock cannot see a preemption between a hook's clock
// read and its own (a time slice is some 4 ms on a loaded machine): a
// time off by more than 5% is a failure only if it is so in three runs.
func checkChain(t *testing.T, exe string, ch chain) {
	t.Helper()
	for _, threads := range []string{"1", "2"} {
		var slow []string
		for try := 0; try < 3; try++ {
			if slow = chainRun(t, exe, threads, ch); len(slow) == 0 {
				break
			}
		}
		for _, s := range slow {
			t.Error(s)
		}
	}
}

// A chain names the functions of cpdeep.c or its Fortran twin in a
// call path: the path to top's caller, and each function's symbol.
type chain struct {
	root []string
	sym  func(fn string) string
}

var cChain = chain{root: []string{"main"}, sym: func(fn string) string { return fn }}

// chainRun runs cpdeep at threads and checks its call paths: visits and
// paths (errors), and inclusive times within 5% of what the program
// measured (returned, for the caller to judge).
func chainRun(t *testing.T, exe, threads string, ch chain) (slow []string) {
	t.Helper()
	r := run(t, exe, []string{"OMP_NUM_THREADS=" + threads})
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	v := newCPView(t, readProfile(t, r), exe)
	checkCallPaths(t, v)
	got := printed(t, r.stdout)
	want := map[string][]string{}
	path := ch.root
	for _, fn := range []string{"top", "mid", "leaf"} {
		path = append(path[:len(path):len(path)], ch.sym(fn))
		want[fn] = path
	}
	visits := map[string]uint64{"top": 4, "mid": 4, "leaf": 8}
	for fn, path := range want {
		var node = -1
		for _, i := range v.nodes(ch.sym(fn)) {
			if strings.Join(v.path(i), "/") == strings.Join(path, "/") {
				node = i
			}
		}
		if node < 0 {
			t.Errorf("%s threads: no node %s", threads, strings.Join(path, "/"))
			continue
		}
		if n := v.visits(node); n != visits[fn] {
			t.Errorf("%s threads: %s visited %d times, want %d", threads, fn, n, visits[fn])
		}
		in, self := float64(v.incl(node)), float64(got[fn])
		if self == 0 || in < 0.95*self || in > 1.05*self {
			slow = append(slow, fmt.Sprintf("%s threads: %s inclusive %.0f ns, the program measured %.0f ns", threads, fn, in, self))
		}
	}
	// The for loop's spins hang below each implicit task's for.
	n := 0
	for _, i := range v.nodes(ch.sym("spin")) {
		p := v.path(i)
		if k := len(ch.root); len(p) >= k+4 && slices.Equal(p[:k], ch.root) && strings.HasSuffix(p[k], "fork ") &&
			strings.HasSuffix(p[k+1], "implicit ") && strings.HasSuffix(p[len(p)-2], "phase construct") {
			n += int(v.visits(i))
		}
	}
	if n != 8 {
		t.Errorf("%s threads: %d spins below main/fork/implicit/for, want 8", threads, n)
	}
	return slow
}

// TestCallPathTasks: tasks created in producer() and run by any thread
// hang below producer's path, with their calls.
func TestCallPathTasks(t *testing.T) {
	needTools(t)
	for _, c := range compilers {
		c := c
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			exe := buildCC(t, c, "cptasks.c", "--functions")
			for _, threads := range []string{"1", "2"} {
				moved := 0
				for try := 0; try < 3 && (moved == 0 || try == 0); try++ {
					r := run(t, exe, []string{"OMP_NUM_THREADS=" + threads})
					v := newCPView(t, readProfile(t, r), exe)
					checkCallPaths(t, v)
					var works uint64
					for _, i := range v.nodes("work") {
						p := strings.Join(v.path(i), "/")
						if !strings.Contains(p, "producer/region ") || !strings.Contains(p, " task /") {
							t.Errorf("%s threads: work at %s, not below producer's task", threads, p)
						}
						works += v.visits(i)
					}
					if works != 24 {
						t.Errorf("%s threads: work visited %d times, want 24", threads, works)
					}
					// A task run at another location than producer's.
					prod := v.nodes("producer")
					for li, m := range v.counts() {
						for _, i := range v.nodes("work") {
							if m[i][0] > 0 && len(prod) > 0 && m[prod[0]][0] == 0 {
								moved += int(m[i][0])
							}
						}
						_ = li
					}
				}
				if threads == "2" && moved == 0 {
					t.Errorf("2 threads: no task ran away from its creator in 3 runs")
				}
			}
		})
	}
}

// TestCallPathLateTask: a task that begins after its creator created
// more tasks than the runtime's ring of creations holds (cplate.c: A
// waits on B, whose work creates 6,000 tasks) still hangs below the path
// that created it, as every task does: late() below producer's task
// construct, and no creation lost; at 1 thread, where all of them are
// the one creator's, and at 2.
func TestCallPathLateTask(t *testing.T) {
	needTools(t)
	for _, c := range compilers {
		c := c
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			exe := buildCC(t, c, "cplate.c", "--functions")
			for _, threads := range []string{"1", "2"} {
				r := run(t, exe, []string{"OMP_NUM_THREADS=" + threads})
				v := newCPView(t, readProfile(t, r), exe)
				checkCallPaths(t, v)
				lates := v.nodes("late")
				if len(lates) != 1 || v.visits(lates[0]) != 1 {
					t.Fatalf("%s threads: late at %d nodes, want 1 visited once", threads, len(lates))
				}
				p := v.path(lates[0])
				if k := len(p); k < 4 || p[k-3] != "producer" || !strings.HasSuffix(p[k-2], " task ") || !strings.Contains(strings.Join(p, "/"), "main/") {
					t.Errorf("%s threads: late at %s, not right below producer's task construct", threads, strings.Join(p, "/"))
				}
				var subs uint64
				for _, i := range v.nodes("sub") {
					subs += v.visits(i)
				}
				if subs != 6000 {
					t.Errorf("%s threads: sub visited %d times, want 6000", threads, subs)
				}
			}
		})
	}
}

// TestCallPathFib: recursion with tasks; every call of fib is counted
// once, below its creating path, and no location's tree exceeds the run.
func TestCallPathFib(t *testing.T) {
	needTools(t)
	for _, c := range compilers {
		c := c
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			exe := buildCC(t, c, "cpfib.c", "--functions")
			for _, threads := range []string{"1", "2"} {
				r := run(t, exe, []string{"OMP_NUM_THREADS=" + threads})
				v := newCPView(t, readProfile(t, r), exe)
				checkCallPaths(t, v)
				var inPar, outside uint64
				for _, i := range v.nodes("fib") {
					p := v.path(i)
					if len(p) > 1 && strings.HasSuffix(p[1], "fork ") {
						inPar += v.visits(i)
					} else {
						outside += v.visits(i)
					}
				}
				// fib(14) in the parallel region, fib(15) after it.
				if inPar != 1219 || outside != 1973 {
					t.Errorf("%s threads: fib visited %d times in the parallel region (want 1219), %d after (want 1973)", threads, inPar, outside)
				}
			}
		})
	}
}

// TestCallPathFilter: a function that a filter excludes has no node; its
// callees hang below its caller. GOPARI_FILTER at run time, and the
// filter gopari cc --filter builds in.
func TestCallPathFilter(t *testing.T) {
	needTools(t)
	flt := filepath.Join(t.TempDir(), "mid.filt")
	if err := os.WriteFile(flt, []byte("SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE mid\nSCOREP_REGION_NAMES_END\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range compilers {
		c := c
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			plain := buildCC(t, c, "cpdeep.c", "--functions")
			built := buildCC(t, c, "cpdeep.c", "--functions", "--filter", flt)
			for _, k := range []struct {
				exe string
				env []string
			}{{plain, []string{"GOPARI_FILTER=" + flt}}, {built, nil}} {
				r := run(t, k.exe, append(k.env, "OMP_NUM_THREADS=1"))
				v := newCPView(t, readProfile(t, r), k.exe)
				checkCallPaths(t, v)
				if n := v.nodes("mid"); len(n) != 0 {
					t.Errorf("%v: mid has nodes %v", k.env, n)
				}
				var leaves uint64
				for _, i := range v.nodes("leaf") {
					if p := strings.Join(v.path(i), "/"); p != "main/top/leaf" {
						t.Errorf("%v: leaf at %s, want main/top/leaf", k.env, p)
					}
					leaves += v.visits(i)
				}
				if leaves != 8 {
					t.Errorf("%v: leaf visited %d times, want 8", k.env, leaves)
				}
			}
		})
	}
}

// TestCallPathOverflow: a node limit smaller than the program's paths
// sends the rest to the overflow node, counted, and the profile stays
// valid.
func TestCallPathOverflow(t *testing.T) {
	needTools(t)
	c := compilers[0]
	exe := buildCC(t, c, "cpfib.c", "--functions")
	r := run(t, exe, []string{"OMP_NUM_THREADS=2", "GOPARI_CALLPATH_NODES=50"})
	v := newCPView(t, readProfile(t, r), exe)
	checkCallPaths(t, v)
	if len(v.cp.Nodes) > 51 || v.cp.MaxNodes != 50 {
		t.Errorf("%d nodes, limit %d; want at most 50 and the overflow node", len(v.cp.Nodes), v.cp.MaxNodes)
	}
	if v.cp.OverflowVisits == 0 || v.cp.OverflowVisits != v.visits(1) {
		t.Errorf("overflow visits %d, overflow node visited %d times", v.cp.OverflowVisits, v.visits(1))
	}
	var fibs uint64
	for _, i := range v.nodes("fib") {
		fibs += v.visits(i)
	}
	if fibs+v.cp.OverflowVisits < 3192 {
		t.Errorf("fib visits %d + overflow %d < 3192 calls", fibs, v.cp.OverflowVisits)
	}
}

// TestCallPathRegionsUnchanged: --functions leaves the region profile
// as it was: the same visits, and a for loop whose body calls functions
// keeps its exclusive time (the calls' time is path time, not taken
// from the region).
func TestCallPathRegionsUnchanged(t *testing.T) {
	needTools(t)
	for _, c := range compilers {
		c := c
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			with := buildCC(t, c, "cpdeep.c", "--functions")
			without := buildCC(t, c, "cpdeep.c")
			env := []string{"OMP_NUM_THREADS=2"}
			pw, po := readProfile(t, run(t, with, env)), readProfile(t, run(t, without, env))
			if po.CallPaths != nil {
				t.Errorf("call paths without --functions")
			}
			type key struct{ region, thread int }
			visits := func(p *profile.Profile) map[key][4]uint64 {
				m := map[key][4]uint64{}
				for _, s := range p.Stats {
					var v [4]uint64
					for i, ph := range []*profile.Phase{s.Construct, s.Body, s.Barrier, s.Wait} {
						if ph != nil {
							v[i] = ph.Visits
						}
					}
					m[key{s.Region, s.Thread}] = v
				}
				return m
			}
			vw, vo := visits(pw), visits(po)
			if fmt.Sprint(vw) != fmt.Sprint(vo) {
				t.Errorf("region visits differ: with --functions %v, without %v", vw, vo)
			}
			for _, s := range pw.Stats {
				r := pw.Regions[s.Region-1]
				if r.Kind != "for" || s.Construct == nil {
					continue
				}
				if s.Construct.ExclNs*2 < s.Construct.InclNs {
					t.Errorf("for at thread %d: exclusive %d ns of inclusive %d ns: its calls took its time", s.Thread, s.Construct.ExclNs, s.Construct.InclNs)
				}
			}
		})
	}
}

// TestCallPathPrograms: programs with taskloops (C and C++), nested
// teams, untied tasks that libomp moves, and C++ templates run with
// --functions as without, and their call paths lose nothing: every task
// found the path that created it, every exit its entry.
func TestCallPathPrograms(t *testing.T) {
	needTools(t)
	for _, c := range compilers {
		for _, name := range []string{"taskloop.c", "taskloop.cpp", "nested.c", "untied.c", "templates.cpp"} {
			c, name := c, name
			t.Run(c.name+"/"+name, func(t *testing.T) {
				t.Parallel()
				flags := []string{"--functions"}
				if name == "untied.c" {
					flags = append(flags, "--untied=keep")
				}
				with := buildCC(t, c, name, flags...)
				without := buildCC(t, c, name, flags[1:]...)
				for _, threads := range []string{"2", "4"} {
					env := []string{"OMP_NUM_THREADS=" + threads}
					want, got := run(t, without, env), run(t, with, env)
					if got.stdout != want.stdout || got.code != want.code {
						t.Errorf("%s threads: with --functions printed %q (exit %d), without %q (exit %d)", threads, got.stdout, got.code, want.stdout, want.code)
					}
					p := readProfile(t, got)
					if p.UnmatchedEvents != 0 {
						t.Errorf("%s threads: %d unmatched events", threads, p.UnmatchedEvents)
					}
					checkCallPaths(t, newCPView(t, p, with))
				}
			})
		}
	}
}

// TestCallPathFilterErrors: a GOPARI_FILTER that cannot be read or
// parsed is said once on stderr, and every function is measured.
func TestCallPathFilterErrors(t *testing.T) {
	needTools(t)
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.filt")
	if err := os.WriteFile(bad, []byte("SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE mid\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.filt")
	exe := buildCC(t, compilers[0], "cpdeep.c", "--functions")
	for file, want := range map[string]string{
		bad:     "gopari: GOPARI_FILTER: " + bad + ":1:1: SCOREP_REGION_NAMES_BEGIN without SCOREP_REGION_NAMES_END; no filter is applied\n",
		missing: "gopari: GOPARI_FILTER: open " + missing + ": no such file or directory; no filter is applied\n",
	} {
		r := run(t, exe, []string{"OMP_NUM_THREADS=1", "GOPARI_FILTER=" + file})
		if got := strings.TrimSuffix(r.stderr, "threads 1\n"); got != want {
			t.Errorf("stderr %q, want %q", got, want)
		}
		if v := newCPView(t, readProfile(t, r), exe); len(v.nodes("mid")) == 0 {
			t.Errorf("%s: mid not measured", file)
		}
	}
}
