package e2e

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"gopari/internal/profile"
)

// The runtime's lifecycle end to end: fork without exec and the other
// ways to start processes, exit() from every thread at once, SIGPIPE and
// crashes. Every count checked here is known from the test program.

var noCores sync.Once

// noCoreDumps keeps the crashing test programs from writing core files.
func noCoreDumps(t *testing.T) {
	noCores.Do(func() {
		if err := syscall.Setrlimit(syscall.RLIMIT_CORE, &syscall.Rlimit{}); err != nil {
			t.Logf("core dumps stay on: %v", err)
		}
	})
}

// experiments returns the entries of dir whose names start with base,
// sorted.
func experiments(t *testing.T, dir, base string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), base) {
			out = append(out, e.Name())
		}
	}
	sort.Strings(out)
	return out
}

// visits sums the visits of regions of kind over threads, by phase
// ("construct" or "body").
func visits(p *profile.Profile, kind, phase string) uint64 {
	var n uint64
	for _, s := range p.Stats {
		if p.Region(s.Region).Kind != kind {
			continue
		}
		ph := s.Construct
		if phase == "body" {
			ph = s.Body
		}
		if ph != nil {
			n += ph.Visits
		}
	}
	return n
}

// runAll runs exe like run, in a process group of its own: on timeout
// the whole group is killed, so that a child that hangs cannot keep the
// test waiting for the output it holds open.
func runAll(t *testing.T, exe string, env []string, args ...string) result {
	t.Helper()
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var hang string
	cmd.Cancel = reportThenKill(cmd, &hang, true)
	cmd.WaitDelay = time.Second
	exp := filepath.Join(dir, "exp")
	cmd.Env = append(append(os.Environ(), "GOPARI_EXPERIMENT_DIRECTORY="+exp), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // children left behind
	if ctx.Err() != nil {
		t.Fatalf("%s %v %v did not finish in %v; its threads then:\n%s", exe, args, env, runTimeout, hang)
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s: %v", exe, err)
	}
	return result{stdout: out.String(), stderr: errb.String(), code: code, dir: exp}
}

func tasksCreated(p *profile.Profile) (created, executed uint64) {
	for _, t := range p.Tasks {
		created += t.Created
		executed += t.Executed
	}
	return created, executed
}

func threadPaths(p *profile.Profile) string {
	var paths []string
	for _, th := range p.Threads {
		paths = append(paths, th.Path)
	}
	sort.Strings(paths)
	return strings.Join(paths, " ")
}

// TestFork runs fork without exec (before and after the parent's first
// team, inside a parallel region, and a child that crashes), vfork +
// exec, system(), popen() and posix_spawn (of a plain command and of an
// instrumented program) at 1, 2 and 4 threads. Nothing hangs, every
// program prints what the uninstrumented one prints, and each process
// that was forked without exec has its own profile, in
// EXPERIMENT.fork-PID, of exactly what it did after the fork.
// A forkCase is a way fork.c forks, and what its child's profile holds.
type forkCase struct {
	name string
	// the child's profile, if it is forked without exec
	childExit             string
	childTasks, childCrit uint64
	childPaths            string
	parentCrit            uint64
	exec                  bool // an instrumented program is exec'd
	daemon                bool // the child outlives the parent
	reps                  int  // runs at each thread count: more where timing matters
}

func TestFork(t *testing.T) {
	needTools(t)
	noCoreDumps(t)
	const tasks, crit = 12, 5 // as in fork.c
	for _, c := range compilers {
		c := c
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := build(t, c, "fork.c")
			for _, tc := range []forkCase{
				{name: "fork-first", childExit: "exit", childTasks: tasks},
				{name: "fork", childExit: "exit", childCrit: crit, childPaths: "0", parentCrit: crit, reps: 7},
				{name: "fork-crash", childExit: "SIGSEGV", childCrit: crit, childPaths: "0"},
				{name: "fork-in-parallel", childExit: "exit", childCrit: crit, childPaths: "0 0.0", reps: 7},
				{name: "fork-daemon", daemon: true},
				{name: "vfork"},
				{name: "system"},
				{name: "popen"},
				{name: "spawn"},
				{name: "spawn-self", exec: true},
			} {
				for _, threads := range []int{1, 2, 4} {
					env := []string{"OMP_NUM_THREADS=" + strconv.Itoa(threads)}
					want := runAll(t, p.orig, env, tc.name)
					for rep := 0; rep < max(tc.reps, 1); rep++ {
						what := fmt.Sprintf("%s at %d threads, run %d", tc.name, threads, rep+1)
						got := runAll(t, p.inst, env, tc.name)
						if got.stdout != want.stdout || got.code != want.code || want.code != 0 {
							t.Errorf("%s: instrumented printed %q (exit %d), original %q (exit %d)\nstderr: %s",
								what, got.stdout, got.code, want.stdout, want.code, got.stderr)
							continue
						}
						checkForkRun(t, what, tc, threads, got)
					}
				}
			}
		})
	}
}

