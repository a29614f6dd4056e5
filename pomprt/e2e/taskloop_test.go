package e2e

// The tasks a taskloop generates, timed and numbered: their execution
// times against the times each task measured itself, and the iteration
// ranges their stream records give against the ranges they ran.

import (
	"fmt"
	"math"
	"sort"
	"testing"

	"gopari/internal/events"
	"gopari/internal/profile"
	"gopari/rewrite"
)

// tlTask is a taskloop task as taskloop_times.c reports it.
type tlTask struct {
	first, n int64
	ns       float64
}

// tlTasks reads the program's "task LOOP FIRST N SECONDS" and "loop LOOP
// N" lines.
func tlTasks(t *testing.T, stdout string) (tasks map[int][]tlTask, iters map[int]uint64) {
	t.Helper()
	tasks, iters = map[int][]tlTask{}, map[int]uint64{}
	for _, f := range lines(stdout, "task ") {
		var loop int
		var k tlTask
		var s float64
		if _, err := fmt.Sscanf(f[1]+" "+f[2]+" "+f[3]+" "+f[4], "%d %d %d %f", &loop, &k.first, &k.n, &s); err != nil {
			t.Fatalf("%q: %v", f, err)
		}
		k.ns = s * 1e9
		tasks[loop] = append(tasks[loop], k)
	}
	for _, f := range lines(stdout, "loop ") {
		var loop int
		var n uint64
		fmt.Sscanf(f[1]+" "+f[2], "%d %d", &loop, &n)
		iters[loop] = n
	}
	return tasks, iters
}

// TestTaskloopTimes checks the execution time of taskloop tasks in C and
// C++, with and without nogroup: the minimum, maximum and total of each
// loop's tasks equal what the tasks measured themselves (within 5%, or
// 0.3 ms for preemption between the program's clock reads and the
// runtime's). Loops 5 and 7 declare their variables outside their
// headers: the compiler tells gopari that they are integers, and their
// tasks are numbered and timed like the others'. Loops 6 and 7 run their tasks in a barrier
// that gcc adds, with no instrumented code after them: no unmatched
// events. In trace mode, the TASKLOOP_BEGIN and TASKLOOP_END
// records of each task give the logical iterations it ran.
func TestTaskloopTimes(t *testing.T) {
	needTools(t)
	for _, c := range compilers {
		for _, as := range []string{"taskloop_times.c", "taskloop_times.cpp"} {
			c, as := c, as
			t.Run(c.name+"/"+as, func(t *testing.T) {
				t.Parallel()
				p := buildAs(t, c, "taskloop_times.c", as, rewrite.Options{})
				for _, threads := range threadCounts {
					env := []string{"OMP_NUM_THREADS=" + threads}
					r := run(t, p.inst, env)
					prof := readProfile(t, r)
					tasks, iters := tlTasks(t, r.stdout)
					loops := regionsByLine(prof, "taskloop")
					if prof.UnmatchedEvents != 0 {
						t.Errorf("%s threads: %d unmatched events", threads, prof.UnmatchedEvents)
					}
					if len(loops) != 8 || len(tasks) != 8 {
						t.Fatalf("%d taskloop regions, %d loops in the output", len(loops), len(tasks))
					}
					for k, l := range loops {
						checkTaskloopTimes(t, threads+" threads, loop "+fmt.Sprint(k), taskStats(prof, l.ID), tasks[k], iters[k])
					}
					tr := run(t, p.inst, append(env, "GOPARI_MODE=trace"))
					trTasks, _ := tlTasks(t, tr.stdout)
					ranges := taskloopRanges(t, tr.dir)
					for k, l := range loops {
						checkTaskloopRanges(t, threads+" threads, loop "+fmt.Sprint(k), ranges[l.ID], trTasks[k])
					}
				}
			})
		}
	}
}

