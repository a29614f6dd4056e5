package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// scalingRows are the constructs of the Table 1 of Iwainsky et al.
// ("How Many Threads will be too Many?", Euro-Par 2015) that
// bench/constructs.c measures, each with the region and metric whose
// model stands for it, and the class the paper's text gives for GNU 4.9 on
// its 128-core BCS node (Table 1 itself is a figure; its classes are
// quoted from the text). The text gives two classes for some: one for
// thread counts that are powers of two (PO2), one for 16x + 8 (ODD).
var scalingRows = []struct {
	name, fn, pragma, kind, metric, seed string
}{
	{"parallel", "static void test_parallel(", "#pragma omp parallel", "parallel", "construct", "super-logarithmic (PO2 and ODD)"},
	{"barrier", "static void test_barrier(", "#pragma omp barrier", "barrier", "construct", "super-linear (PO2); worse than logarithmic (ODD)"},
	{"single", "static void test_single(", "#pragma omp single", "single", "barrier", "(not described)"},
	{"for static,16", "LOOP(test_static16,", "", "for", "barrier", "(not described; constant expected)"},
	{"for dynamic,16", "LOOP(test_dynamic16,", "", "for", "barrier", "(not described; growth with t expected)"},
	{"for guided,16", "LOOP(test_guided16,", "", "for", "barrier", "(not described; growth with t expected)"},
	{"firstprivate", "static void test_firstprivate(", "#pragma omp parallel", "parallel", "construct", "faster than logarithmic, PO2 and ODD apart"},
	{"critical", "static void test_critical(", "#pragma omp critical", "critical", "construct", "(not in the paper)"},
	{"task creation", "static void test_task(", "#pragma omp task", "task", "task_create", "(not in the paper)"},
}

// sourceLine returns the line of the first line containing pragma at or
// after the line containing fn (or that line itself, for an empty
// pragma), or 0.
func sourceLine(src []byte, fn, pragma string) int {
	lines := strings.Split(string(src), "\n")
	for i, l := range lines {
		if !strings.Contains(l, fn) {
			continue
		}
		if pragma == "" {
			return i + 1
		}
		for j := i; j < len(lines); j++ {
			if strings.Contains(lines[j], pragma) {
				return j + 1
			}
		}
	}
	return 0
}

// scaling runs the construct microbenchmarks, instrumented, at every
// thread count from 1 to twice the cores through gopari scale (three
// runs each), and prints gopari model's model for each construct of
// that paper's Table 1 beside the class it found for GCC.
func (b *bench) scaling(w io.Writer) {
	var ts []string
	for t := 1; t <= 2*runtime.NumCPU(); t++ {
		ts = append(ts, strconv.Itoa(t))
	}
	if len(ts) < 3 {
		ts = []string{"1", "2", "3"}
	}
	target := "0.03"
	if *quick {
		target = "0.01"
	}
	src, err := os.ReadFile("bench/constructs.c")
	if err != nil {
		fatalf("%v", err)
	}
	out := filepath.Join(b.work, "scaling")
	cmd := exec.Command(b.gopari, "scale", "--threads", strings.Join(ts, ","), "--repeat", "3", "--out", out, "--json", "--top", "0",
		"--", b.exe["constructs.inst"], target)
	// Waiting threads sleep rather than spin: with more threads than
	// cores, or other work on the machine, spinning turns a descheduled
	// thread into milliseconds of barrier time that say nothing about
	// the runtime.
	cmd.Env = append(os.Environ(), "OMP_WAIT_POLICY=passive", "OMP_PROC_BIND=false", "GOPARI_MODE=profile")
	cmd.Dir = b.work
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	t0 := time.Now()
	if err := cmd.Run(); err != nil {
		fatalf("gopari scale: %v\n%s", err, stderr.String())
	}
	var models []struct {
		Line        int      `json:"line"`
		Kind        string   `json:"kind"`
		Metric      string   `json:"metric"`
		Stat        string   `json:"stat"`
		Model       string   `json:"model"`
		AdjR2       float64  `json:"adj_r2"`
		Noise       *float64 `json:"noise"`
		Verdict     string   `json:"verdict"`
		VerdictText string   `json:"verdict_text"`
		Growth      float64  `json:"growth"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &models); err != nil {
		fatalf("gopari scale --json: %v", err)
	}
	fmt.Fprintf(w, "## Scaling models of the constructs, t = %s, 3 runs each (gopari scale, %.0f s)\n\n", strings.Join(ts, ", "), time.Since(t0).Seconds())
	fmt.Fprintf(w, "Instrumented bench/constructs.c in profile mode, OMP_WAIT_POLICY=passive; each model is gopari model's for the region and metric named, per visit. ")
	fmt.Fprintf(w, "The last column is the class Iwainsky et al. (\"How Many Threads will be too Many?\", Euro-Par 2015) report for GNU 4.9 on a 128-core node (Table 1, as its text describes it).\n\n")
	fmt.Fprintf(w, "| construct | metric | model | adj R² | noise | verdict | Iwainsky et al., GCC |\n|---|---|---|---:|---:|---|---|\n")
	for _, r := range scalingRows {
		line := sourceLine(src, r.fn, r.pragma)
		found := false
		for _, m := range models {
			if m.Line != line || m.Kind != r.kind || m.Metric != r.metric {
				continue
			}
			noise := "-"
			if m.Noise != nil {
				noise = fmt.Sprintf("±%.0f%%", *m.Noise*100)
			}
			r2 := "-" // a constant explains no variance
			if strings.Contains(m.Model, "·") {
				r2 = fmt.Sprintf("%.3f", m.AdjR2)
			}
			fmt.Fprintf(w, "| %s | %s (%s) | %s | %s | %s | %s | %s |\n", r.name, m.Metric, m.Stat, m.Model, r2, noise, m.VerdictText, r.seed)
			found = true
		}
		if !found {
			fmt.Fprintf(w, "| %s | %s | no model (no data at 3 thread counts) | | | | %s |\n", r.name, r.metric, r.seed)
		}
	}
	fmt.Fprintf(w, "\nWith %d cores, counts above %d share cores; the paper ran one thread per core. Noise is the spread of the three runs at a count.\n\n", runtime.NumCPU(), runtime.NumCPU())
}