// checkForkRun checks the profiles of a run of fork.c in case tc.
func checkForkRun(t *testing.T, what string, tc forkCase, threads int, got result) {
	t.Helper()
	const tasks = 12 // as in fork.c
	parent := readProfile(t, got)
	exps := experiments(t, filepath.Dir(got.dir), "exp")
	switch {
	case tc.childExit != "":
		child := "exp.fork-" // and the child's pid
		if len(exps) != 2 || exps[0] != "exp" || !strings.HasPrefix(exps[1], child) {
			t.Errorf("%s: experiments %v, want exp and %sPID", what, exps, child)
			return
		}
		cp, err := profile.Read(filepath.Join(filepath.Dir(got.dir), exps[1], "profile.json"))
		if err != nil {
			t.Errorf("%s: %v", what, err)
			return
		}
		if exps[1] != child+strconv.Itoa(cp.PID) || cp.ForkedFrom != parent.PID || cp.PID == parent.PID {
			t.Errorf("%s: child %s has pid %d, forked from %d; the parent's pid is %d", what, exps[1], cp.PID, cp.ForkedFrom, parent.PID)
		}
		if cp.Exit != tc.childExit {
			t.Errorf("%s: the child's profile says exit %q, want %q", what, cp.Exit, tc.childExit)
		}
		if created, executed := tasksCreated(cp); created != tc.childTasks || executed != tc.childTasks {
			t.Errorf("%s: the child created %d and executed %d tasks, want %d", what, created, executed, tc.childTasks)
		}
		if got := visits(cp, "critical", "body"); got != tc.childCrit {
			t.Errorf("%s: the child entered critical %d times, want %d", what, got, tc.childCrit)
		}
		if tc.childPaths != "" && threadPaths(cp) != tc.childPaths {
			t.Errorf("%s: the child's threads are %s, want %s", what, threadPaths(cp), tc.childPaths)
		}
		if tc.childTasks > 0 && visits(cp, "parallel", "body") != uint64(threads) {
			t.Errorf("%s: the child ran %d implicit tasks, want %d", what, visits(cp, "parallel", "body"), threads)
		}
		checkInvariants(t, cp)
	case tc.exec:
		// The exec'd program is a run of its own; with the
		// same GOPARI_EXPERIMENT_DIRECTORY it takes the next
		// free name.
		if len(exps) != 2 || exps[0] != "exp" || exps[1] != "exp.1" {
			t.Errorf("%s: experiments %v, want exp and exp.1", what, exps)
			return
		}
		other, err := profile.Read(filepath.Join(filepath.Dir(got.dir), "exp.1", "profile.json"))
		if err != nil {
			t.Errorf("%s: %v", what, err)
			return
		}
		leaf, main := other, parent
		if len(parent.Args) == 1 && parent.Args[0] == "leaf" {
			leaf, main = parent, other
		}
		if len(leaf.Args) != 1 || leaf.Args[0] != "leaf" || main.Args[0] != tc.name || leaf.ForkedFrom != 0 {
			t.Errorf("%s: profiles of %v (pid %d) and %v (pid %d)", what, parent.Args, parent.PID, other.Args, other.PID)
		}
		if created, _ := tasksCreated(leaf); created != tasks {
			t.Errorf("%s: the exec'd program created %d tasks, want %d", what, created, tasks)
		}
		parent = main
	default:
		if len(exps) != 1 {
			t.Errorf("%s: experiments %v, want exp alone", what, exps)
		}
		msg := fmt.Sprintf(" writes no profile: the process it was forked from (%d) has ended, and only that one can write it\n", parent.PID)
		if tc.daemon != strings.Contains(got.stderr, msg) {
			t.Errorf("%s: stderr %q", what, got.stderr)
		}
	}
	if created, executed := tasksCreated(parent); created != tasks || executed != tasks {
		t.Errorf("%s: the parent created %d and executed %d tasks, want %d", what, created, executed, tasks)
	}
	if got := visits(parent, "critical", "body"); got != tc.parentCrit {
		t.Errorf("%s: the parent entered critical %d times, want %d", what, got, tc.parentCrit)
	}
	if parent.Exit != "exit" || parent.ForkedFrom != 0 || parent.UnmatchedEvents != 0 {
		t.Errorf("%s: the parent's profile: exit %q, forked from %d, %d unmatched events", what, parent.Exit, parent.ForkedFrom, parent.UnmatchedEvents)
	}
	checkInvariants(t, parent)
}