// checkTaskloopTimes compares a taskloop region's task statistics with
// the tasks the program timed.
func checkTaskloopTimes(t *testing.T, what string, ts profile.TaskStats, want []tlTask, iters uint64) {
	t.Helper()
	if ts.Created != uint64(len(want)) || ts.Executed != ts.Created || ts.Iterations != iters {
		t.Errorf("%s: %d tasks, %d executed, %d iterations; the program ran %d tasks of %d iterations",
			what, ts.Created, ts.Executed, ts.Iterations, len(want), iters)
		return
	}
	lo, hi, sum := math.Inf(1), 0.0, 0.0
	for _, k := range want {
		lo, hi, sum = math.Min(lo, k.ns), math.Max(hi, k.ns), sum+k.ns
	}
	near := func(got, want, slack float64) bool { return math.Abs(got-want) <= math.Max(0.05*want, slack) }
	if ts.Exec.Timed != ts.Executed || !near(float64(ts.Exec.MinNs), lo, 300e3) || !near(float64(ts.Exec.MaxNs), hi, 300e3) ||
		!near(float64(ts.Exec.SumNs), sum, 300e3*float64(len(want))) {
		t.Errorf("%s: execution min %.3f, max %.3f, total %.3f ms (%d timed); the tasks measured %.3f, %.3f, %.3f ms",
			what, float64(ts.Exec.MinNs)/1e6, float64(ts.Exec.MaxNs)/1e6, float64(ts.Exec.SumNs)/1e6, ts.Exec.Timed, lo/1e6, hi/1e6, sum/1e6)
	}
}

// taskloopRanges reads the [first, last] iterations of every taskloop
// task of a traced run, by region.
func taskloopRanges(t *testing.T, dir string) map[int][][2]int64 {
	t.Helper()
	first := map[uint64]int64{}
	out := map[int][][2]int64{}
	eachRecord(t, dir, func(rec events.Record) {
		switch rec.Type {
		case events.TaskloopBegin:
			first[rec.Args[0]] = int64(rec.Args[2])
		case events.TaskloopEnd:
			f, ok := first[rec.Args[0]]
			if !ok {
				t.Fatalf("TASKLOOP_END of task %#x without its begin", rec.Args[0])
			}
			out[int(rec.Region)] = append(out[int(rec.Region)], [2]int64{f, int64(rec.Args[1])})
		}
	})
	return out
}

// checkTaskloopRanges compares the iteration ranges of a taskloop's task
// records with those the program's tasks ran.
func checkTaskloopRanges(t *testing.T, what string, got [][2]int64, tasks []tlTask) {
	t.Helper()
	var want [][2]int64
	for _, k := range tasks {
		want = append(want, [2]int64{k.first, k.first + k.n - 1})
	}
	for _, l := range [][][2]int64{got, want} {
		sort.Slice(l, func(i, j int) bool { return l[i][0] < l[j][0] })
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s: task iteration ranges %v in the stream, the program ran %v", what, got, want)
	}
}

// TestTaskloopNestedClosing runs nestedtl.c: the workers of nested teams
// run C taskloop tasks in the closing barrier and see their end only
// when a later team recruits them, by which time another thread may
// hold their place in the team tree, or at the end of the run. Every
// place's exclusive times must still add up to its time in its teams
// (checkInvariants), every task end once, with its iterations. gcc and
// clang, passive waits (libomp's pool threads sleep), three runs each.
func TestTaskloopNestedClosing(t *testing.T) {
	needTools(t)
	for _, c := range compilers {
		c := c
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := build(t, c, "nestedtl.c")
			for i := 0; i < 3; i++ {
				prof, orig := compareRun(t, p, []string{"OMP_WAIT_POLICY=passive"})
				var iters, tasks uint64
				if _, err := fmt.Sscanf(orig.stdout, "iterations %d tasks %d", &iters, &tasks); err != nil {
					t.Fatalf("output %q: %v", orig.stdout, err)
				}
				tl := regionsOfKind(prof, "taskloop")
				if len(tl) != 1 {
					t.Fatalf("%d taskloop regions, want 1", len(tl))
				}
				var ended uint64
				for _, s := range prof.Stats {
					if s.Region == tl[0].ID && s.Body != nil {
						ended += s.Body.Visits
					}
				}
				ts := taskStats(prof, tl[0].ID)
				if ts.Executed != tasks || ended != tasks || ts.Iterations != iters {
					t.Errorf("%d taskloop tasks executed, %d ended, %d iterations; the program ran %d tasks of %d iterations",
						ts.Executed, ended, ts.Iterations, tasks, iters)
				}
			}
		})
	}
}
