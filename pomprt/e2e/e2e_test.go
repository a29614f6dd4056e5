// Package e2e tests gopari end to end: it instruments the C and C++
// programs in testdata, builds them with gcc (and clang with libomp, where
// installed) against libpomp.a, runs them at several thread counts,
// compares their output with uninstrumented builds and checks the
// profiles they write.
package e2e

import (
	"bytes"
	"context"
	"encoding/binary"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"gopari/internal/profile"
	"gopari/parser"
	"gopari/rewrite"
)

var (
	libDir   string // holds libpomp.a
	incDir   string // holds pomp.h
	toolsErr error
)

// A compiler is a C and C++ compiler pair with OpenMP flags.
type compiler struct {
	name     string
	cc, cxx  string
	openmp   []string
	linkLibs []string
}

var compilers []compiler

func TestMain(m *testing.M) {
	flag.Parse()
	tmp, err := os.MkdirTemp("", "gopari-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	libDir = tmp
	incDir, _ = filepath.Abs("../include")
	build := exec.Command("go", "build", "-trimpath", "-buildmode=c-archive", "-o", filepath.Join(tmp, "libpomp.a"), ".")
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		toolsErr = fmt.Errorf("building libpomp.a: %v\n%s", err, out)
	}
	compilers = findCompilers(tmp)
	code := m.Run()
	os.RemoveAll(tmp)
	os.Exit(code)
}

// noClang says why the tests run without clang, or is empty.
var noClang = "clang (clang-14 and libomp-14-dev) not installed"

// TestCompilers reports, as a skip that make test lists, when the
// end-to-end tests cannot use clang.
func TestCompilers(t *testing.T) {
	if noClang != "" {
		t.Skip("clang tests: " + noClang)
	}
}

// findCompilers returns gcc, and clang where it can build and run an
// OpenMP program.
func findCompilers(tmp string) []compiler {
	var out []compiler
	if _, err := exec.LookPath("gcc"); err == nil {
		out = append(out, compiler{name: "gcc", cc: "gcc", cxx: "g++", openmp: []string{"-fopenmp"}, linkLibs: []string{"-lpthread"}})
	}
	for _, v := range []string{"clang", "clang-14", "clang-15", "clang-16"} {
		if _, err := exec.LookPath(v); err != nil {
			continue
		}
		cxx := strings.Replace(v, "clang", "clang++", 1)
		c := compiler{name: v, cc: v, cxx: cxx, openmp: []string{"-fopenmp=libomp"}, linkLibs: []string{"-lpthread"}}
		src := filepath.Join(tmp, "probe.c")
		os.WriteFile(src, []byte("#include <omp.h>\nint main(void){int n=0;\n#pragma omp parallel\n{\n#pragma omp atomic\nn++;}\nreturn n>0?0:1;}\n"), 0o644)
		exe := filepath.Join(tmp, "probe-"+v)
		if err := exec.Command(v, append(c.openmp, src, "-o", exe)...).Run(); err != nil {
			noClang = v + " cannot build an OpenMP program (libomp-14-dev missing?)"
			continue
		}
		if err := exec.Command(exe).Run(); err != nil {
			noClang = v + " builds OpenMP programs that do not run"
			continue
		}
		out = append(out, c)
		noClang = ""
		break
	}
	return out
}

func needTools(t *testing.T) {
	t.Helper()
	if toolsErr != nil {
		t.Fatal(toolsErr)
	}
	if len(compilers) == 0 {
		t.Skip("no C compiler")
	}
}

// program is a test program, built uninstrumented and instrumented.
type program struct {
	name       string
	orig, inst string // executables
}

// build compiles testdata/name with c, uninstrumented and instrumented.
func build(t *testing.T, c compiler, name string) program {
	t.Helper()
	return buildOpts(t, c, name, rewrite.Options{})
}

// buildOpts is build with instrumentation options.
func buildOpts(t *testing.T, c compiler, name string, opts rewrite.Options) program {
	t.Helper()
	return buildAs(t, c, name, name, opts)
}