// libomp reports whether c's OpenMP runtime is LLVM's libomp, whose
// fork handler gives a forked child a fresh runtime; libgomp's does not.
func libomp(c compiler) bool { return slices.Contains(c.openmp, "-fopenmp=libomp") }

// TestForkAgain has forked processes use OpenMP again: the parent runs a
// team before the fork ("again") or not ("again-first"), then the parent,
// its child and the child's child (forked after the child's team) each
// run a parallel region with 12 tasks, at 1, 2 and 4 threads, in modes
// off, ids, profile and trace and with GOPARI_GRAINS=1. Each run prints
// what the uninstrumented program prints and exits alike, and the child's
// and the grandchild's profiles hold exactly their own team: one parallel
// region, an implicit task per thread, the single and its 12 tasks and
// atomics. With libgomp the program releases its threads before each fork
// (omp_pause_resource_all), without which the uninstrumented program
// hangs; with libomp it runs both ways.
func TestForkAgain(t *testing.T) {
	needTools(t)
	modes := [][]string{{"GOPARI_MODE=off"}, {"GOPARI_MODE=ids"}, {"GOPARI_MODE=profile"}, {"GOPARI_MODE=trace"}, {"GOPARI_GRAINS=1"}}
	for _, c := range compilers {
		c := c
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := build(t, c, "fork.c")
			pauses := [][]string{{"pause"}}
			if libomp(c) {
				pauses = append(pauses, nil)
			}
			for _, name := range []string{"again", "again-first"} {
				for _, pause := range pauses {
					args := append([]string{name}, pause...)
					for _, threads := range []int{1, 2, 4} {
						env := []string{"OMP_NUM_THREADS=" + strconv.Itoa(threads)}
						want := runAll(t, p.orig, env, args...)
						if want.code != 0 {
							t.Fatalf("%v at %d threads: the original exits with %d\n%s", args, threads, want.code, want.stderr)
						}
						for _, mode := range modes {
							what := fmt.Sprintf("%v at %d threads, %v", args, threads, mode)
							got := runAll(t, p.inst, append(env, mode...), args...)
							if got.stdout != want.stdout || got.code != want.code {
								t.Errorf("%s: instrumented printed %q (exit %d), original %q (exit %d)\nstderr: %s",
									what, got.stdout, got.code, want.stdout, want.code, got.stderr)
								continue
							}
							checkForkAgain(t, what, name == "again", mode[0], threads, got)
						}
					}
				}
			}
		})
	}
}

