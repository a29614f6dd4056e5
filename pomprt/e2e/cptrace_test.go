//go:build otf2

package e2e

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"gopari/internal/chrome"
	"gopari/internal/events"
	"gopari/internal/otf2"
	"gopari/internal/timeline"
)

// Function calls in traces (issue 25): a program built with --functions
// and traced records every measured call; the exports show each one as
// the call-path profile counts it.

// traceCalls is what the replay of a traced run says of its calls: per
// location path and function, the calls opened and closed, and the
// time of the calls of leaf (ns).
type traceCalls struct {
	opened, closed map[string]uint64
	leafNs         float64
	unmatched      int64
}

func callKey(loc, fn string) string { return loc + " " + fn }

// replayCalls replays the run in dir, naming functions as v does.
func replayCalls(t *testing.T, dir string, name func(uint64) string) traceCalls {
	t.Helper()
	exp, err := events.OpenExperiment(dir)
	if err != nil {
		t.Fatal(err)
	}
	tc := traceCalls{opened: map[string]uint64{}, closed: map[string]uint64{}}
	r := timeline.New(exp)
	err = r.Run(func(ev *timeline.Event) error {
		loc := exp.Threads[ev.Loc].Path
		if ev.Type == events.FuncEnter {
			tc.opened[callKey(loc, name(ev.Frame.ID))]++
		}
		for _, f := range ev.Calls {
			fn := name(f.ID)
			tc.closed[callKey(loc, fn)]++
			if fn == "leaf" {
				tc.leafNs += exp.Clock.Ns(ev.Time) - exp.Clock.Ns(f.Start)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	tc.unmatched = r.Stats.Unmatched
	return tc
}

// profileVisits returns the call-path profile's visits per location
// path and function.
func profileVisits(v *cpView) map[string]uint64 {
	out := map[string]uint64{}
	for li, m := range v.counts() {
		for id, c := range m {
			if v.cp.Nodes[id].Kind == "function" && c[0] > 0 {
				out[callKey(v.p.Threads[li].Path, v.names[id])] += c[0]
			}
		}
	}
	return out
}

// otf2Calls exports the run in dir as OTF2 and returns, per location
// path and function region, the ENTER records otf2-print reads; every
// location's ENTER and LEAVE records must nest.
func otf2Calls(t *testing.T, exp *events.Experiment) map[string]uint64 {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "otf2")
	if _, err := otf2.Write(dir, exp); err != nil {
		t.Fatal(err)
	}
	defs := otf2Print(t, dir, "-G")
	locs := locationNames(defs)
	funcs := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^REGION +\d+ +Name: "([^"]*)" .*Role: FUNCTION, Paradigm: COMPILER`).FindAllSubmatch(defs, -1) {
		funcs[string(m[1])] = true
	}
	out := map[string]uint64{}
	stacks := map[string][]string{}
	rec := regexp.MustCompile(`^(ENTER|LEAVE) +(\d+) +\d+ +Region: "([^"]*)"`)
	sc := bufio.NewScanner(bytes.NewReader(otf2Print(t, dir)))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		m := rec.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		loc, name := locs[m[2]], m[3]
		st := stacks[loc]
		if m[1] == "ENTER" {
			stacks[loc] = append(st, name)
			if funcs[name] {
				out[callKey(loc, name)]++
			}
			continue
		}
		if len(st) == 0 || st[len(st)-1] != name {
			t.Fatalf("location %s: LEAVE %q, the innermost region open is %v", loc, name, st)
		}
		stacks[loc] = st[:len(st)-1]
	}
	for loc, st := range stacks {
		if len(st) > 0 {
			t.Errorf("location %s: %v never left", loc, st)
		}
	}
	return out
}

// chromeCalls exports exp as Chrome JSON, which must check (slices
// nested and closed), and returns the names of its function slices.
func chromeCalls(t *testing.T, exp *events.Experiment) int {
	t.Helper()
	var js bytes.Buffer
	if _, err := chrome.Write(&js, exp); err != nil {
		t.Fatal(err)
	}
	s, err := chrome.Check(bytes.NewReader(js.Bytes()))
	if err != nil {
		t.Fatalf("Chrome JSON: %v", err)
	}
	if !bytes.Contains(js.Bytes(), []byte(`"cat":"function"`)) {
		t.Errorf("Chrome JSON has no function slices")
	}
	return s.Slices["function"]
}

