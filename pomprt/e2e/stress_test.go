package e2e

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"gopari/internal/profile"
)

// TestManyThreads runs a team of 64 threads on however many cores there
// are.
func TestManyThreads(t *testing.T) {
	needTools(t)
	t.Parallel()
	p := build(t, compilers[0], "many.c")
	prof, orig := compareRun(t, p, nil)
	if orig.code != 0 || !strings.HasPrefix(orig.stdout, "team 64 ") {
		t.Errorf("the original printed %q (exit %d)", orig.stdout, orig.code)
	}
	level1 := 0
	for _, th := range prof.Threads {
		if th.Level == 1 {
			level1++
		}
	}
	if level1 != 64 {
		t.Errorf("%d threads in the team tree at level 1, want 64", level1)
	}
}

// TestNested3 runs three levels of nested parallel regions, 2 x 2 x 2
// threads, and checks the team tree.
func TestNested3(t *testing.T) {
	needTools(t)
	for _, c := range compilers {
		c := c
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := build(t, c, "nested3.c")
			prof, orig := compareRun(t, p, nil)
			if orig.code != 0 || !strings.HasPrefix(orig.stdout, "1 1 1 1 1 1 1 1 ") {
				t.Errorf("the original printed %q (exit %d)", orig.stdout, orig.code)
			}
			perLevel := map[int]int{}
			for _, th := range prof.Threads {
				perLevel[th.Level]++
			}
			if perLevel[0] != 1 || perLevel[1] != 2 || perLevel[2] != 4 || perLevel[3] != 8 {
				t.Errorf("threads per level %v, want 1, 2, 4, 8", perLevel)
			}
		})
	}
}

// TestTasksMemoryFlat runs 10^6 and 10^8 tiny tasks in profile mode and
// compares the peak memory of the two runs.
func TestTasksMemoryFlat(t *testing.T) {
	needTools(t)
	t.Parallel()
	p := build(t, compilers[0], "tiny.c")
	peak := func(perThread string) int64 {
		cmd := exec.Command(p.inst, perThread)
		cmd.Dir = t.TempDir()
		cmd.Env = append(os.Environ(), "OMP_NUM_THREADS=2", "GOPARI_EXPERIMENT_DIRECTORY=exp")
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil || strings.TrimSpace(string(out)) != "2" { // tasks per thread / n
			t.Fatalf("tiny %s: %v, printed %q", perThread, err, out)
		}
		// tiny.c prints its own peak memory at exit: a child's rusage
		// also counts the memory of this (large) test process.
		var kib int64
		if _, err := fmt.Sscanf(stderr.String(), "peak %d kB", &kib); err != nil {
			t.Fatalf("tiny %s printed no peak memory: %q", perThread, stderr.String())
		}
		prof, err := profile.Read(filepath.Join(cmd.Dir, "exp", "profile.json"))
		if err != nil {
			t.Fatal(err)
		}
		var created uint64
		for _, task := range prof.Tasks {
			created += task.Created
		}
		if want := 2 * mustAtoi(t, perThread); created != uint64(want) {
			t.Errorf("%d tasks created, want %d", created, want)
		}
		return kib
	}
	small, large := peak("500000"), peak("50000000")
	t.Logf("peak RSS: %d KiB at 10^6 tasks, %d KiB at 10^8", small, large)
	if float64(large) > 1.1*float64(small) {
		t.Errorf("peak RSS grew from %d KiB at 10^6 tasks to %d KiB at 10^8", small, large)
	}
}

func mustAtoi(t *testing.T, s string) int {
	t.Helper()
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

// TestExitInTask calls exit() from inside an explicit task and from
// inside a nested parallel region.
func TestExitInTask(t *testing.T) {
	needTools(t)
	t.Parallel()
	p := build(t, compilers[0], "exit_task.c")
	for _, tc := range []struct {
		args []string
		code int
	}{{nil, 5}, {[]string{"nested"}, 6}} {
		want := run(t, p.orig, nil, tc.args...)
		got := run(t, p.inst, nil, tc.args...)
		if got.code != tc.code || want.code != tc.code || got.stdout != want.stdout {
			t.Fatalf("%v: instrumented: exit %d %q; original: exit %d %q", tc.args, got.code, got.stdout, want.code, want.stdout)
		}
		if prof := readProfile(t, got); prof.Exit != "exit" {
			t.Errorf("%v: the profile says exit %q", tc.args, prof.Exit)
		}
	}
}

// TestSignals ends running programs with SIGINT, SIGTERM and SIGHUP: the
// profile is written and the program still dies by the signal. A
// program's own handler and an inherited "ignore" are left alone.
func TestSignals(t *testing.T) {
	needTools(t)
	t.Parallel()
	childSignalsDefault(t)
	p := build(t, compilers[0], "spin.c")
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		res := runUntilRunning(t, []string{p.inst}, sig)
		ws := res.state.Sys().(syscall.WaitStatus)
		if !ws.Signaled() || ws.Signal() != sig {
			t.Errorf("%v: the program ended with %v, want death by the signal", sig, res.state)
		}
		prof, err := profile.Read(filepath.Join(res.exp, "profile.json"))
		if err != nil {
			t.Errorf("%v: %v", sig, err)
			continue
		}
		names := map[syscall.Signal]string{syscall.SIGINT: "SIGINT", syscall.SIGTERM: "SIGTERM", syscall.SIGHUP: "SIGHUP"}
		if prof.Exit != names[sig] {
			t.Errorf("%v: the profile says exit %q, want %q", sig, prof.Exit, names[sig])
		}
		checkOnlyProfile(t, res.exp)
	}

	// The program's own SIGINT handler exits with 7; the profile is
	// written at that exit.
	res := runUntilRunning(t, []string{p.inst, "own"}, syscall.SIGINT)
	if res.state.ExitCode() != 7 {
		t.Errorf("own handler: the program ended with %v, want exit status 7", res.state)
	}
	if prof, err := profile.Read(filepath.Join(res.exp, "profile.json")); err != nil || prof.Exit != "exit" {
		t.Errorf("own handler: %v, profile %v", err, prof)
	}

	// Started with SIGINT ignored, the program ignores it still; SIGTERM
	// then ends it.
	res = runUntilRunning(t, []string{"sh", "-c", "trap '' INT; exec " + p.inst}, syscall.SIGINT, syscall.SIGTERM)
	if ws := res.state.Sys().(syscall.WaitStatus); !ws.Signaled() || ws.Signal() != syscall.SIGTERM {
		t.Errorf("ignored SIGINT: the program ended with %v, want death by SIGTERM", res.state)
	}
}

