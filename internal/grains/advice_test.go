package grains

import (
	"path/filepath"
	"strings"
	"testing"

	"gopari/internal/events/evtest"
)

// TestAdvice: what the summary advises for a construct, by its clauses;
// never what the clauses already do.
func TestAdvice(t *testing.T) {
	for _, tc := range []struct {
		kind     Kind
		clauses  string
		balance  string // balanceAdvice, for loops
		benefit  string // benefitAdvice
		notAgain string // advice must not repeat this
	}{
		// No schedule clause: static, one chunk per thread.
		{Chunk, "reduction(max: hottest)", "try schedule(dynamic) or schedule(static, k) with a small k", "its chunks are already one per thread: the loop is too short to share (an if clause, or fuse it with a neighbour)", "larger chunks"},
		{Chunk, "schedule(static) reduction(max: change)", "try schedule(dynamic) or schedule(static, k) with a small k", "its chunks are already one per thread: the loop is too short to share (an if clause, or fuse it with a neighbour)", "larger chunks"},
		{Chunk, "schedule(static, 8)", "try schedule(dynamic, 8) or chunks smaller than 8", "use chunks larger than 8", "schedule(static"},
		// The case: schedule(dynamic,4) is not told to try schedule(dynamic).
		{Chunk, "schedule(dynamic,4)", "try chunks smaller than 4", "use chunks larger than 4", "schedule(dynamic"},
		{Chunk, "schedule(nonmonotonic: dynamic)", "it already hands out one iteration at a time: split its costly iterations", "give schedule(dynamic) a chunk size (larger chunks)", "try schedule(dynamic"},
		{Chunk, "schedule(monotonic, simd: dynamic, n/4)", "try chunks smaller than n/4", "use chunks larger than n/4", "try schedule(dynamic"},
		{Chunk, "schedule(guided, 2)", "try schedule(dynamic) with small chunks, or a smaller minimum chunk", "use chunks larger than 2", "guided"},
		{Chunk, "schedule(runtime)", "set OMP_SCHEDULE to dynamic with small chunks", "set a larger chunk size in OMP_SCHEDULE", "schedule(runtime"},
		{Taskloop, "grainsize(strict: 16)", "", "raise grainsize above 16", "lower"},
		{Taskloop, "num_tasks(64) nogroup", "", "lower num_tasks below 64", "grainsize"},
		{Taskloop, "", "", "give it a grainsize (create fewer, larger tasks)", "num_tasks"},
		{Task, "firstprivate(col)", "", "raise the cutoff (create fewer, larger tasks)", "grainsize"},
	} {
		if tc.kind == Chunk {
			if got := balanceAdvice(tc.clauses); got != tc.balance || strings.Contains(got, tc.notAgain) {
				t.Errorf("balance advice for %q: %q, want %q", tc.clauses, got, tc.balance)
			}
		}
		if got := benefitAdvice(tc.kind, tc.clauses); got != tc.benefit || strings.Contains(got, tc.notAgain) {
			t.Errorf("benefit advice for %s %q: %q, want %q", tc.kind, tc.clauses, got, tc.benefit)
		}
	}
}

// TestSummaryAgrees: a loop imbalanced in one of its three executions
// has its chunks flagged in the CSV; the summary, which reports a loop
// only when most executions are, says so rather than "no problem found".
func TestSummaryAgrees(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "exp")
	calls := 0
	cost := func(i int) uint64 {
		calls++
		if calls <= 64 { // the first execution only
			return uint64(100 + 40*i)
		}
		return 100
	}
	if _, _, err := evtest.Loop(dir, "static", 64, 0, 4, 3, cost, 0); err != nil {
		t.Fatal(err)
	}
	_, _, rows, sum := analyze(t, dir, Options{}, nil)
	flagged := 0
	for _, r := range rows[1:] {
		if strings.Contains(r[column(rows, "problems")], "imbalance") {
			flagged++
		}
	}
	if flagged != 4 {
		t.Errorf("%d chunks flagged, want the 4 of the first execution", flagged)
	}
	if strings.Contains(sum, "no problem found") || !strings.Contains(sum, "loop at loop.c:6: 1 of 3 executions with load balance below 0.8") {
		t.Errorf("summary does not say what it flags:\n%s", sum)
	}
}
