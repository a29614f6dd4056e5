package e2e

// The task IDs of a long stream (format 6): the short task records leave
// out the IDs that their block's earlier records name, and the runtime
// packs a task run as it is created into one record (pomprt/events.h,
// ev_task). Read back over many blocks per thread, every task must be
// created, begun, ended and its creation ended once each, under its own
// ID, its end closing the task its thread began last.

import (
	"errors"
	"fmt"
	"io"
	"testing"

	"gopari/internal/events"
)

// TestTraceTaskIDs runs tiny tasks (undeferred at 1 thread, a mix at
// more) and fib (nested tasks, stolen by other threads) in trace mode,
// long enough to fill many 256 KiB blocks per thread, and checks every
// task's records by ID.
func TestTraceTaskIDs(t *testing.T) {
	needTools(t)
	for _, c := range compilers {
		c := c
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			for _, prog := range []struct{ src, arg string }{{"tiny.c", "150000"}, {"fib.c", "22"}} {
				p := build(t, c, prog.src)
				for _, threads := range threadCounts {
					r := run(t, p.inst, []string{"OMP_NUM_THREADS=" + threads, "GOPARI_MODE=trace"}, prog.arg)
					if r.code != 0 {
						t.Fatalf("%s, %s threads: exit %d\n%s", prog.src, threads, r.code, r.stderr)
					}
					checkTaskIDs(t, fmt.Sprintf("%s, %s threads", prog.src, threads), r.dir)
				}
			}
		})
	}
}

// checkTaskIDs checks the task records of one run's stream by ID.
func checkTaskIDs(t *testing.T, what, dir string) {
	t.Helper()
	seen := map[events.Type]map[uint64]int{}
	for _, typ := range []events.Type{events.CreateBegin, events.CreateEnd, events.TaskBegin, events.TaskEnd} {
		seen[typ] = map[uint64]int{}
	}
	implicit := map[uint64]bool{}
	createdOn := map[uint64]int{} // task: the file of its CREATE_BEGIN
	var parents []uint64
	bad := 0
	errorf := func(format string, args ...any) {
		if bad++; bad <= 5 {
			t.Errorf("%s: "+format, append([]any{what}, args...)...)
		}
	}
	exp, err := events.OpenExperiment(dir)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := exp.Open()
	if err != nil {
		t.Fatal(err)
	}
	blocks := 0
	for file, r := range rs {
		var open []uint64 // the thread's begun tasks, innermost last
		for {
			rec, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := seen[rec.Type]; ok {
				seen[rec.Type][rec.Args[0]]++
				if rec.Args[0] == 0 {
					errorf("%v of task 0 at %d", rec.Type, rec.Time)
				}
			}
			switch rec.Type {
			case events.ImplicitBegin:
				implicit[rec.Args[0]] = true
			case events.CreateBegin:
				createdOn[rec.Args[0]] = file
			case events.CreateEnd:
				if f, ok := createdOn[rec.Args[0]]; !ok || f != file {
					errorf("CREATE_END of task %#x, not created on its thread", rec.Args[0])
				}
			case events.TaskBegin:
				open = append(open, rec.Args[0])
				parents = append(parents, rec.Args[1])
			case events.TaskEnd:
				if len(open) == 0 || open[len(open)-1] != rec.Args[0] {
					errorf("TASK_END of task %#x, the thread's innermost task is %v", rec.Args[0], last(open))
				} else {
					open = open[:len(open)-1]
				}
			}
		}
		blocks += r.Blocks()
		r.Close()
	}
	if blocks < 4 {
		t.Errorf("%s: %d blocks: the test needs a longer run", what, blocks)
	}
	created := seen[events.CreateBegin]
	for typ, ids := range seen {
		if len(ids) != len(created) {
			errorf("%d tasks with a %v record, %d created", len(ids), typ, len(created))
		}
		for id, n := range ids {
			if n != 1 || created[id] != 1 {
				errorf("task %#x: %d %v records, %d creations", id, n, typ, created[id])
			}
		}
	}
	for _, p := range parents {
		if created[p] == 0 && !implicit[p] {
			errorf("a task's parent %#x is no task of the run", p)
		}
	}
}

func last(ids []uint64) any {
	if len(ids) == 0 {
		return "none"
	}
	return fmt.Sprintf("%#x", ids[len(ids)-1])
}
