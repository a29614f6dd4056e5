package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"gopari/internal/experiment"
)

// trace measures trace mode (issue 13) on the tiny-task program: what a
// task costs each thread above profile mode at 1 and 2 threads, in
// alternating rounds with the stream written in full, how many bytes of
// stream a task takes, and the peak memory at 10^6 and 10^8 tasks (the
// 10^8 stream cut by GOPARI_TRACE_MAX_BYTES, which spares 7 GB of disk:
// the buffers and the code that fills them are the same).
func (b *bench) trace(w io.Writer) {
	n := "2000000"
	if *quick {
		n = "200000"
	}
	fmt.Fprintf(w, "## Trace mode: tiny tasks, %s tasks per thread, the stream written\n\n", n)
	fmt.Fprintf(w, "Unwritten: trace mode with its stream cut after 1 MiB (GOPARI_TRACE_MAX_BYTES=1M): every record is made, "+
		"the blocks are dropped instead of written; the difference to trace is what writing the stream (write(2) into the page cache) costs.\n\n")
	fmt.Fprintf(w, "CPU: the process's CPU time (user and system) over its tasks, which a loaded machine inflates less than the wall time "+
		"the program measures around its tasks (ns/task); per task and thread, that is what a task costs the threads together.\n\n")
	fmt.Fprintf(w, "| threads | uninstrumented ns/task | profile | trace | unwritten | trace above profile, per task and thread | of which writing | "+
		"CPU ns/task: profile | trace | above profile | of which writing | stream bytes per task |\n"+
		"|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	// The target (issue 27): the clock reads trace mode adds to a task
	// (at most four), and at most 10 ns per task and thread above them,
	// whatever a read costs on this CPU; and no more per task and thread
	// at 2 threads than at 1.
	reads := b.tinyClockReads("trace") - b.tinyClockReads("profile")
	readNs := b.clockReadNs()
	var rest, restCPU []float64
	for _, threads := range []int{1, 2} {
		per, cpu := b.tracePairs(threads, n)
		over := added(per, "trace", "profile") * float64(threads)
		writing := added(per, "trace", "trace-unwritten") * float64(threads)
		overCPU, writingCPU := added(cpu, "trace", "profile"), added(cpu, "trace", "trace-unwritten")
		bytes := b.streamBytes(threads, n)
		rest = append(rest, over-reads*readNs)
		restCPU = append(restCPU, overCPU-reads*readNs)
		fmt.Fprintf(w, "| %d | %.2f | %.2f | %.2f | %.2f | %+.2f | %+.2f | %.2f | %.2f | %+.2f | %+.2f | %.1f |\n", threads, median(per["orig"]),
			median(per["profile"]), median(per["trace"]), median(per["trace-unwritten"]), over, writing,
			median(cpu["profile"]), median(cpu["trace"]), overCPU, writingCPU, bytes)
		b.check(fmt.Sprintf("trace mode, tiny tasks, %d thread(s), above its clock reads", threads), "<= 10 ns/task/thread",
			fmt.Sprintf("%+.2f ns (%+.2f ns less %.2f reads of %.1f ns)", rest[len(rest)-1], over, reads, readNs), rest[len(rest)-1] <= 10, "")
		b.check(fmt.Sprintf("trace mode, tiny tasks, %d thread(s), above its clock reads, CPU time", threads), "<= 10 ns/task/thread",
			fmt.Sprintf("%+.2f ns (%+.2f ns less %.2f reads of %.1f ns)", restCPU[len(restCPU)-1], overCPU, reads, readNs), restCPU[len(restCPU)-1] <= 10, "")
	}
	fmt.Fprintf(w, "\nTrace mode adds %.2f clock reads per tiny task to profile mode (callgrind, 1 thread); a read costs %.1f ns here.\n\n", reads, readNs)
	b.check("trace mode, tiny tasks, 2 threads vs 1, above the reads", "no more per task and thread",
		fmt.Sprintf("%+.2f vs %+.2f ns", rest[1], rest[0]), rest[1] <= rest[0]+1, "within 1 ns")
	b.check("trace mode, tiny tasks, 2 threads vs 1, above the reads, CPU time", "no more per task and thread",
		fmt.Sprintf("%+.2f vs %+.2f ns", restCPU[1], restCPU[0]), restCPU[1] <= restCPU[0]+1, "within 1 ns")
	small, large := "1000000", "100000000"
	if *quick {
		small, large = "100000", "1000000"
	}
	fmt.Fprintf(w, "| tasks, 1 thread | peak RSS, trace mode (stream cut at 64 MiB) |\n|---:|---:|\n")
	var peaks []int64
	for _, tasks := range []string{small, large} {
		_, stderr := b.traceRun(1, tasks, "GOPARI_TRACE_MAX_BYTES=64M")
		peaks = append(peaks, peakKiB(stderr))
		fmt.Fprintf(w, "| %s | %.1f MiB |\n", tasks, float64(peaks[len(peaks)-1])/1024)
	}
	fmt.Fprintln(w)
	grew := float64(peaks[1]-peaks[0]) / 1024
	b.check("trace mode, peak memory, "+large+" vs "+small+" tasks", "within 20 MiB", fmt.Sprintf("%+.1f MiB", grew), grew <= 20, "")
}

// tracePairs runs the tiny program uninstrumented, in profile mode, in
// trace mode and in trace mode with its stream cut after 1 MiB, in
// rounds, and returns the ns/task it prints and its CPU time per task,
// by mode, round by round.
func (b *bench) tracePairs(threads int, n string) (wall, cpu map[string][]float64) {
	wall, cpu = map[string][]float64{}, map[string][]float64{}
	tasks, err := strconv.ParseFloat(n, 64)
	if err != nil {
		fatalf("%v", err)
	}
	roundsOf([]string{"orig", "profile", "trace", "trace-unwritten"}, *pairs, func(mode string, r int) {
		_, stderr, _ := b.run("tiny", mode, threads, n)
		wall[mode] = append(wall[mode], readFigure("tiny", stderr, "ns/task"))
		cpu[mode] = append(cpu[mode], float64(b.lastCPU.Nanoseconds())/(tasks*float64(threads)))
	})
	return wall, cpu
}

// streamBytes runs the tiny program traced once and returns the stream's
// bytes per task, from profile.json.
func (b *bench) streamBytes(threads int, n string) float64 {
	prof, _ := b.traceRun(threads, n)
	var p struct {
		Events struct{ Bytes int64 } `json:"events"`
		Tasks  []struct{ Created int64 }
	}
	if err := json.Unmarshal(prof, &p); err != nil {
		fatalf("tiny's profile: %v", err)
	}
	var tasks int64
	for _, t := range p.Tasks {
		tasks += t.Created
	}
	if tasks == 0 {
		fatalf("tiny's profile counts no task")
	}
	return float64(p.Events.Bytes) / float64(tasks)
}

// traceRun runs the tiny program in trace mode and returns its
// profile.json and its stderr.
func (b *bench) traceRun(threads int, n string, env ...string) ([]byte, string) {
	dir, err := os.MkdirTemp(b.work, "trace-")
	if err != nil {
		fatalf("%v", err)
	}
	defer os.RemoveAll(dir)
	cmd := exec.Command(b.exe["tiny.inst"], n)
	exp := filepath.Join(dir, "exp")
	cmd.Env = append(append(os.Environ(), "OMP_NUM_THREADS="+strconv.Itoa(threads), "GOPARI_MODE=trace",
		"GOPARI_EXPERIMENT_DIRECTORY="+exp), env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		fatalf("tiny in trace mode: %v\n%s", err, stderr.String())
	}
	prof, err := os.ReadFile(experiment.Profile(exp))
	if err != nil {
		fatalf("%v", err)
	}
	return prof, stderr.String()
}
