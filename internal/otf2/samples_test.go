//go:build otf2

package otf2

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gopari/internal/callpath"
	"gopari/internal/events"
	"gopari/internal/events/evtest"
	"gopari/internal/experiment"
	"gopari/internal/profile"
	"gopari/internal/timeline"
)

// sampled gives the Mixed run exp call paths (the root; the parallel
// region, fork and implicit task; a function below it; a task below
// that, and a task of the same construct below that; the idle node) and a samples file: per location, 5 samples
// spread over the time it has events, their nodes in turn. It returns
// the samples and the call-path tree.
func sampled(t *testing.T, exp *events.Experiment) ([]events.Sample, *callpath.Tree) {
	t.Helper()
	par, task := -1, -1
	for _, r := range exp.Profile.Regions {
		if r.Kind == "parallel" && par < 0 {
			par = r.ID
		}
		if r.Kind == "task" {
			task = r.ID
		}
	}
	if par < 0 || task < 0 {
		t.Fatalf("no parallel or task region in %s", exp.Dir)
	}
	exp.Profile.CallPaths = &profile.CallPaths{
		Nodes: []profile.CallNode{{Parent: -1, Kind: "root"},
			{Parent: 0, Kind: "region", Region: par, Frame: "fork"},
			{Parent: 1, Kind: "region", Region: par, Frame: "implicit"},
			{Parent: 2, Kind: "function", Addr: 0x4000},
			{Parent: 3, Kind: "region", Region: task, Frame: "task"},
			{Parent: 0, Kind: "idle"},
			{Parent: 4, Kind: "region", Region: task, Frame: "task"}}, // a task in a task of one construct
		Sampling: &profile.Sampling{Hz: 1000, Clock: "cpu", PeriodNs: 1e6},
	}
	tree, err := callpath.FromProfile(exp.Profile)
	if err != nil {
		t.Fatal(err)
	}
	span := make([][2]uint64, len(exp.Threads))
	r := timeline.New(exp)
	if err := r.Run(func(ev *timeline.Event) error {
		if s := &span[ev.Loc]; s[0] == 0 || ev.Time < s[0] {
			s[0] = ev.Time
		}
		span[ev.Loc][1] = max(span[ev.Loc][1], ev.Time)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	var ss []events.Sample
	nodes := []uint32{2, 3, 4, 6, 6, 5} // thread 0.0: two in the inner task, a task begun and ended between
	for loc, s := range span {
		for i := range 5 {
			tick := s[0] + (s[1]-s[0])*uint64(i)/4
			if i > 0 && i < 4 {
				tick = min(tick+3, s[1]) // between events, 10 ticks apart
			}
			ss = append(ss, events.Sample{Loc: uint32(loc), Node: nodes[(loc+i)%len(nodes)], Tick: tick})
		}
	}
	f, err := os.Create(experiment.Samples(exp.Dir))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := events.WriteSamples(f, ss); err != nil {
		t.Fatal(err)
	}
	return ss, tree
}

// A ctxSample is a CALLING_CONTEXT_SAMPLE of otf2-print's listing, with
// the regions its location entered or left since its previous sample.
type ctxSample struct {
	loc      int
	time     uint64
	ctx      string
	distance int
	touched  map[string]bool
}

// contexts reads an archive's calling contexts (ID -> region name and
// parent ID, "" for none) and its samples; otf2-print must read both
// without complaint.
func contexts(t *testing.T, dir string) (map[string][2]string, []ctxSample) {
	t.Helper()
	defs := regexp.MustCompile(`(?m)^CALLING_CONTEXT +(\d+) +Region: "([^"]*)" <\d+>, Source code location: [^,]*, Parent: (?:UNDEFINED|"[^"]*" <(\d+)>)$`)
	ctx := map[string][2]string{}
	for _, m := range defs.FindAllStringSubmatch(string(otf2Print(t, dir, "-G")), -1) {
		ctx[m[1]] = [2]string{m[2], m[3]}
	}
	sample := regexp.MustCompile(`^Calling Context: "[^"]*" <(\d+)>, Unwind Distance: (\d+), Interrupt Generator: "GOPARI_SAMPLE_HZ=1000 \(thread CPU time\)" <0>$`)
	region := regexp.MustCompile(`^Region: "([^"]*)"`)
	touched := map[int]map[string]bool{}
	var out []ctxSample
	for _, e := range listing(t, dir) {
		if e.typ == "ENTER" || e.typ == "LEAVE" {
			if touched[e.loc] == nil {
				touched[e.loc] = map[string]bool{}
			}
			touched[e.loc][region.FindStringSubmatch(e.rest)[1]] = true
		}
		if e.typ != "CALLING_CONTEXT_SAMPLE" {
			continue
		}
		m := sample.FindStringSubmatch(e.rest)
		if m == nil {
			t.Fatalf("a sample %q", e.rest)
		}
		d, _ := strconv.Atoi(m[2])
		out = append(out, ctxSample{e.loc, e.time, m[1], d, touched[e.loc]})
		touched[e.loc] = nil
	}
	return ctx, out
}

// chain names the frames of context id, outermost first.
func chain(ctx map[string][2]string, id string) []string {
	var out []string
	for ; id != ""; id = ctx[id][1] {
		out = append([]string{ctx[id][0]}, out...)
	}
	return out
}

// checkDistances checks each sample's unwind distance against the
// previous sample on its location: the frames of its context below the
// deepest one the two share, plus one; or, when its location entered or
// left the region of a shared frame in between, below that frame's
// parent (the outermost such frame; of a region the chain repeats, its
// innermost place counts).
func checkDistances(t *testing.T, ctx map[string][2]string, got []ctxSample) {
	t.Helper()
	prev := map[int]string{}
	for _, s := range got {
		var ids, before []string // the two contexts and their ancestors, innermost first
		for id := s.ctx; id != ""; id = ctx[id][1] {
			ids = append(ids, id)
		}
		for id := prev[s.loc]; id != ""; id = ctx[id][1] {
			before = append(before, id)
		}
		shared := 0 // frames shared from the root
		for shared < min(len(ids), len(before)) && ids[len(ids)-1-shared] == before[len(before)-1-shared] {
			shared++
		}
		kept := shared
		for i := 0; i < shared; i++ { // from the root down
			name := ctx[ids[len(ids)-1-i]][0]
			inner := false
			for j := i + 1; j < shared; j++ {
				inner = inner || ctx[ids[len(ids)-1-j]][0] == name
			}
			if s.touched[name] && !inner {
				kept = i
				break
			}
		}
		if want := len(ids) - kept + 1; s.distance != want {
			t.Errorf("a sample at %d on location %d: unwind distance %d in %v after %v (regions entered or left between: %v), want %d",
				s.time, s.loc, s.distance, ids, before, s.touched, want)
		}
		prev[s.loc] = s.ctx
	}
}

// TestSamples writes the sampled Mixed run: one CALLING_CONTEXT_SAMPLE
// per sample, on its location at its tick, its context's chain the
// frames of its call path, the other events those of the run without
// samples; unwind distances as OTF2 defines them; and
// cut to a window and two threads, the samples there.
func TestSamples(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "exp")
	if _, err := evtest.Mixed(dir); err != nil {
		t.Fatal(err)
	}
	exp, err := events.OpenExperiment(dir)
	if err != nil {
		t.Fatal(err)
	}
	plain := filepath.Join(t.TempDir(), "plain")
	if _, err := Write(plain, exp); err != nil {
		t.Fatal(err)
	}
	ss, tree := sampled(t, exp)
	whole := filepath.Join(t.TempDir(), "whole")
	st, err := Write(whole, exp)
	if err != nil {
		t.Fatal(err)
	}
	// The other events are as they were: the samples taken at a thread
	// while its team ran, before the team's fork is written (at its
	// join), move no fork.
	// References aside: regions are numbered as first used.
	ref := regexp.MustCompile(` <\d+>`)
	var before, after []string
	for _, e := range listing(t, whole) {
		if e.typ != "CALLING_CONTEXT_SAMPLE" {
			after = append(after, fmt.Sprintf("%s %d %d %s", e.typ, e.loc, e.time, ref.ReplaceAllString(e.rest, "")))
		}
	}
	for _, e := range listing(t, plain) {
		before = append(before, fmt.Sprintf("%s %d %d %s", e.typ, e.loc, e.time, ref.ReplaceAllString(e.rest, "")))
	}
	if !slices.Equal(before, after) {
		t.Errorf("the events besides the samples differ from those of the run without samples:\n%s\n%s", strings.Join(before, "\n"), strings.Join(after, "\n"))
	}
	ctx, got := contexts(t, whole)
	if len(got) != len(ss) || st.Records["CALLING_CONTEXT_SAMPLE"] != int64(len(ss)) {
		t.Fatalf("%d samples in the archive (exporter: %d), want %d", len(got), st.Records["CALLING_CONTEXT_SAMPLE"], len(ss))
	}
	want := map[string]int{}
	for _, s := range ss {
		want[strconv.Itoa(int(s.Loc))+" "+strconv.FormatUint(s.Tick, 10)+" "+strings.Join(tree.Path(tree.Of[s.Node]), ";")]++
	}
	for _, s := range got {
		k := strconv.Itoa(s.loc) + " " + strconv.FormatUint(s.time, 10) + " " + strings.Join(chain(ctx, s.ctx), ";")
		if want[k] == 0 {
			t.Errorf("a sample (location, tick, chain) %s that the run did not take; it took %v", k, want)
		}
		want[k]--
	}
	checkDistances(t, ctx, got)

	// From a third of the run to a sample of thread 0.0 or 0.1 taken
	// later than that and between two events (1 ns a tick from tick
	// 1000): the samples before the window's end that no event follows
	// there are written too.
	kept := map[string]bool{"0.0": true, "0.1": true}
	var last uint64
	evTimes := map[uint64]bool{}
	for _, e := range listing(t, whole) {
		if e.typ != "CALLING_CONTEXT_SAMPLE" {
			last = max(last, e.time)
			evTimes[e.time] = true
		}
	}
	from, to := float64(last-exp.Clock.Tick0)/3, 0.0
	for _, s := range ss {
		if at := float64(s.Tick - exp.Clock.Tick0); kept[exp.Threads[s.Loc].Path] && !evTimes[s.Tick] && at > from && at < float64(last-exp.Clock.Tick0) {
			to = max(to, at)
		}
	}
	if to == 0 {
		t.Fatal("no sample of threads 0.0 and 0.1 between two events in the last two thirds")
	}
	cut := filepath.Join(t.TempDir(), "cut")
	if _, err := WriteWith(cut, exp, Options{Window: true, From: from, To: to, Threads: kept}); err != nil {
		t.Fatal(err)
	}
	_, gotCut := contexts(t, cut)
	var n int
	for _, s := range ss {
		if at := float64(s.Tick - exp.Clock.Tick0); kept[exp.Threads[s.Loc].Path] && at >= from && at <= to {
			n++
		}
	}
	if len(gotCut) != n || n == 0 {
		t.Errorf("%d samples in the cut archive, want the %d of threads 0.0 and 0.1 from %g to %g ns", len(gotCut), n, from, to)
	}
}

// TestJobSamples writes a job of two sampled Mixed ranks: every rank's
// samples, on its own locations.
func TestJobSamples(t *testing.T) {
	_, ranks := mixedJob(t)
	want := map[int]int{}
	for i, r := range ranks {
		ss, _ := sampled(t, r.Exp)
		for _, s := range ss {
			want[i*len(r.Exp.Threads)+int(s.Loc)]++
		}
	}
	out := filepath.Join(t.TempDir(), "otf2")
	if _, err := WriteJob(out, "ompi-7", ranks); err != nil {
		t.Fatal(err)
	}
	ctx, got := contexts(t, out)
	perLoc := map[int]int{}
	for _, s := range got {
		perLoc[s.loc]++
	}
	if len(perLoc) != len(want) || len(got) == 0 {
		t.Fatalf("samples per location %v, want %v", perLoc, want)
	}
	for loc, n := range want {
		if perLoc[loc] != n {
			t.Errorf("location %d: %d samples, want %d", loc, perLoc[loc], n)
		}
	}
	checkDistances(t, ctx, got)
}
