package chrome

import (
	"bytes"
	"io"
	"math"
	"path/filepath"
	"testing"

	"gopari/internal/events"
	"gopari/internal/events/evtest"
)

// estimate returns the estimated and the written size of exp's JSON cut
// as opt says.
func estimate(t *testing.T, exp *events.Experiment, opt Options) (int64, int64) {
	t.Helper()
	runs := []Run{OneRun(exp)}
	cs, err := Census(runs, opt)
	if err != nil {
		t.Fatal(err)
	}
	est := Estimate(NewJSON(io.Discard), runs, cs, opt)
	var b bytes.Buffer
	if _, err := WriteCut(&b, exp, opt); err != nil {
		t.Fatal(err)
	}
	return est, int64(b.Len())
}

// TestEstimate: the estimated size of the JSON of scenarios with many
// tasks (Fib) and with loops (Loop), whole and cut to a thread, is within
// 10% of what is written. (Mixed, a few of every record, is only
// logged: its 11 kB are metadata and rare events.)
func TestEstimate(t *testing.T) {
	t.Parallel()
	fib := func(dir string) (*evtest.Sim, error) {
		s, _, err := evtest.Fib(dir, 16, 3, 4, 40, func(n int) bool { return n == 4 })
		return s, err
	}
	loop := func(dir string) (*evtest.Sim, error) {
		s, _, err := evtest.Loop(dir, "dynamic,4", 4000, 4, 4, 3, func(i int) uint64 { return uint64(10 + i%7) }, 5)
		return s, err
	}
	for name, mk := range map[string]func(string) (*evtest.Sim, error){"fib": fib, "loop": loop, "mixed": evtest.Mixed} {
		dir := filepath.Join(t.TempDir(), name)
		if _, err := mk(dir); err != nil {
			t.Fatal(err)
		}
		exp, err := events.OpenExperiment(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, opt := range []Options{{}, {Threads: map[string]bool{"0.1": true}}} {
			est, got := estimate(t, exp, opt)
			t.Logf("%s %v: estimated %d bytes, wrote %d (%+.1f%%)", name, opt.Threads, est, got, 100*float64(est-got)/float64(got))
			if d := float64(est-got) / float64(got); (d > 0.1 || d < -0.1) && name != "mixed" {
				t.Errorf("%s %v: estimated %d bytes, wrote %d", name, opt.Threads, est, got)
			}
		}
	}
}

// TestOpenWindow: a window without an end (--window 5:) keeps the rest
// of the run, and otherData says so with a null end.
func TestOpenWindow(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "exp")
	if _, err := evtest.Mixed(dir); err != nil {
		t.Fatal(err)
	}
	exp, err := events.OpenExperiment(dir)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := WriteCut(&b, exp, Options{Window: true, From: 500, To: math.Inf(1)}); err != nil {
		t.Fatal(err)
	}
	if _, err := Check(bytes.NewReader(b.Bytes())); err != nil {
		t.Fatalf("%v\n%s", err, b.Bytes())
	}
	if !bytes.Contains(b.Bytes(), []byte(`"window_us":[0.500,null]`)) {
		t.Errorf("otherData: %s", b.Bytes()[bytes.LastIndex(b.Bytes(), []byte("otherData")):])
	}
}
