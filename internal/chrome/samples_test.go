package chrome

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gopari/internal/callpath"
	"gopari/internal/events"
	"gopari/internal/events/evtest"
	"gopari/internal/experiment"
	"gopari/internal/profile"
)

// TestSamples exports the Mixed run (events from tick 1010 to 1520, 1
// ns a tick from tick 1000) with samples at ticks 1000 (before the first
// event), 1263 and 1600 (after the last) on every thread: one instant
// per sample, on its thread's track at its time, named by its path's
// innermost frame with the path in its args; cut to ticks 1200 to 1300
// and threads 0.0 and 0.1, those two threads' samples at 1263 only, and
// cut to ticks 1000 to 1100, the samples at 1000 though no event is
// there.
func TestSamples(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "exp")
	if _, err := evtest.Mixed(dir); err != nil {
		t.Fatal(err)
	}
	exp, err := events.OpenExperiment(dir)
	if err != nil {
		t.Fatal(err)
	}
	exp.Profile.CallPaths = &profile.CallPaths{
		Nodes:    []profile.CallNode{{Parent: -1, Kind: "root"}, {Parent: 0, Kind: "function", Addr: 0x4000}, {Parent: 0, Kind: "idle"}},
		Sampling: &profile.Sampling{Hz: 1000, Clock: "cpu", PeriodNs: 1e6},
	}
	tree, err := callpath.FromProfile(exp.Profile)
	if err != nil {
		t.Fatal(err)
	}
	var ss []events.Sample
	for loc := range exp.Threads {
		for i, tick := range []uint64{1000, 1263, 1600} {
			ss = append(ss, events.Sample{Loc: uint32(loc), Node: uint32(1 + (loc+i)%2), Tick: tick})
		}
	}
	var b bytes.Buffer
	if err := events.WriteSamples(&b, ss); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(experiment.Samples(dir), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	want := func(keep func(events.Sample) bool) []string {
		var out []string
		for _, s := range ss {
			if keep(s) {
				p := tree.Path(tree.Of[s.Node])
				out = append(out, strings.Join([]string{exp.Threads[s.Loc].Path, formatNs(float64(s.Tick - 1000)), "sample: " + p[len(p)-1], strings.Join(p, ";")}, " "))
			}
		}
		slices.Sort(out)
		return out
	}
	all := func(events.Sample) bool { return true }
	checkSamples(t, "whole", exp, Options{}, want(all))
	two := map[string]bool{"0.0": true, "0.1": true}
	checkSamples(t, "cut", exp, Options{Window: true, From: 200, To: 300, Threads: two}, want(func(s events.Sample) bool {
		return s.Tick == 1263 && two[exp.Threads[s.Loc].Path]
	}))
	checkSamples(t, "start", exp, Options{Window: true, From: 0, To: 100}, want(func(s events.Sample) bool { return s.Tick == 1000 }))
}

// formatNs is a time in µs as the JSON has it.
func formatNs(ns float64) string {
	b, _ := json.Marshal(ns / 1e3)
	return string(b)
}

// checkSamples exports exp cut as opt says and compares its sample
// instants ("THREAD TIME NAME PATH"; a track's tid is its location)
// with want.
func checkSamples(t *testing.T, name string, exp *events.Experiment, opt Options, want []string) {
	t.Helper()
	var buf bytes.Buffer
	st, err := WriteCut(&buf, exp, opt)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Check(bytes.NewReader(buf.Bytes())); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var doc struct {
		TraceEvents []struct {
			Ph, Name string
			Tid      int
			Ts       float64
			Args     struct{ Path string }
		}
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range doc.TraceEvents {
		if e.Ph == "i" && strings.HasPrefix(e.Name, "sample: ") {
			got = append(got, strings.Join([]string{exp.Threads[e.Tid].Path, formatNs(e.Ts * 1e3), e.Name, e.Args.Path}, " "))
		}
	}
	slices.Sort(got)
	if !slices.Equal(got, want) || st.Samples != int64(len(want)) {
		t.Errorf("%s: sample instants (Stats.Samples %d)\n%s\nwant\n%s", name, st.Samples, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