// checkForkAgain checks the profiles of a run of fork.c's "again": the
// parent's, its child's and the grandchild's.
func checkForkAgain(t *testing.T, what string, before bool, mode string, threads int, got result) {
	t.Helper()
	const tasks = 12 // as in fork.c
	exps := experiments(t, filepath.Dir(got.dir), "exp")
	if mode == "GOPARI_MODE=off" {
		if len(exps) != 0 {
			t.Errorf("%s: experiments %v, want none", what, exps)
		}
		return
	}
	if len(exps) != 3 || exps[0] != "exp" || !strings.HasPrefix(exps[1], "exp.fork-") || !strings.HasPrefix(exps[2], exps[1]+".fork-") {
		t.Errorf("%s: experiments %v, want exp, exp.fork-PID and exp.fork-PID.fork-PID2\nstderr: %s", what, exps, got.stderr)
		return
	}
	var profs [3]*profile.Profile
	for i, e := range exps {
		p, err := profile.Read(filepath.Join(filepath.Dir(got.dir), e, "profile.json"))
		if err != nil {
			t.Errorf("%s: %v", what, err)
			return
		}
		profs[i] = p
	}
	parent := profs[0]
	paths := "0"
	for i := 0; i < threads; i++ {
		paths += " 0." + strconv.Itoa(i)
	}
	for i, p := range profs {
		who := fmt.Sprintf("%s: %s", what, exps[i])
		if p.Exit != "exit" || p.UnmatchedEvents != 0 {
			t.Errorf("%s: exit %q, %d unmatched events", who, p.Exit, p.UnmatchedEvents)
		}
		if i > 0 && (!strings.HasSuffix(exps[i], ".fork-"+strconv.Itoa(p.PID)) || p.ForkedFrom != profs[i-1].PID) {
			t.Errorf("%s: pid %d, forked from %d; its parent's pid is %d", who, p.PID, p.ForkedFrom, profs[i-1].PID)
		}
		if mode == "GOPARI_MODE=ids" {
			continue // ids mode counts nothing
		}
		teams := uint64(1)
		if i == 0 && before {
			teams = 2
		}
		if i > 0 && threadPaths(p) != paths {
			t.Errorf("%s: threads %s, want %s", who, threadPaths(p), paths)
		}
		// Exactly its own teams, by kind: the parallel region's forks, the
		// single's entries, the tasks and the atomics.
		n := uint64(threads)
		want := map[string]uint64{"parallel": teams, "single": teams * n, "task": teams * tasks, "atomic": teams * tasks}
		for kind, v := range want {
			if got := visits(p, kind, "construct"); got != v {
				t.Errorf("%s: %s visited %d times, want %d", who, kind, got, v)
			}
		}
		for _, s := range p.Stats {
			if r := p.Region(s.Region); want[r.Kind] == 0 && s.Construct != nil && s.Construct.Visits > 0 {
				t.Errorf("%s: %s %s:%d visited %d times, want never", who, r.Kind, r.File, r.BeginLine, s.Construct.Visits)
			}
		}
		if got := visits(p, "parallel", "body"); got != teams*n {
			t.Errorf("%s: %d implicit tasks, want %d", who, got, teams*n)
		}
		if got := visits(p, "single", "body"); got != teams {
			t.Errorf("%s: the single's body ran %d times, want %d", who, got, teams)
		}
		if created, executed := tasksCreated(p); created != teams*tasks || executed != teams*tasks {
			t.Errorf("%s: %d tasks created and %d executed, want %d", who, created, executed, teams*tasks)
		}
		checkInvariants(t, p)
		// Only the parent records a stream; a forked child's files would
		// be its parent's.
		if _, err := os.Stat(filepath.Join(filepath.Dir(got.dir), exps[i], "events")); (err == nil) != (i == 0 && mode != "GOPARI_MODE=profile") {
			t.Errorf("%s: events directory: %v", who, err)
		}
	}
	if mode == "GOPARI_MODE=trace" || mode == "GOPARI_GRAINS=1" {
		// The parent's stream holds its task grains, before and after
		// the fork.
		teams := 1
		if before {
			teams = 2
		}
		gs, _ := runGrains(t, got.dir)
		line := regionsOfKind(parent, "task")[0].BeginLine
		if len(gs[line]) != teams*tasks {
			t.Errorf("%s: the parent's stream has %d task grains, want %d", what, len(gs[line]), teams*tasks)
		}
	}
}

