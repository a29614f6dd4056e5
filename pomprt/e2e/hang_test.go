package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// reportThenKill returns a Cancel for cmd that saves hangReport of its
// process in *hang, then kills the process, or its whole process group
// when group is set.
func reportThenKill(cmd *exec.Cmd, hang *string, group bool) func() error {
	return func() error {
		*hang = hangReport(cmd.Process.Pid)
		if group {
			return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		}
		return cmd.Process.Kill()
	}
}

// hangReportOf is hangReport of every process whose command line starts
// with exe (pgrep -f): the ranks of an MPI job, which Open MPI starts
// outside mpirun's process group.
func hangReportOf(exe string) string {
	out, _ := exec.Command("pgrep", "-f", "^"+regexp.QuoteMeta(exe)).Output()
	var b strings.Builder
	for _, f := range strings.Fields(string(out)) {
		if pid, err := strconv.Atoi(f); err == nil {
			fmt.Fprintf(&b, "process %d:\n%s", pid, hangReport(pid))
		}
	}
	if b.Len() == 0 {
		return "(no process of " + exe + " left)\n"
	}
	return b.String()
}

// hangReport describes a process that outlived its timeout, before it
// is killed: every thread's state and kernel wait channel from /proc,
// and, where gdb is installed, every thread's stack. A hang that shows
// once in hundreds of runs is diagnosed from that run's log, not from
// another run's.
func hangReport(pid int) string {
	var b strings.Builder
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*", pid))
	sort.Strings(tasks)
	for _, task := range tasks {
		comm, _ := os.ReadFile(filepath.Join(task, "comm"))
		stat, _ := os.ReadFile(filepath.Join(task, "stat"))
		wchan, _ := os.ReadFile(filepath.Join(task, "wchan"))
		state := ""
		if i := strings.LastIndexByte(string(stat), ')'); i >= 0 && i+2 < len(stat) {
			state = string(stat[i+2 : i+3])
		}
		fmt.Fprintf(&b, "thread %s %s: state %s, wchan %s\n", filepath.Base(task), strings.TrimSpace(string(comm)), state, wchan)
	}
	if gdb, err := exec.LookPath("gdb"); err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		out, _ := exec.CommandContext(ctx, gdb, "-batch", "-nx", "-p", fmt.Sprint(pid), "-ex", "thread apply all bt").CombinedOutput()
		b.Write(out)
	} else {
		b.WriteString("(gdb is not installed: no stacks)\n")
	}
	return b.String()
}

// TestHangReport starts a copy of sleep under its own name, as a hung
// program of the suite, and checks what the runners print before they
// kill it: its thread's state and, when gdb is installed, its stack;
// then that reportThenKill kills it.
func TestHangReport(t *testing.T) {
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep command")
	}
	b, err := os.ReadFile(sleep)
	if err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(t.TempDir(), "hung")
	if err := os.WriteFile(exe, b, 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, exe, "600")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var hang string
	cmd.Cancel = reportThenKill(cmd, &hang, true)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	// The process sleeps once its state says so.
	for i := 0; i < 100 && !strings.Contains(hangReport(pid), "state S"); i++ {
		time.Sleep(10 * time.Millisecond)
	}
	of := hangReportOf(exe)
	cancel()
	cmd.Wait()
	want := fmt.Sprintf("thread %d hung: state S", pid)
	for name, r := range map[string]string{"hangReportOf": of, "reportThenKill": hang} {
		if !strings.Contains(r, want) {
			t.Errorf("%s gave no %q:\n%s", name, want, r)
		}
		if _, err := exec.LookPath("gdb"); err == nil && !strings.Contains(r, "#0") {
			t.Errorf("%s gave no stack from gdb:\n%s", name, r)
		}
	}
	if !strings.HasPrefix(of, fmt.Sprintf("process %d:\n", pid)) {
		t.Errorf("hangReportOf does not name the process %d first:\n%s", pid, of)
	}
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || ws.Signal() != syscall.SIGKILL {
		t.Errorf("the hung process ended with %v, not killed", cmd.ProcessState)
	}
	if got := hangReportOf(exe); !strings.Contains(got, "no process") {
		t.Errorf("after the kill, hangReportOf still finds:\n%s", got)
	}
}
