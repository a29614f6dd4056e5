package traceexport

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"gopari/internal/events"
	"gopari/internal/events/evtest"
)

// TestParseWindow: seconds on either side, either side left out; what is
// not a window is refused with what to give.
func TestParseWindow(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in       string
		from, to float64
		err      string
	}{
		{"1.5:2", 1.5, 2, ""},
		{":0.5", 0, 0.5, ""},          // from the start
		{"5:", 5, math.Inf(1), ""},    // to the end
		{"2", 0, 0, "want START:END"}, // no colon
		{"2:1", 0, 0, "the end is not after the start"},
		{"1:1", 0, 0, "the end is not after the start"},
		{"a:2", 0, 0, `the start "a" is not a number of seconds`},
		{"1:-2", 0, 0, `the end "-2" is not a number of seconds`},
		{"NaN:1", 0, 0, `the start "NaN" is not`},
	} {
		from, to, err := ParseWindow(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || from != c.from || to != c.to {
			t.Errorf("%q: %v %v %v, want %v %v", c.in, from, to, err, c.from, c.to)
		}
	}
}

// TestParseThreads: team paths separated by commas; anything else is
// refused.
func TestParseThreads(t *testing.T) {
	t.Parallel()
	got, err := ParseThreads("0, 0.1,0.1.12")
	if err != nil || len(got) != 3 || !got["0"] || !got["0.1"] || !got["0.1.12"] {
		t.Errorf("%v %v", got, err)
	}
	for _, bad := range []string{"", ",", "0.x", "0..1", "-1", "t0"} {
		if _, err := ParseThreads(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// TestPlanErrors: a thread the run does not have is named with the
// run's threads; a window where the run has no record says how long the
// run lasts.
func TestPlanErrors(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "exp")
	if _, err := evtest.Mixed(dir); err != nil {
		t.Fatal(err)
	}
	exp, err := events.OpenExperiment(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewPlan(Source{Exp: exp}, nil, map[string]bool{"0.7": true}); err == nil ||
		!strings.Contains(err.Error(), "--threads: the run has no thread 0.7; its threads are 0, 0.0, 0.1, 0.1.0") {
		t.Errorf("unknown thread: %v", err)
	}
	if _, err := NewPlan(Source{Exp: exp}, &[2]float64{10, 20}, nil); err == nil ||
		!strings.Contains(err.Error(), "--window: the run has no record between 10 s and 20 s on the threads asked: it lasts 0.000") {
		t.Errorf("empty window: %v", err)
	}
	if _, err := NewPlan(Source{Exp: exp}, &[2]float64{10, math.Inf(1)}, nil); err == nil ||
		!strings.Contains(err.Error(), "--window: the run has no record after 10 s on the threads asked") {
		t.Errorf("empty open window: %v", err)
	}
	p, err := NewPlan(Source{Exp: exp}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if p.Kept == 0 || p.Kept > p.Records || p.Through != p.Records {
		t.Errorf("census: %d kept, %d through the end, of %d records", p.Kept, p.Through, p.Records)
	}
	if err := p.Refuse(ChromeLimit); err != nil {
		t.Errorf("refused at the limit: %v", err)
	}
	if err := p.Refuse(ChromeLimit + 1); err == nil || !strings.Contains(err.Error(), "the Chrome JSON would be about 1.0 GB") {
		t.Errorf("above the limit: %v", err)
	}
}

// TestSize prints byte counts as the messages do.
func TestSize(t *testing.T) {
	t.Parallel()
	for n, want := range map[int64]string{300: "300 B", 1500: "1.5 kB", 22_100_000_000: "22.1 GB", 317_400_000: "317.4 MB"} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}
