//go:build otf2

package e2e

// A traced sampled run's samples in every export of gopari trace (issue
// 26): OTF2 calling-context samples whose contexts are the samples' call
// paths, Chrome and Perfetto instant events, one per sample kept.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gopari/internal/callpath"
	"gopari/internal/events"
	"gopari/internal/experiment"
	"gopari/internal/perfetto"
	"gopari/internal/profile"
)

// TestSampledTraceOTF2 runs sampled.c (about 0.5 s of CPU time) at 1, 2
// and 4 threads, gcc and clang, traced and sampled at 1000 Hz, and
// exports it with gopari trace --otf2 --chrome --perfetto. The archive,
// which otf2-print reads without a warning, has one
// CALLING_CONTEXT_SAMPLE per sample of events/samples.bin (as many as
// the signals the run kept), each on its sample's location at its tick,
// its calling context's chain naming the frames of its call path, and
// inside the region of the path's innermost construct on that location
// (between its ENTER and LEAVE there; after it for a worker's closing
// barrier, which holds its wait for the next team; between the
// THREAD_FORK and THREAD_JOIN of the thread that forked a parallel
// region); the Chrome and Perfetto traces have as many sample instants.
// At 2 threads, cut to a window and a thread, both have the samples
// there.
func TestSampledTraceOTF2(t *testing.T) {
	needTools(t)
	gopari := gopariOTF2(t)
	for _, c := range compilers {
		c := c
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			exe := buildSampled(t, c)
			for _, n := range []int{1, 2, 4} {
				r := run(t, exe, []string{fmt.Sprintf("OMP_NUM_THREADS=%d", n), "GOPARI_MODE=trace", "GOPARI_SAMPLE_HZ=1000"}, "0.2")
				if r.code != 0 || r.stderr != "" {
					t.Fatalf("%d threads: exit %d, stderr:\n%s", n, r.code, r.stderr)
				}
				prof := readProfile(t, r)
				tree, err := callpath.FromProfile(prof)
				if err != nil || tree == nil || tree.Sampling == nil {
					t.Fatalf("%d threads: no sampled call paths (%v)", n, err)
				}
				ss, err := events.ReadSamples(experiment.Samples(r.dir))
				if sg := tree.Sampling; err != nil || len(ss) == 0 || uint64(len(ss)) != sg.Signals-sg.Dropped-sg.TraceLost {
					t.Fatalf("%d threads: %d samples in the samples file (%v), the run kept %d signals", n, len(ss), err, sg.Signals-sg.Dropped-sg.TraceLost)
				}
				want := map[string]int{}
				for _, s := range ss {
					want[prof.Threads[s.Loc].Path+" "+strconv.FormatUint(s.Tick, 10)+" "+strings.Join(tree.Path(tree.Of[s.Node]), ";")]++
				}
				dir := t.TempDir()
				arch, js, pf := filepath.Join(dir, "otf2"), filepath.Join(dir, "run.json"), filepath.Join(dir, "run.pftrace")
				if b, err := exec.Command(gopari, "trace", "--otf2", arch, "--chrome", js, "--perfetto", pf, r.dir).CombinedOutput(); err != nil {
					t.Fatalf("gopari trace: %v\n%s", err, b)
				}
				got := otf2Samples(t, arch)
				for _, s := range got {
					k := s.path + " " + strconv.FormatUint(s.time, 10) + " " + strings.Join(s.chain, ";")
					if want[k] == 0 {
						t.Errorf("%d threads: a sample (thread, tick, chain) %s that the samples file does not have", n, k)
					}
					want[k]--
				}
				if len(got) != len(ss) {
					t.Errorf("%d threads: %d CALLING_CONTEXT_SAMPLE events, %d samples", n, len(got), len(ss))
				}
				if c, p := chromeSamples(t, js, pf); c != len(ss) || p != len(ss) {
					t.Errorf("%d threads: %d sample instants in the Chrome trace, %d in the Perfetto trace, want %d", n, c, p, len(ss))
				}
				if n == 2 {
					checkSampledCut(t, gopari, r.dir, ss)
				}
				t.Logf("%d threads: %d samples", n, len(ss))
			}
		})
	}
}