// buildAs builds testdata/name as if it were called as, whose suffix
// chooses the language: a C file that is also C++ is tested as both.
func buildAs(t *testing.T, c compiler, name, as string, opts rewrite.Options) program {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cpp := filepath.Ext(as) == ".cpp"
	cc := c.cc
	if cpp {
		cc = c.cxx
	}
	res, diags := rewrite.Source(as, src, parser.Config{CPlusPlus: cpp}, opts)
	if res == nil {
		t.Fatalf("instrumenting %s: %v", as, diags)
	}
	base := strings.TrimSuffix(as, filepath.Ext(as))
	origSrc := filepath.Join("testdata", name)
	if as != name {
		origSrc = filepath.Join(dir, as)
		if err := os.WriteFile(origSrc, src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	instSrc := filepath.Join(dir, base+".pomp"+filepath.Ext(as))
	if err := os.WriteFile(instSrc, res.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	p := program{name: as, orig: filepath.Join(dir, base+".orig"), inst: filepath.Join(dir, base+".inst")}
	compile := func(args ...string) {
		cmd := exec.Command(cc, args...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s %s: %v\n%s", cc, strings.Join(args, " "), err, out)
		}
	}
	opt := append([]string{"-O2", "-g"}, c.openmp...)
	compile(append(opt, origSrc, "-o", p.orig)...)
	compile(append(append(opt, "-I", incDir, instSrc, "-o", p.inst, filepath.Join(libDir, "libpomp.a")), c.linkLibs...)...)
	return p
}

// runTimeout bounds every run of a test program.
const runTimeout = 60 * time.Second

// result is what a run produced.
type result struct {
	stdout, stderr string
	code           int
	dir            string // experiment directory
}

// run runs exe with env and waits for it.
func run(t *testing.T, exe string, env []string, args ...string) result {
	t.Helper()
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Dir = dir
	exp := filepath.Join(dir, "exp")
	cmd.Env = append(append(os.Environ(), "GOPARI_EXPERIMENT_DIRECTORY="+exp), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	var hang string
	cmd.Cancel = reportThenKill(cmd, &hang, false)
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("%s %v did not finish in %v; its threads then:\n%s", exe, env, runTimeout, hang)
	}
	code := 0
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("%s: %v", exe, err)
		}
		code = ee.ExitCode()
	}
	return result{stdout: out.String(), stderr: errb.String(), code: code, dir: exp}
}

func readProfile(t *testing.T, r result) *profile.Profile {
	t.Helper()
	p, err := profile.Read(filepath.Join(r.dir, "profile.json"))
	if err != nil {
		t.Fatalf("%v\nstderr:\n%s", err, r.stderr)
	}
	return p
}

// testPrograms are the programs of TestPrograms.
var testPrograms = []string{"tasks.c", "worksharing.c", "locks.c", "nested.c", "threadprivate.c", "templates.cpp", "fib.c", "visits.c"}

// TestPrograms runs every program at 1, 2 and 4 threads, instrumented and
// not, and compares what they print.
func TestPrograms(t *testing.T) {
	needTools(t)
	for _, c := range compilers {
		for _, name := range testPrograms {
			c, name := c, name
			t.Run(c.name+"/"+name, func(t *testing.T) {
				t.Parallel()
				p := build(t, c, name)
				for _, threads := range []string{"1", "2", "4"} {
					compareRun(t, p, []string{"OMP_NUM_THREADS=" + threads})
				}
			})
		}
	}
}

// compareRun runs p uninstrumented and instrumented with env, checks that
// both print the same and exit alike, and that the profile is whole: no
// unmatched events, and its invariants hold. It returns the profile and
// the uninstrumented run.
func compareRun(t *testing.T, p program, env []string) (*profile.Profile, result) {
	t.Helper()
	want := run(t, p.orig, env)
	got := run(t, p.inst, env)
	if got.stdout != want.stdout || got.code != want.code {
		t.Errorf("%v: instrumented printed %q (exit %d), original %q (exit %d)\nstderr: %s",
			env, got.stdout, got.code, want.stdout, want.code, got.stderr)
	}
	prof := readProfile(t, got)
	if prof.UnmatchedEvents != 0 {
		t.Errorf("%v: %d unmatched events", env, prof.UnmatchedEvents)
	}
	checkInvariants(t, prof)
	return prof, want
}

// checkInvariants checks what holds for every profile.
func checkInvariants(t *testing.T, p *profile.Profile) {
	t.Helper()
	for _, s := range p.Stats {
		if p.Region(s.Region) == nil {
			t.Errorf("stats for unknown region %d", s.Region)
		}
		if s.Thread < 0 || s.Thread >= len(p.Threads) {
			t.Errorf("stats for unknown thread %d", s.Thread)
		}
		for _, ph := range []*profile.Phase{s.Construct, s.Body, s.Barrier, s.Wait} {
			if ph != nil && ph.ExclNs > ph.InclNs {
				t.Errorf("region %d thread %d: exclusive %d > inclusive %d ns", s.Region, s.Thread, ph.ExclNs, ph.InclNs)
			}
		}
	}
	checkExclusiveSums(t, p)
	for _, task := range p.Tasks {
		if task.Executed != task.Created {
			t.Errorf("task region %d: %d created, %d executed", task.Region, task.Created, task.Executed)
		}
		if task.Exec.Timed > 0 && task.Exec.MinNs > task.Exec.MaxNs {
			t.Errorf("task region %d: min %d > max %d", task.Region, task.Exec.MinNs, task.Exec.MaxNs)
		}
	}
}

// checkExclusiveSums checks that the exclusive times at a place in the
// team tree, with an initial thread's own time, add up to the place's
// time: the run's wall time for the initial thread 0, its implicit tasks'
// time (from their begin to the join) for a team member; less, for
// either, the time it spent as the master of the teams it forked, which
// is its child place N.0's. A place where some time is an estimate
// (sampled or untimed visits) is left out, and so is a run with
// unmatched events (time that is not attributed), or one that did not end
// by exit() or a return from main in its own process (a forked child, a
// signal: regions may still be open).
func checkExclusiveSums(t *testing.T, p *profile.Profile) {
	t.Helper()
	if p.UnmatchedEvents > 0 || p.ForkedFrom != 0 || p.Exit != "exit" {
		return
	}
	own := map[int]float64{}
	span := map[int]float64{}
	exact := map[int]bool{}
	for _, th := range p.Threads {
		own[th.Index] = float64(th.InitialNs)
		exact[th.Index] = true
	}
	for _, s := range p.Stats {
		for _, ph := range []*profile.Phase{s.Construct, s.Body, s.Barrier, s.Wait} {
			if ph != nil {
				own[s.Thread] += float64(ph.ExclNs)
				exact[s.Thread] = exact[s.Thread] && ph.Timed == ph.Visits
			}
		}
		if r := p.Region(s.Region); r != nil && r.Kind == "parallel" && s.Body != nil {
			span[s.Thread] += float64(s.Body.InclNs)
			if s.Barrier != nil {
				span[s.Thread] += float64(s.Barrier.InclNs)
			}
		}
	}
	byPath := map[string]profile.Thread{}
	for _, th := range p.Threads {
		byPath[th.Path] = th
	}
	for _, th := range p.Threads {
		want := span[th.Index]
		tol := 200e3 + 0.005*want
		if th.Level == 0 {
			if th.Path != "0" {
				continue // another initial thread: its time is not in the profile
			}
			want, tol = float64(p.WallNs), 200e3+0.005*float64(p.WallNs)
		}
		if m, ok := byPath[th.Path+".0"]; ok {
			want -= span[m.Index]
		}
		if !exact[th.Index] {
			continue
		}
		if got := own[th.Index]; math.Abs(got-want) > tol {
			t.Errorf("thread %s: exclusive times add up to %.3f ms, its time is %.3f ms", th.Path, got/1e6, want/1e6)
		}
	}
}

func regionsOfKind(p *profile.Profile, kind string) []profile.Region {
	var out []profile.Region
	for _, r := range p.Regions {
		if r.Kind == kind {
			out = append(out, r)
		}
	}
	return out
}

// TestFibCounts checks task instances, the creation tree and its depth
// against a model of fib(n): every non-leaf call creates two tasks.
func TestFibCounts(t *testing.T) {
	needTools(t)
	for _, c := range compilers {
		c := c
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := build(t, c, "fib.c")
			for _, threads := range []string{"1", "3"} {
				prof := readProfile(t, run(t, p.inst, []string{"OMP_NUM_THREADS=" + threads}, "22"))
				checkFibTree(t, threads, prof, 22, 57312)
			}
		})
	}
}