// checkTraceCalls checks one traced run of exe against its profile.
func checkTraceCalls(t *testing.T, what, exe string, r result) {
	t.Helper()
	p := readProfile(t, r)
	v := newCPView(t, p, exe)
	checkCallPaths(t, v)
	syms := exeSymbols(t, exe)
	name := func(a uint64) string { return resolve(p.Mappings, exe, syms, a) }
	tc := replayCalls(t, r.dir, name)
	visits := profileVisits(v)
	if len(visits) == 0 || fmt.Sprint(tc.opened) != fmt.Sprint(visits) || fmt.Sprint(tc.closed) != fmt.Sprint(visits) {
		t.Errorf("%s: calls per location and function: trace opened %v, closed %v; the profile's visits %v", what, tc.opened, tc.closed, visits)
	}
	if tc.unmatched != 0 {
		t.Errorf("%s: the replay found %d records unmatched", what, tc.unmatched)
	}
	if self := float64(printed(t, r.stdout)["leaf"]); self > 0 && (tc.leafNs < 0.95*self || tc.leafNs > 1.05*self) {
		t.Errorf("%s: leaf's calls last %.0f ns in the trace, the program measured %.0f ns", what, tc.leafNs, self)
	}
	exp, err := events.OpenExperiment(r.dir)
	if err != nil {
		t.Fatal(err)
	}
	if o := otf2Calls(t, exp); fmt.Sprint(o) != fmt.Sprint(visits) {
		t.Errorf("%s: OTF2 ENTER records of functions per location %v, the profile's visits %v", what, o, visits)
	}
	if n := chromeCalls(t, exp); n < len(visits) {
		t.Errorf("%s: %d function slices in the Chrome JSON", what, n)
	}
}

// TestTraceCalls traces cpdeep.c (top -> mid -> leaf with known spins,
// then a parallel loop) and cptasks.c (tasks created in producer(), run
// by any thread) at 1 and 2 threads with every compiler: per location,
// the FUNC_ENTER records of each function, the calls the replay closes
// and the ENTER records of its OTF2 region equal the call-path profile's
// visits; leaf's calls last what the program measured; OTF2 and Chrome
// nest.
func TestTraceCalls(t *testing.T) {
	needTools(t)
	for _, c := range compilers {
		c := c
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			// ns(), which the spins call in a loop, is left out at compile
			// time: a trace of ten thousand calls, not a million.
			filter := filepath.Join(t.TempDir(), "ns.filter")
			if err := os.WriteFile(filter, []byte("SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE ns\nSCOREP_REGION_NAMES_END\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, prog := range []string{"cpdeep.c", "cptasks.c"} {
				exe := buildCC(t, c, prog, "--functions", "--filter", filter)
				for _, threads := range []string{"1", "2"} {
					what := fmt.Sprintf("%s, %s threads", prog, threads)
					r := run(t, exe, []string{"OMP_NUM_THREADS=" + threads, "GOPARI_MODE=trace"})
					if r.code != 0 {
						t.Fatalf("%s: exit %d: %s", what, r.code, r.stderr)
					}
					checkTraceCalls(t, what, exe, r)
				}
			}
		})
	}
}

// TestTraceCallsOnlyTraced: profile mode and grains mode record no call
// (the hooks test the stream's mask and write nothing), and a trace's
// budget counts calls as records: what it drops is marked.
func TestTraceCallsOnlyTraced(t *testing.T) {
	needTools(t)
	t.Parallel()
	exe := buildCC(t, compilers[0], "cptasks.c", "--functions")
	env := []string{"OMP_NUM_THREADS=2"}
	if r := run(t, exe, env); r.code != 0 || readProfile(t, r).Events != nil {
		t.Errorf("profile mode: exit %d, events %+v", r.code, readProfile(t, r).Events)
	}
	r := run(t, exe, append(env, "GOPARI_GRAINS=1"))
	_, byType, _ := streamTotals(t, r.dir)
	if r.code != 0 || byType[events.TaskBegin] == 0 || byType[events.FuncEnter]+byType[events.FuncExit]+byType[events.FuncAdopt] != 0 {
		t.Errorf("grains mode: exit %d, records %v", r.code, byType)
	}
	r = run(t, exe, append(env, "GOPARI_MODE=trace", "GOPARI_TRACE_MAX_BYTES=300K"))
	prof := readProfile(t, r)
	if r.code != 0 || prof.Events == nil || prof.Events.Dropped == 0 {
		t.Fatalf("budget: exit %d, events %+v", r.code, prof.Events)
	}
	want := map[int]int64{}
	for _, f := range prof.Events.Files {
		if f.Dropped > 0 {
			want[f.OSThread] += f.Dropped
		}
	}
	exp, err := events.OpenExperiment(r.dir)
	if err != nil {
		t.Fatal(err)
	}
	if o, c := otf2Gaps(t, exp, prof), chromeGaps(t, exp, prof); fmt.Sprint(o) != fmt.Sprint(want) || fmt.Sprint(c) != fmt.Sprint(want) {
		t.Errorf("budget: records in the gaps by OS thread: OTF2 %v, Chrome %v; profile.json %v", o, c, want)
	}
	otf2Calls(t, exp) // nests, whatever was dropped
}