// sigDefault counts the tests that need their children to start with
// the default action of SIGINT, SIGTERM and SIGHUP.
var sigDefault struct {
	sync.Mutex
	n int
	c chan os.Signal
}

// childSignalsDefault makes the programs that t starts, until it ends,
// begin with the default action of SIGINT, SIGTERM and SIGHUP. Run under
// nohup (or with SIGINT ignored, as background jobs of a non-interactive
// shell are), the test's children would inherit the "ignore" and rightly
// keep it; Go starts children with the default action for the signals
// this process handles, so they are handled while any such test runs
// (parallel tests share the one registration).
func childSignalsDefault(t *testing.T) {
	sigs := []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP}
	sigDefault.Lock()
	defer sigDefault.Unlock()
	if sigDefault.n == 0 {
		sigDefault.c = make(chan os.Signal, 1)
		signal.Notify(sigDefault.c, sigs...)
	}
	sigDefault.n++
	t.Cleanup(func() {
		sigDefault.Lock()
		defer sigDefault.Unlock()
		if sigDefault.n--; sigDefault.n == 0 {
			signal.Reset(sigs...)
		}
	})
}

type signalled struct {
	state *os.ProcessState
	exp   string
}

// runUntilRunning starts argv, waits until it prints "running", then
// sends sigs one after another, 200 ms apart, until it ends.
func runUntilRunning(t *testing.T, argv []string, sigs ...syscall.Signal) signalled {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	exp := filepath.Join(dir, "exp")
	cmd.Env = append(os.Environ(), "OMP_NUM_THREADS=2", "GOPARI_EXPERIMENT_DIRECTORY="+exp)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	running, done := make(chan bool, 1), make(chan error, 1)
	go func() {
		line, _ := bufio.NewReader(stdout).ReadString('\n')
		running <- line == "running\n"
		done <- cmd.Wait()
	}()
	deadline := time.After(runTimeout)
	select {
	case ok := <-running:
		if !ok {
			cmd.Process.Kill()
			<-done
			t.Fatalf("%v did not start its loop", argv)
		}
	case <-deadline:
		cmd.Process.Kill()
		t.Fatalf("%v: no output", argv)
	}
	for _, sig := range sigs {
		cmd.Process.Signal(sig)
		select {
		case <-done:
			return signalled{cmd.ProcessState, exp}
		case <-time.After(200 * time.Millisecond):
		}
	}
	select {
	case <-done:
	case <-deadline:
		st, _ := exec.Command("sh", "-c", fmt.Sprintf("grep -E 'Sig|State' /proc/%d/task/*/status; ls -la %s", cmd.Process.Pid, exp)).CombinedOutput()
		cmd.Process.Kill()
		<-done
		t.Fatalf("%v did not end after %v\n%s", argv, sigs, st)
	}
	return signalled{cmd.ProcessState, exp}
}

// checkOnlyProfile checks that an experiment directory holds the profile
// and nothing else, and that the modes are 0755 and 0644 under the umask.
func checkOnlyProfile(t *testing.T, dir string) {
	t.Helper()
	mask := os.FileMode(syscall.Umask(0o022))
	syscall.Umask(int(mask))
	if st, err := os.Stat(dir); err != nil || st.Mode().Perm() != 0o755&^mask {
		t.Errorf("%s: %v, want mode %v", dir, st.Mode(), 0o755&^mask)
	}
	if st, err := os.Stat(filepath.Join(dir, "profile.json")); err != nil || st.Mode().Perm() != 0o644&^mask {
		t.Errorf("profile.json: %v, want mode %v", st.Mode(), 0o644&^mask)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name() != "profile.json" {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("%s holds %v, want only profile.json", dir, names)
	}
}