// TestVisits checks visit counts per region and thread on a program of
// known structure.
func TestVisits(t *testing.T) {
	needTools(t)
	p := build(t, compilers[0], "visits.c")
	prof := readProfile(t, run(t, p.inst, nil))
	byKind := map[string]int{}
	for _, r := range prof.Regions {
		byKind[r.Kind] = r.ID
	}
	paths := map[int]string{}
	for _, th := range prof.Threads {
		paths[th.Index] = th.Path
	}
	team := map[string]bool{"0.0": true, "0.1": true, "0.2": true, "0.3": true}
	visits := map[string]map[string]uint64{} // kind -> path -> construct visits
	bodies := map[string]uint64{}
	for _, s := range prof.Stats {
		r := prof.Region(s.Region)
		if visits[r.Kind] == nil {
			visits[r.Kind] = map[string]uint64{}
		}
		if s.Construct != nil {
			visits[r.Kind][paths[s.Thread]] += s.Construct.Visits
		}
		if s.Body != nil {
			bodies[r.Kind] += s.Body.Visits
		}
	}
	for _, kind := range []string{"for", "barrier", "single", "critical"} {
		for path := range team {
			if got := visits[kind][path]; got != 3 {
				t.Errorf("%s visits on thread %s: %d, want 3", kind, path, got)
			}
		}
	}
	if got := visits["parallel"]["0"]; got != 3 {
		t.Errorf("parallel fork/join visits on thread 0: %d, want 3", got)
	}
	if bodies["parallel"] != 12 {
		t.Errorf("implicit tasks: %d, want 12", bodies["parallel"])
	}
	if bodies["single"] != 3 {
		t.Errorf("single bodies executed: %d, want 3", bodies["single"])
	}
	if bodies["critical"] != 12 {
		t.Errorf("critical bodies executed: %d, want 12", bodies["critical"])
	}
	if len(prof.Threads) != 5 {
		t.Errorf("threads %v, want 0 and 0.0 to 0.3", prof.Threads)
	}
}