// TestExitFromAllThreads has every thread call exit(3) at once, 20 times
// at each of 1, 2 and 4 threads: exactly one whole profile each time, and
// exit status 3.
func TestExitFromAllThreads(t *testing.T) {
	needTools(t)
	for _, c := range compilers {
		c := c
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := build(t, c, "exitall.c")
			for _, threads := range []int{1, 2, 4} {
				env := []string{"OMP_NUM_THREADS=" + strconv.Itoa(threads)}
				want := runAll(t, p.orig, env)
				if want.code != 3 {
					t.Fatalf("the original exits with %d", want.code)
				}
				for i := 0; i < 20; i++ {
					got := runAll(t, p.inst, env)
					what := fmt.Sprintf("%d threads, run %d", threads, i+1)
					if got.code != 3 || got.stdout != want.stdout {
						t.Errorf("%s: printed %q, exit %d; want %q, exit 3\nstderr: %s", what, got.stdout, got.code, want.stdout, got.stderr)
					}
					if exps := experiments(t, filepath.Dir(got.dir), "exp"); len(exps) != 1 || exps[0] != "exp" {
						t.Errorf("%s: experiments %v, want exp alone", what, exps)
						continue
					}
					prof, err := profile.Read(filepath.Join(got.dir, "profile.json"))
					if err != nil {
						t.Errorf("%s: %v", what, err)
						continue
					}
					checkOnlyProfile(t, got.dir)
					if prof.Exit != "exit" || visits(prof, "for", "construct") != uint64(threads) ||
						visits(prof, "parallel", "body") != 0 || len(prof.Threads) != threads+1 {
						t.Errorf("%s: exit %q, for visited %d times, %d implicit tasks ended, threads %s; want exit, %d, 0, %d threads",
							what, prof.Exit, visits(prof, "for", "construct"), visits(prof, "parallel", "body"), threadPaths(prof), threads, threads+1)
					}
				}
			}
		})
	}
}

// runSignalled runs exe with stdout to a pipe. It reads one line, then
// closes the pipe if closePipe is set, or keeps reading otherwise, and
// returns what the program ended with and its experiment directory.
func runSignalled(t *testing.T, exe string, env []string, closePipe bool, args ...string) (syscall.WaitStatus, string, string) {
	t.Helper()
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var hang string
	cmd.Cancel = reportThenKill(cmd, &hang, true)
	cmd.WaitDelay = time.Second
	cmd.Env = append(append(os.Environ(), "GOPARI_EXPERIMENT_DIRECTORY="+filepath.Join(dir, "exp")), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	if closePipe {
		out.Close()
	} else {
		io.Copy(io.Discard, out)
	}
	cmd.Wait()
	if ctx.Err() != nil {
		t.Fatalf("%s %v did not end in %v; its threads then:\n%s", exe, args, runTimeout, hang)
	}
	return cmd.ProcessState.Sys().(syscall.WaitStatus), filepath.Join(dir, "exp"), line + "\n" + stderr.String()
}

// TestCrashSignals ends programs by SIGPIPE (every thread writes to a pipe
// whose reader has gone), and by SIGSEGV, SIGBUS, SIGFPE and SIGABRT on
// one thread of a team, at 1, 2 and 4 threads (SIGPIPE and SIGSEGV 20
// times each, and 10 times each with the second compiler, clang and
// libomp): the profile of the work so far is written, with the signal's
// name as its exit, and the program still dies by the signal, as the
// uninstrumented one does.
func TestCrashSignals(t *testing.T) {
	needTools(t)
	noCoreDumps(t)
	for i, c := range compilers {
		i, c := i, c
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := build(t, c, "crash.c")
			for _, tc := range []struct {
				how  string
				sig  syscall.Signal
				name string
				reps int // runs of the instrumented program: 20 where threads race (10 with another compiler)
			}{
				{"pipe", syscall.SIGPIPE, "SIGPIPE", 20}, {"segv", syscall.SIGSEGV, "SIGSEGV", 20},
				{"bus", syscall.SIGBUS, "SIGBUS", 1}, {"fpe", syscall.SIGFPE, "SIGFPE", 1}, {"abort", syscall.SIGABRT, "SIGABRT", 1},
			} {
				if i > 0 && tc.reps == 1 {
					continue // the races are the compilers' (their OpenMP runtimes'); the rest is the first's
				}
				reps := tc.reps
				if i > 0 {
					reps /= 2
				}
				for _, threads := range []int{1, 2, 4} {
					checkCrash(t, p, tc.how, tc.sig, tc.name, threads, reps)
				}
			}
		})
	}
}

