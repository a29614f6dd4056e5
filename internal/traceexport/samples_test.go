//go:build otf2

package traceexport

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopari/internal/events"
	"gopari/internal/events/evtest"
	"gopari/internal/experiment"
	"gopari/internal/profile"
)

// dirSize is the bytes of the files below dir.
func dirSize(t *testing.T, dir string) int64 {
	t.Helper()
	var n int64
	err := filepath.Walk(dir, func(_ string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			n += fi.Size()
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestSampleEstimates: the Mixed run with 4,000 samples (1,000 a
// thread, a tick apart, on three paths of three to five frames), whose
// samples make most of every output, whole and cut to ticks from 1260
// and two threads: each output's estimate is within 10% of what is
// written, and each output's line says how many samples it wrote.
func TestSampleEstimates(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "exp")
	if _, err := evtest.Mixed(dir); err != nil {
		t.Fatal(err)
	}
	exp, err := events.OpenExperiment(dir)
	if err != nil {
		t.Fatal(err)
	}
	par, task := 0, 0
	for _, r := range exp.Profile.Regions {
		switch r.Kind {
		case "parallel":
			par = r.ID
		case "task":
			task = r.ID
		}
	}
	exp.Profile.CallPaths = &profile.CallPaths{
		Nodes: []profile.CallNode{{Parent: -1, Kind: "root"},
			{Parent: 0, Kind: "region", Region: par, Frame: "fork"},
			{Parent: 1, Kind: "function", Addr: 0x4000},
			{Parent: 2, Kind: "function", Addr: 0x5000},
			{Parent: 3, Kind: "region", Region: task, Frame: "task"}},
		Sampling: &profile.Sampling{Hz: 1000, Clock: "cpu", PeriodNs: 1e6},
	}
	var ss []events.Sample
	for loc := range exp.Threads {
		for i := range 1000 {
			ss = append(ss, events.Sample{Loc: uint32(loc), Node: uint32(2 + i%3), Tick: 1010 + uint64(i)}) // a tick each, as in a real run
		}
	}
	f, err := os.Create(experiment.Samples(dir))
	if err != nil {
		t.Fatal(err)
	}
	if err := events.WriteSamples(f, ss); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, c := range []struct {
		name    string
		window  *[2]float64
		threads map[string]bool
		samples int
	}{
		{"whole", nil, nil, 4000},
		{"cut", &[2]float64{260e-9, 1}, map[string]bool{"0.0": true, "0.1": true}, 2 * 750}, // ticks 1260 to 2009
	} {
		p, err := NewPlan(Source{Exp: exp}, c.window, c.threads)
		if err != nil {
			t.Fatal(err)
		}
		out := t.TempDir()
		js, pf, ar := filepath.Join(out, "run.json"), filepath.Join(out, "run.pftrace"), filepath.Join(out, "otf2")
		var lines []string
		for _, w := range []func() (string, int64, error){
			func() (string, int64, error) { return p.WriteChrome(io.Discard, js, false) },
			func() (string, int64, error) { return p.WritePerfetto(io.Discard, pf) },
			func() (string, int64, error) { return p.WriteOTF2(io.Discard, ar) },
		} {
			line, _, err := w()
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(line, fmt.Sprintf("%d samples)", c.samples)) {
				t.Errorf("%s: %q, want %d samples", c.name, line, c.samples)
			}
			lines = append(lines, line)
		}
		t.Log(strings.Join(lines, "\n"))
		for format, path := range map[string]string{"chrome": js, "perfetto": pf, "otf2": ar} {
			est, got := p.Estimate(format), dirSize(t, path)
			t.Logf("%s %s: estimated %d bytes, wrote %d (%+.1f%%)", c.name, format, est, got, 100*float64(est-got)/float64(got))
			if d := float64(est-got) / float64(got); d > 0.1 || d < -0.1 {
				t.Errorf("%s %s: estimated %d bytes, wrote %d", c.name, format, est, got)
			}
		}
	}
}