// TestNestedIdentity checks the thread identities of 2 x 2 nested
// parallelism: 1 initial thread, 2 outer and 4 inner ones.
func TestNestedIdentity(t *testing.T) {
	needTools(t)
	for _, c := range compilers {
		c := c
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := build(t, c, "nested.c")
			prof := readProfile(t, run(t, p.inst, nil))
			var paths []string
			levels := map[string]int{}
			os := map[string]int{}
			for _, th := range prof.Threads {
				paths = append(paths, th.Path)
				levels[th.Path] = th.Level
				os[th.Path] = th.OSThread
			}
			sort.Strings(paths)
			want := []string{"0", "0.0", "0.0.0", "0.0.1", "0.1", "0.1.0", "0.1.1"}
			if strings.Join(paths, " ") != strings.Join(want, " ") {
				t.Fatalf("paths %v, want %v", paths, want)
			}
			for _, path := range want {
				if l := strings.Count(path, "."); levels[path] != l {
					t.Errorf("%s: level %d, want %d", path, levels[path], l)
				}
			}
			// Thread 0 of a team is the thread that forked it.
			for _, pair := range [][2]string{{"0", "0.0"}, {"0.0", "0.0.0"}, {"0.1", "0.1.0"}} {
				if os[pair[0]] != os[pair[1]] {
					t.Errorf("%s and %s ran on OS threads %d and %d, want the same", pair[0], pair[1], os[pair[0]], os[pair[1]])
				}
			}
			if prof.OSThreads < 3 {
				t.Errorf("%d OS threads, want at least 3", prof.OSThreads)
			}
		})
	}
}