// checkCrash runs crash.c in way how at threads threads, uninstrumented
// and reps times instrumented: each dies by sig, and writes a whole profile
// that names it.
func checkCrash(t *testing.T, p program, how string, sig syscall.Signal, name string, threads, reps int) {
	t.Helper()
	const rounds = 10 // as in crash.c
	env := []string{"OMP_NUM_THREADS=" + strconv.Itoa(threads)}
	what := fmt.Sprintf("%s at %d threads", how, threads)
	ws, _, out := runSignalled(t, p.orig, env, how == "pipe", how)
	if !ws.Signaled() || ws.Signal() != sig {
		t.Fatalf("%s: the original ended with %v, want %v\n%s", what, ws, sig, out)
	}
	for rep := 0; rep < reps; rep++ {
		what := fmt.Sprintf("%s, run %d", what, rep+1)
		ws, exp, out := runSignalled(t, p.inst, env, how == "pipe", how)
		if !ws.Signaled() || ws.Signal() != sig {
			t.Errorf("%s: the instrumented program ended with %v, want death by %v\n%s", what, ws, sig, out)
		}
		prof, err := profile.Read(filepath.Join(exp, "profile.json"))
		if err != nil {
			t.Errorf("%s: %v\n%s", what, err, out)
			continue
		}
		if prof.Exit != name {
			t.Errorf("%s: the profile says exit %q, want %q", what, prof.Exit, name)
		}
		if got := visits(prof, "for", "construct"); got != uint64(rounds*threads) {
			t.Errorf("%s: for visited %d times, want %d", what, got, rounds*threads)
		}
		if got := visits(prof, "parallel", "construct"); got != rounds {
			t.Errorf("%s: %d parallel regions joined, want %d", what, got, rounds)
		}
		checkOnlyProfile(t, exp)
	}
}

// TestProfileWriteErrors makes the profile writer's writes fail, as on a
// full disk (the program lowers its own file-size limit before it
// exits): the failure is said on stderr, the program keeps its exit
// status, and no partial file — nor an empty experiment directory — is
// left. When only the task IDs of the test-only record mode do not fit,
// the profile stays and ids.bin is missing, with no temporary file.
func TestProfileWriteErrors(t *testing.T) {
	needTools(t)
	t.Parallel()
	p := build(t, compilers[0], "limits.c")

	got := runAll(t, p.inst, nil, "10", "100")
	if got.code != 3 || got.stdout != "10\n" {
		t.Errorf("printed %q, exit %d; want \"10\\n\", exit 3", got.stdout, got.code)
	}
	if !strings.Contains(got.stderr, "gopari: no profile written: write ") || !strings.Contains(got.stderr, "file too large") {
		t.Errorf("stderr does not say why: %q", got.stderr)
	}
	if exps := experiments(t, filepath.Dir(got.dir), "exp"); len(exps) != 0 {
		t.Errorf("left behind: %v", exps)
	}

	got = runAll(t, p.inst, []string{"GOPARI_MODE=ids", "GOPARI_RECORD_IDS=1"}, "100000", "65536")
	if got.code != 3 || got.stdout != "100000\n" {
		t.Errorf("record mode: printed %q, exit %d; want \"100000\\n\", exit 3", got.stdout, got.code)
	}
	if !strings.Contains(got.stderr, "gopari: task IDs not written: write ") || !strings.Contains(got.stderr, "file too large") {
		t.Errorf("record mode: stderr does not say why: %q", got.stderr)
	}
	if _, err := profile.Read(filepath.Join(got.dir, "profile.json")); err != nil {
		t.Errorf("record mode: %v", err)
	} else {
		checkOnlyProfile(t, got.dir)
	}
}
