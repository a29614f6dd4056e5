package callpath_test

import (
	"bytes"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gopari/internal/callpath"
	"gopari/internal/callpath/cptest"
	"gopari/internal/filter"
	"gopari/internal/profile"
	"gopari/internal/symbols/symtest"
)

// TestPropose checks the functions proposed, their figures and the
// filter file against the truth cptest.Hot built, and that the filter
// reads back to exactly that decision for every function of the run.
func TestPropose(t *testing.T) {
	t.Parallel()
	p := cptest.Hot(t)
	pr, err := callpath.Propose([]*profile.Profile{p}, callpath.Thresholds{MinVisits: callpath.DefaultMinVisits})
	if err != nil {
		t.Fatal(err)
	}
	if pr.CallCostNs != 20 || pr.MaxMeanNs != 400 || !strings.Contains(pr.CallCostHow, "measured") {
		t.Errorf("call cost %v (%s), max mean %v; want 20 measured, 400", pr.CallCostNs, pr.CallCostHow, pr.MaxMeanNs)
	}
	if len(pr.Excluded) != 1 {
		t.Fatalf("excluded %+v, want leaf alone", pr.Excluded)
	}
	leaf := pr.Excluded[0]
	if leaf.Name != "leaf" || leaf.Visits != 1e6 || leaf.ExclNs != 5e6 || leaf.MeanNs() != 5 || leaf.SavingNs != 20e6 {
		t.Errorf("leaf: %+v, want 10^6 visits, 5 ms, mean 5 ns, saving 20 ms", leaf)
	}
	if pr.SavingNs != 20e6 || pr.Functions != 4 || pr.Unnamed != 0 {
		t.Errorf("saving %v of %d functions (%d unnamed), want 20 ms of 4 (0)", pr.SavingNs, pr.Functions, pr.Unnamed)
	}
	text := roundTrip(t, pr, "gopari-1")
	for _, want := range []string{
		"# Proposed by gopari filter for gopari-1.\n",
		"costs 20 ns, measured by the run (call_cost_ns)",
		"at least 100000 visits (--min-visits)",
		"at most 400 ns (--max-mean; 20 x the call cost)",
		"Estimated saving: 20.0 ms of the ",
		"1 of 4 functions excluded",
		// leaf is the only function of the program that holds "leaf":
		// GCC can leave it out.
		"  EXCLUDE *leaf*  # 1000000 visits, mean 5 ns, saves ~20.0 ms; wider than leaf so that GCC leaves it out at compile time: it matches no function of this program that is measured\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the filter lacks %q:\n%s", want, text)
		}
	}
}

// roundTrip writes pr's filter, parses it back and checks that it
// measures every function of pr's run but the excluded ones; it returns
// the file's text.
func roundTrip(t *testing.T, pr *callpath.Proposal, run string) string {
	t.Helper()
	var b bytes.Buffer
	if _, err := pr.Filter(run).WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	f, err := filter.Parse("f.filt", b.Bytes())
	if err != nil {
		t.Fatalf("%v:\n%s", err, b.String())
	}
	if len(f.Regions) != len(pr.Excluded) || len(f.Files) != 0 {
		t.Errorf("read back %d region rules and %d file rules, want %d and 0", len(f.Regions), len(f.Files), len(pr.Excluded))
	}
	excluded := map[string]bool{}
	for _, fn := range pr.Excluded {
		excluded[fn.Name] = true
	}
	for _, name := range []string{"main", "top", "mid", "leaf"} {
		if got := f.Function(name, name, "paths.c"); got == excluded[name] {
			t.Errorf("read back: %s measured %v, want %v", name, got, !excluded[name])
		}
	}
	return b.String()
}

// TestProposeJob sums a job's ranks: visits and savings add up.
func TestProposeJob(t *testing.T) {
	t.Parallel()
	p := cptest.Hot(t)
	q := *p
	q.CallPaths = &profile.CallPaths{}
	*q.CallPaths = *p.CallPaths
	q.CallPaths.CallCostNs = 30
	pr, err := callpath.Propose([]*profile.Profile{p, &q}, callpath.Thresholds{MinVisits: 1_500_000})
	if err != nil {
		t.Fatal(err)
	}
	if pr.Runs != 2 || pr.CallCostNs != 25 || len(pr.Excluded) != 1 || pr.Excluded[0].Visits != 2e6 || pr.SavingNs != 50e6 {
		t.Errorf("job: %d runs, cost %v, excluded %+v, saving %v; want 2, 25, leaf with 2·10^6 visits, 50 ms", pr.Runs, pr.CallCostNs, pr.Excluded, pr.SavingNs)
	}
	if text := roundTrip(t, pr, "job"); !strings.Contains(text, "for job (2 ranks, summed).") {
		t.Errorf("the header does not say the ranks are summed:\n%s", text)
	}
}