// TestIDsUnique records 10 million task IDs in ids mode and looks for a
// duplicate.
func TestIDsUnique(t *testing.T) {
	needTools(t)
	if testing.Short() {
		t.Skip("short")
	}
	p := build(t, compilers[0], "tiny.c")
	r := run(t, p.inst, []string{"OMP_NUM_THREADS=2", "GOPARI_MODE=ids", "GOPARI_RECORD_IDS=1"}, "5000000")
	if r.code != 0 || strings.TrimSpace(r.stdout) != "2" {
		t.Fatalf("exit %d, stdout %q, stderr %s", r.code, r.stdout, r.stderr)
	}
	b, err := os.ReadFile(filepath.Join(r.dir, "ids.bin"))
	if err != nil {
		t.Fatal(err)
	}
	// ids.bin holds (task ID, parent ID) pairs.
	ids := make([]uint64, len(b)/16)
	for i := range ids {
		ids[i] = binary.LittleEndian.Uint64(b[16*i:])
	}
	if len(ids) < 10_000_000 {
		t.Fatalf("%d IDs recorded, want at least 10000000", len(ids))
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	threads := map[uint64]bool{}
	for i, id := range ids {
		if i > 0 && id == ids[i-1] {
			t.Fatalf("task ID %#x appears twice", id)
		}
		threads[id>>32] = true
	}
	if len(threads) < 2 {
		t.Errorf("IDs from %d threads, want 2", len(threads))
	}
}

// TestUninstrumentedLinked links an uninstrumented program with
// libpomp.a, even with --whole-archive: it runs unchanged and leaves no
// profile behind.
func TestUninstrumentedLinked(t *testing.T) {
	needTools(t)
	c := compilers[0]
	dir := t.TempDir()
	src := filepath.Join("testdata", "visits.c")
	lib := filepath.Join(libDir, "libpomp.a")
	plain, whole := filepath.Join(dir, "plain"), filepath.Join(dir, "whole")
	for _, args := range [][]string{
		{"-fopenmp", src, lib, "-lpthread", "-o", plain},
		{"-fopenmp", src, "-Wl,--whole-archive", lib, "-Wl,--no-whole-archive", "-lpthread", "-o", whole},
	} {
		if out, err := exec.Command(c.cc, args...).CombinedOutput(); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
	}
	orig := filepath.Join(dir, "orig")
	if out, err := exec.Command(c.cc, "-fopenmp", src, "-o", orig).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	want := run(t, orig, nil)
	for _, exe := range []string{plain, whole} {
		got := run(t, exe, nil)
		if got.stdout != want.stdout || got.code != want.code || got.stderr != "" {
			t.Errorf("%s: %q %q exit %d, want %q exit %d", filepath.Base(exe), got.stdout, got.stderr, got.code, want.stdout, want.code)
		}
		if _, err := os.Stat(got.dir); err == nil {
			t.Errorf("%s wrote a profile", filepath.Base(exe))
		}
	}
}

// TestExitInParallel calls exit() inside a parallel region: the status is
// kept and the profile written.
func TestExitInParallel(t *testing.T) {
	needTools(t)
	p := build(t, compilers[0], "exit.c")
	want := run(t, p.orig, nil)
	got := run(t, p.inst, nil)
	if got.code != 3 || want.code != 3 || got.stdout != want.stdout {
		t.Fatalf("instrumented: exit %d %q; original: exit %d %q", got.code, got.stdout, want.code, want.stdout)
	}
	prof := readProfile(t, got)
	if len(regionsOfKind(prof, "parallel")) != 1 {
		t.Errorf("regions: %v", prof.Regions)
	}
}

// TestExperimentDirectory checks that an existing directory is never
// reused and that a directory that cannot be created leaves the program's
// behaviour and exit status alone.
func TestExperimentDirectory(t *testing.T) {
	needTools(t)
	p := build(t, compilers[0], "exit.c")
	dir := t.TempDir()

	taken := filepath.Join(dir, "taken")
	os.Mkdir(taken, 0o755)
	os.WriteFile(filepath.Join(taken, "profile.json"), []byte("old"), 0o644)
	link := filepath.Join(dir, "link")
	os.Symlink(taken, link)
	for _, exp := range []string{taken, link} {
		cmd := exec.Command(p.inst)
		cmd.Env = append(os.Environ(), "GOPARI_EXPERIMENT_DIRECTORY="+exp)
		out, _ := cmd.CombinedOutput()
		if cmd.ProcessState.ExitCode() != 3 {
			t.Errorf("exit %d", cmd.ProcessState.ExitCode())
		}
		if !strings.Contains(string(out), "exists and is kept") {
			t.Errorf("no message about %s: %s", exp, out)
		}
		if _, err := profile.Read(exp + ".1/profile.json"); err != nil {
			t.Errorf("no profile next to %s: %v", exp, err)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(taken, "profile.json")); string(b) != "old" {
		t.Errorf("existing profile overwritten")
	}

	ro := filepath.Join(dir, "ro")
	os.Mkdir(ro, 0o555)
	if os.Getuid() == 0 {
		// root ignores permissions: use a path below a file instead.
		os.WriteFile(filepath.Join(dir, "file"), nil, 0o644)
		ro = filepath.Join(dir, "file")
	}
	cmd := exec.Command(p.inst)
	cmd.Env = append(os.Environ(), "GOPARI_EXPERIMENT_DIRECTORY="+filepath.Join(ro, "exp"))
	out, _ := cmd.CombinedOutput()
	if cmd.ProcessState.ExitCode() != 3 || !strings.Contains(string(out), "leaving") {
		t.Errorf("exit %d, output %s", cmd.ProcessState.ExitCode(), out)
	}
	if !strings.Contains(string(out), "no profile written") {
		t.Errorf("stderr does not say why: %s", out)
	}
}

// checkTree checks a profile's creation tree against want, its edges
// (parent and child region to count), and its depth.
func checkTree(t *testing.T, threads string, prof *profile.Profile, want map[[2]int]uint64, depth int) {
	t.Helper()
	got := map[[2]int]uint64{}
	for _, e := range prof.Tree.Edges {
		got[[2]int{e.Parent, e.Child}] = e.Count
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s threads: edge %d -> %d: %d, want %d", threads, k[0], k[1], got[k], v)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%s threads: edges %v, want %v", threads, got, want)
	}
	if prof.Tree.MaxDepth != depth {
		t.Errorf("%s threads: max depth %d, want %d", threads, prof.Tree.MaxDepth, depth)
	}
}

// checkFibTree checks the profile of fib(n) with two task constructs
// (fib.c, fortran_fib.f90): tasks task instances in all, and the creation
// tree of the model, edges from the region of the creating task.
func checkFibTree(t *testing.T, threads string, prof *profile.Profile, n int, tasks uint64) {
	t.Helper()
	regions := regionsOfKind(prof, "task")
	if len(regions) != 2 {
		t.Fatalf("%d task regions, want 2", len(regions))
	}
	x, y := regions[0].ID, regions[1].ID
	par := regionsOfKind(prof, "parallel")[0].ID
	want := map[[2]int]uint64{}
	depth := 0
	var model func(n, region, d int)
	model = func(n, region, d int) {
		if n < 2 {
			return
		}
		want[[2]int{region, x}]++
		want[[2]int{region, y}]++
		depth = max(depth, d+1)
		model(n-1, x, d+1)
		model(n-2, y, d+1)
	}
	model(n, par, 0)
	var total uint64
	for _, task := range prof.Tasks {
		total += task.Created
	}
	if total != tasks {
		t.Errorf("%s threads: %d task instances, want %d", threads, total, tasks)
	}
	checkTree(t, threads, prof, want, depth)
}
