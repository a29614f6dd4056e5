package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

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