// TestProposeNothing: thresholds nothing passes give an empty filter
// that says so; the cost, unmeasured, is estimated from the clock.
func TestProposeNothing(t *testing.T) {
	t.Parallel()
	p := cptest.Hot(t)
	p.CallPaths.CallCostNs = 0
	p.Clock.Name = "monotonic"
	pr, err := callpath.Propose([]*profile.Profile{p}, callpath.Thresholds{MinVisits: 10_000_000, MaxMeanNs: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if pr.CallCostNs != 85 || !strings.Contains(pr.CallCostHow, "2 CLOCK_MONOTONIC reads of 40 ns") || len(pr.Excluded) != 0 {
		t.Errorf("cost %v (%s), excluded %+v; want 85 estimated, none", pr.CallCostNs, pr.CallCostHow, pr.Excluded)
	}
	text := roundTrip(t, pr, "r")
	if !strings.Contains(text, "Nothing to exclude") || !strings.Contains(text, "at most 1.00 us (--max-mean)") || strings.Contains(text, "SCOREP") {
		t.Errorf("empty filter:\n%s", text)
	}
	// --min-visits 0 proposes leaf, which ran, but not a function that
	// has time and no visit (mid, here).
	p.CallPaths.Threads[0].Nodes[2][1] = 0
	if pr, err := callpath.Propose([]*profile.Profile{p}, callpath.Thresholds{}); err != nil || len(pr.Excluded) != 1 || pr.Excluded[0].Name != "leaf" {
		t.Errorf("--min-visits 0: %v, excluded %+v; want leaf alone", err, pr.Excluded)
	}
	p.CallPaths = nil
	if _, err := callpath.Propose([]*profile.Profile{p}, callpath.Thresholds{}); !errors.Is(err, callpath.ErrNoCallPaths) {
		t.Errorf("no call paths: %v, want ErrNoCallPaths", err)
	}
}

func TestFormatNs(t *testing.T) {
	t.Parallel()
	for ns, want := range map[float64]string{4.6: "5 ns", 999.4: "999 ns", 999.6: "1.00 us", 12_500: "12.5 us", 3.2e6: "3.20 ms", 20e6: "20.0 ms", 1.25e9: "1.25 s", 4321e9: "4321 s"} {
		if got := callpath.FormatNs(ns); got != want {
			t.Errorf("FormatNs(%v) = %q, want %q", ns, got, want)
		}
	}
}

// TestProposeNames: every name a C++ function can have reads back as
// exactly itself, and a name that a pattern cannot hold falls back to a
// MANGLED rule.
func TestProposeNames(t *testing.T) {
	t.Parallel()
	fns := []callpath.Function{
		{Name: "ns::f<int>(int*, char [3])", Mangled: "_ZN2ns1fIiEEvPiPA3_c"},
		{Name: "operator*(V const&, V const&)", Mangled: "_ZmlRK1VS1_"},
		{Name: `a b#c\d?[x]`, Mangled: "_Z1av"},
		{Name: "EXCLUDE", Mangled: "EXCLUDE"},
		{Name: "bad\nname", Mangled: "_Z3badv"},
	}
	pr := &callpath.Proposal{Excluded: fns}
	var b bytes.Buffer
	if _, err := pr.Filter("r").WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	f, err := filter.Parse("f", b.Bytes())
	if err != nil {
		t.Fatalf("%v:\n%s", err, b.String())
	}
	for _, fn := range fns {
		if f.Function(fn.Name, fn.Mangled, "") {
			t.Errorf("%q (%s) is still measured:\n%s", fn.Name, fn.Mangled, b.String())
		}
		if other := fn.Name + "x"; !f.Function(other, "_Z5otherv", "") {
			t.Errorf("%q is left out too:\n%s", other, b.String())
		}
	}
	if !strings.Contains(b.String(), "EXCLUDE MANGLED _Z3badv") {
		t.Errorf("a name with a newline is not left out by its mangled name:\n%s", b.String())
	}
}

// TestProposeCXX: the demangled names of a real C++ program (templates,
// a static member in a namespace, a lambda, whose g++ name holds '#')
// read back from the filter as exactly those functions, by the names
// and mangled names that the symbols give, with g++ and clang++.
func TestProposeCXX(t *testing.T) {
	t.Parallel()
	for _, cxx := range []string{"g++", "clang++-14"} {
		t.Run(cxx, func(t *testing.T) {
			t.Parallel()
			if _, err := exec.LookPath(cxx); err != nil {
				t.Skip("no " + cxx)
			}
			dir := t.TempDir()
			symtest.Copy(t, dir, "prog.cpp")
			symtest.Compile(t, dir, cxx, "-g", "-O0", "-o", "prog", "prog.cpp")
			addrs, maps := symtest.Run(t, filepath.Join(dir, "prog"))
			cp := &profile.CallPaths{Nodes: []profile.CallNode{{Parent: -1, Kind: "root"}}}
			th := profile.CallThread{}
			for i, key := range []string{"twice", "twiced", "make", "lambda"} {
				cp.Nodes = append(cp.Nodes, profile.CallNode{Parent: 0, Kind: "function", Addr: addrs[key]})
				th.Nodes = append(th.Nodes, [3]uint64{uint64(i + 1), 1e6, 5e6})
			}
			cp.Threads = []profile.CallThread{th}
			p := &profile.Profile{Program: "prog", Threads: []profile.Thread{{Path: "0"}}, CallPaths: cp, Mappings: maps}
			pr, err := callpath.Propose([]*profile.Profile{p}, callpath.Thresholds{MinVisits: 1000})
			if err != nil {
				t.Fatal(err)
			}
			if len(pr.Excluded) != 4 || pr.Unnamed != 0 {
				t.Fatalf("excluded %+v (%d unnamed), want the 4 functions", pr.Excluded, pr.Unnamed)
			}
			var b bytes.Buffer
			if _, err := pr.Filter("r").WriteTo(&b); err != nil {
				t.Fatal(err)
			}
			f, err := filter.Parse("f", b.Bytes())
			if err != nil {
				t.Fatalf("%v:\n%s", err, b.String())
			}
			for _, fn := range pr.Excluded {
				if !strings.HasPrefix(fn.Mangled, "_Z") || f.Function(fn.Name, fn.Mangled, fn.File) {
					t.Errorf("%s (%s) is still measured:\n%s", fn.Name, fn.Mangled, b.String())
				}
			}
			if !f.Function("main", "main", "prog.cpp") || !f.Function("geo::twice<long>(long)", "_ZN3geo5twiceIlEET_S1_", "") {
				t.Errorf("the filter leaves out more than the 4 functions:\n%s", b.String())
			}
		})
	}
}

// TestProposeCalleeCost: a function's calls to measured functions are
// taken out of its mean before the threshold, one call cost (20 ns)
// each: mid, made hot (10^6 visits) with leaf's 600,000 visits below it,
// is excluded at a mean of 410 ns (398 ns of its own, under 20 × 20 ns)
// and kept at 413 ns (401 ns).
func TestProposeCalleeCost(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		meanNs   uint64
		excluded bool
	}{{410, true}, {413, false}} {
		p := cptest.Hot(t)
		p.CallPaths.Threads[0].Nodes[2] = [3]uint64{3, 1e6, c.meanNs * 1e6}
		pr, err := callpath.Propose([]*profile.Profile{p}, callpath.Thresholds{MinVisits: callpath.DefaultMinVisits})
		if err != nil {
			t.Fatal(err)
		}
		got := false
		for _, f := range pr.Excluded {
			if f.Name == "mid" {
				got = true
				if f.CalleeVisits != 600_000 || f.MeanNs() != float64(c.meanNs) {
					t.Errorf("mid: %+v, want 600000 callee visits, mean %d ns", f, c.meanNs)
				}
			}
		}
		if got != c.excluded {
			t.Errorf("mid at a mean of %d ns: excluded %v, want %v", c.meanNs, got, c.excluded)
		}
	}
}