// checkSampledCut exports the run in dir cut to its middle third
// (between two samples: a sample's tick and its time in ns agree on
// which side of an edge it is) and to thread 0.1 with gopari trace
// --otf2 --chrome --window --threads: each has the samples of that
// thread in that window.
func checkSampledCut(t *testing.T, gopari, dir string, ss []events.Sample) {
	t.Helper()
	exp, err := events.OpenExperiment(dir)
	if err != nil {
		t.Fatal(err)
	}
	ns := make([]float64, len(ss))
	for i, s := range ss {
		ns[i] = exp.Clock.Ns(s.Tick)
	}
	slices.Sort(ns)
	edge := func(q float64) float64 {
		i := int(q * float64(len(ns)-1))
		return (ns[i] + ns[i+1]) / 2
	}
	from, to := edge(1.0/3), edge(2.0/3)
	want := 0
	for _, s := range ss {
		if at := exp.Clock.Ns(s.Tick); exp.Threads[s.Loc].Path == "0.1" && at >= from && at <= to {
			want++
		}
	}
	out := t.TempDir()
	arch, js := filepath.Join(out, "otf2"), filepath.Join(out, "cut.json")
	window := strconv.FormatFloat(from/1e9, 'g', -1, 64) + ":" + strconv.FormatFloat(to/1e9, 'g', -1, 64)
	if b, err := exec.Command(gopari, "trace", "--otf2", arch, "--chrome", js, "--window", window, "--threads", "0.1", dir).CombinedOutput(); err != nil {
		t.Fatalf("gopari trace --window %s --threads 0.1: %v\n%s", window, err, b)
	}
	got := otf2Samples(t, arch)
	for _, s := range got {
		if s.path != "0.1" {
			t.Errorf("a sample of thread %s in the archive cut to thread 0.1", s.path)
		}
	}
	b, err := os.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		TraceEvents []struct{ Ph, Name string }
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	inst := 0
	for _, e := range doc.TraceEvents {
		if e.Ph == "i" && strings.HasPrefix(e.Name, "sample: ") {
			inst++
		}
	}
	if len(got) != want || inst != want || want == 0 {
		t.Errorf("cut to %s s and thread 0.1: %d samples in the archive, %d in the Chrome trace, want %d", window, len(got), inst, want)
	}
	t.Logf("cut to %s s and thread 0.1: %d of %d samples", window, want, len(ss))
}

// An otf2Sample is a CALLING_CONTEXT_SAMPLE of an archive: its
// location and the location's team path, its time, and its context's chain of region
// names, outermost first.
type otf2Sample struct {
	loc   string // its location's ID
	path  string
	time  uint64
	chain []string
}

// otf2Samples reads the samples of the archive in dir with otf2-print,
// and checks that each lies inside the region of its chain's innermost
// construct ("!$omp ...") on its location, after it for a closing
// barrier, or between the fork and join of a parallel region.
func otf2Samples(t *testing.T, dir string) []otf2Sample {
	t.Helper()
	defs := otf2Print(t, dir, "-G")
	locs := locationNames(defs)
	ctx := map[string][2]string{} // ID -> region name, parent ID
	re := regexp.MustCompile(`(?m)^CALLING_CONTEXT +(\d+) +Region: "([^"]*)" <\d+>, Source code location: [^,]*, Parent: (?:UNDEFINED|"[^"]*" <(\d+)>)$`)
	for _, m := range re.FindAllStringSubmatch(string(defs), -1) {
		ctx[m[1]] = [2]string{m[2], m[3]}
	}
	line := regexp.MustCompile(`^(ENTER|LEAVE|THREAD_FORK|THREAD_JOIN|CALLING_CONTEXT_SAMPLE) +(\d+) +(\d+) +(?:Region: "([^"]*)"|Calling Context: "[^"]*" <(\d+)>|Model)`)
	open := map[string][]string{} // location -> regions entered, innermost last
	entered := map[string]map[string]bool{}
	var out []otf2Sample
	for _, l := range strings.Split(string(otf2Print(t, dir)), "\n") {
		m := line.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		st := open[m[2]]
		switch m[1] {
		case "ENTER":
			open[m[2]] = append(st, m[4])
			if entered[m[2]] == nil {
				entered[m[2]] = map[string]bool{}
			}
			entered[m[2]][m[4]] = true
		case "THREAD_FORK":
			open[m[2]] = append(st, "fork")
		case "THREAD_JOIN":
			if len(st) == 0 || st[len(st)-1] != "fork" {
				t.Fatalf("%s joins, entered %q", l, st)
			}
			open[m[2]] = st[:len(st)-1]
		case "LEAVE":
			if len(st) == 0 || st[len(st)-1] != m[4] {
				t.Fatalf("%s leaves %q, entered %q", l, m[4], st)
			}
			open[m[2]] = st[:len(st)-1]
		default:
			ts, _ := strconv.ParseUint(m[3], 10, 64)
			s := otf2Sample{loc: m[2], path: locs[m[2]], time: ts}
			for id := m[5]; id != ""; id = ctx[id][1] {
				s.chain = append([]string{ctx[id][0]}, s.chain...)
			}
			for i := len(s.chain) - 1; i >= 0; i-- {
				if f := s.chain[i]; strings.HasPrefix(f, "!$omp ") {
					// A worker's closing barrier, right below the root,
					// holds its wait for the next team too
					// (docs/sampling.md): it left the barrier at the
					// join, but was there before.
					closing := i == 1 && strings.HasPrefix(f, "!$omp implicit barrier @")
					forking := strings.HasPrefix(f, "!$omp parallel @") && slices.Contains(st, "fork")
					// A sample in the runtime between the clock read of
					// an event and the path's change is charged to the
					// construct being left (docs/sampling.md).
					moving := strings.HasPrefix(s.chain[len(s.chain)-1], "pomp_")
					if !slices.Contains(st, f) && !(closing && entered[m[2]][f]) && !forking && !moving {
						t.Errorf("a sample on thread %s at %d in %s, which is not entered there (open: %q)", s.path, ts, strings.Join(s.chain, " / "), st)
					}
					break
				}
			}
			out = append(out, s)
		}
	}
	return out
}

