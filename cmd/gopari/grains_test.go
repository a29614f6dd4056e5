package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"gopari/internal/events/evtest"
	"gopari/internal/grains"
)

func TestGrainsCommand(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	dir, base := filepath.Join(tmp, "exp"), filepath.Join(tmp, "base")
	if _, _, err := evtest.FibCreate(dir, 10, 2, 2, 1, 100, nil); err != nil {
		t.Fatal(err)
	}
	if _, _, err := evtest.FibCreate(base, 10, 2, 1, 1, 100, nil); err != nil {
		t.Fatal(err)
	}
	csv, dot, gml := filepath.Join(tmp, "g.csv"), filepath.Join(tmp, "g.dot"), filepath.Join(tmp, "g.graphml")
	code, stdout, stderr := gopari(t, "grains", "--csv", csv, "--dot", dot, "--graphml", gml, "--baseline", base, dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "108 grains: 108 tasks") || !strings.Contains(stdout, "task at fib.c:10:") || !strings.Contains(stdout, "parallel benefit < 1") {
		t.Errorf("summary:\n%s", stdout)
	}
	b, err := os.ReadFile(csv)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 109 || !strings.HasPrefix(lines[0], "kind,file,line,") {
		t.Errorf("%d CSV lines, header %q", len(lines), lines[0])
	}
	for _, f := range []string{dot, gml} {
		if st, err := os.Stat(f); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	// Grouping, and a damaged stream: an error naming file and offset,
	// and no output.
	code, _, stderr = gopari(t, "grains", "--dot", filepath.Join(tmp, "small.dot"), "--max-nodes", "10", dir)
	if code != 0 || !strings.Contains(stderr, "grouped by region and lineage depth") {
		t.Errorf("exit %d: %s", code, stderr)
	}
	f := filepath.Join(dir, "events", "thread-000001.evt")
	st, _ := os.Stat(f)
	os.Truncate(f, st.Size()-8)
	out := filepath.Join(tmp, "bad.csv")
	code, _, stderr = gopari(t, "grains", "--csv", out, dir)
	if code != 1 || !strings.Contains(stderr, "thread-000001.evt: offset ") || !strings.Contains(stderr, "truncated block") {
		t.Errorf("damaged: exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("%s written from a damaged stream", out)
	}
	if code, _, stderr := gopari(t, "grains", "--benefit", "0", dir); code != 2 {
		t.Errorf("--benefit 0: exit %d %s", code, stderr)
	}
}

// TestGrainsSlice cuts the grains of a synthetic fib run by --window and
// --threads: exactly the rows of the whole CSV that ran within the window
// on the threads remain, with the whole run's metrics; a large output is
// announced first; bad slices are refused.
func TestGrainsSlice(t *testing.T) {
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "exp")
	if _, _, err := evtest.FibCreate(dir, 12, 2, 2, 1000, 100, nil); err != nil {
		t.Fatal(err)
	}
	read := func(args ...string) ([]map[string]string, string) {
		t.Helper()
		csv := filepath.Join(tmp, "g.csv")
		os.Remove(csv)
		code, _, stderr := gopari(t, append(append([]string{"grains", "--csv", csv}, args...), dir)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		b, _ := os.ReadFile(csv)
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		head := strings.Split(lines[0], ",")
		var rows []map[string]string
		for _, l := range lines[1:] {
			row := map[string]string{}
			for i, v := range strings.Split(l, ",") {
				if i < len(head) {
					row[head[i]] = v
				}
			}
			rows = append(rows, row)
		}
		return rows, stderr
	}
	all, _ := read()
	num := func(s string) float64 { v, _ := strconv.ParseFloat(s, 64); return v }
	lo, hi := math.Inf(1), 0.0
	for _, r := range all {
		lo, hi = math.Min(lo, num(r["start_ns"])), math.Max(hi, num(r["end_ns"]))
	}
	from, to := lo+(hi-lo)/3, lo+2*(hi-lo)/3
	want := map[string]string{} // id -> the whole run's row
	for _, r := range all {
		if num(r["start_ns"]) < to && num(r["end_ns"]) > from && r["thread"] == "0.1" {
			want[r["id"]] = strings.Join([]string{r["start_ns"], r["parallel_benefit"], r["critical"]}, " ")
		}
	}
	if len(want) == 0 || len(want) == len(all) {
		t.Fatalf("the cut keeps %d of %d grains: no test", len(want), len(all))
	}
	grains.AnnounceFrom = 1
	defer func() { grains.AnnounceFrom = 64 << 20 }()
	cut, stderr := read("--window", fmt.Sprintf("%g:%g", from/1e9, to/1e9), "--threads", "0.1")
	got := map[string]string{}
	for _, r := range cut {
		got[r["id"]] = strings.Join([]string{r["start_ns"], r["parallel_benefit"], r["critical"]}, " ")
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("cut: %d grains, want %d:\n got %v\nwant %v", len(got), len(want), got, want)
	}
	if !strings.Contains(stderr, fmt.Sprintf("for %d of %d grains", len(want), len(all))) {
		t.Errorf("no announcement of the CSV's size: %q", stderr)
	}
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"--threads", "0.7"}, 1, "the run has no thread 0.7"},
		{[]string{"--threads", "x"}, 2, "is not a team path"},
		{[]string{"--window", "2:1"}, 2, "the end is not after the start"},
	} {
		if code, _, stderr := gopari(t, append(append([]string{"grains"}, c.args...), dir)...); code != c.code || !strings.Contains(stderr, c.msg) {
			t.Errorf("%v: exit %d, %q; want %d, %q", c.args, code, stderr, c.code, c.msg)
		}
	}
}