// chromeSamples counts the sample instants ("sample: ...") of the
// Chrome trace js and of the Perfetto trace pf.
func chromeSamples(t *testing.T, js, pf string) (chrome, pfto int) {
	t.Helper()
	count := func(b []byte) int {
		var doc struct {
			TraceEvents []struct{ Ph, Name string }
		}
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, e := range doc.TraceEvents {
			if e.Ph == "i" && strings.HasPrefix(e.Name, "sample: ") {
				n++
			}
		}
		return n
	}
	b, err := os.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.ReadFile(pf)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := perfetto.Read(bytes.NewReader(f))
	if err != nil {
		t.Fatal(err)
	}
	pj, err := perfetto.ChromeJSON(tr)
	if err != nil {
		t.Fatal(err)
	}
	return count(b), count(pj)
}

// TestSampledJobTrace runs hybrid.c as 2 ranks of 2 threads, traced and
// sampled at 1000 Hz of wall-clock time (its threads mostly wait), and
// exports the job with gopari trace --otf2 --chrome --perfetto: the
// archive has every rank's samples (as many as its samples file, about
// 350), each on a location of its rank, on the thread and with the call
// path of one of the rank's samples, inside its innermost construct as
// TestSampledTraceOTF2 checks; the Chrome and Perfetto traces have as
// many sample instants.
func TestSampledJobTrace(t *testing.T) {
	if _, err := exec.LookPath("otf2-print"); err != nil {
		t.Skip("otf2-print not installed (Debian otf2-tools)")
	}
	p := buildMPI(t, "hybrid.c", "-fopenmp")
	dir := t.TempDir()
	env := []string{"-x", "GOPARI_MODE=trace", "-x", "GOPARI_SAMPLE_HZ=1000", "-x", "GOPARI_SAMPLE_CLOCK=wall"}
	if got := mpirun(t, dir, 2, env, p.inst, "2"); got.code != 0 {
		t.Fatalf("mpirun: exit %d\n%s", got.code, got.stderr)
	}
	jobs := jobDirs(t, dir)
	if len(jobs) != 1 {
		t.Fatalf("job directories %v", jobs)
	}
	want := map[string]int{} // rank, thread, call path
	total := 0
	for r := 0; r < 2; r++ {
		rd := filepath.Join(jobs[0], fmt.Sprintf("rank-%05d", r))
		prof, err := profile.Read(filepath.Join(rd, "profile.json"))
		if err != nil {
			t.Fatal(err)
		}
		tree, err := callpath.FromProfile(prof)
		if err != nil || tree == nil {
			t.Fatalf("rank %d: no call paths (%v)", r, err)
		}
		ss, err := events.ReadSamples(experiment.Samples(rd))
		if err != nil || len(ss) == 0 {
			t.Fatalf("rank %d: %d samples (%v)", r, len(ss), err)
		}
		for _, s := range ss {
			want[fmt.Sprintf("%d %s %s", r, prof.Threads[s.Loc].Path, strings.Join(tree.Path(tree.Of[s.Node]), ";"))]++
		}
		total += len(ss)
	}
	out := t.TempDir()
	arch, js, pf := filepath.Join(out, "otf2"), filepath.Join(out, "job.json"), filepath.Join(out, "job.pftrace")
	if b, err := exec.Command(gopariOTF2(t), "trace", "--otf2", arch, "--chrome", js, "--perfetto", pf, jobs[0]).CombinedOutput(); err != nil {
		t.Fatalf("gopari trace: %v\n%s", err, b)
	}
	rankOf := locationRanks(t, otf2Print(t, arch, "-G"))
	got := otf2Samples(t, arch)
	for _, s := range got {
		k := fmt.Sprintf("%d %s %s", rankOf[s.loc], s.path, strings.Join(s.chain, ";"))
		if want[k] == 0 {
			t.Errorf("a sample (rank, thread, chain) %s that no rank's samples file has", k)
		}
		want[k]--
	}
	if len(got) != total {
		t.Errorf("%d CALLING_CONTEXT_SAMPLE events, the ranks' samples files have %d", len(got), total)
	}
	if c, p := chromeSamples(t, js, pf); c != total || p != total {
		t.Errorf("%d sample instants in the Chrome trace, %d in the Perfetto trace, want %d", c, p, total)
	}
	t.Logf("%d samples", total)
}
