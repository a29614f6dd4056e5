package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gopari/internal/model"
	"gopari/internal/profile"
)

// extraP is Extra-P's text input format as read back here: parameters,
// points, and per region and metric the repetitions at each point.
type extraP struct {
	params []string
	points [][]float64
	data   map[[2]string][][]float64
}

// parseExtraP reads the text format after its grammar: comment lines,
// PARAMETER, POINTS, then REGION and METRIC sections, each followed by
// one DATA line per point.
func parseExtraP(b []byte) (*extraP, error) {
	e := &extraP{data: map[[2]string][][]float64{}}
	region, metric := "", ""
	sc := bufio.NewScanner(bytes.NewReader(b))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		tag, rest, _ := strings.Cut(line, " ")
		switch tag {
		case "PARAMETER":
			e.params = append(e.params, strings.Fields(rest)...)
		case "POINTS":
			for _, p := range strings.Split(rest, "(")[1:] {
				p, _, _ = strings.Cut(p, ")")
				var coords []float64
				for _, f := range strings.Fields(p) {
					v, err := strconv.ParseFloat(f, 64)
					if err != nil {
						return nil, fmt.Errorf("line %d: %v", n, err)
					}
					coords = append(coords, v)
				}
				if len(coords) != len(e.params) {
					return nil, fmt.Errorf("line %d: point %q for %d parameters", n, p, len(e.params))
				}
				e.points = append(e.points, coords)
			}
		case "REGION":
			region = rest
		case "METRIC":
			metric = rest
		case "DATA":
			var vs []float64
			for _, f := range strings.Fields(rest) {
				if strings.ContainsAny(f, "eE") {
					return nil, fmt.Errorf("line %d: %q: the format has no exponents", n, f)
				}
				v, err := strconv.ParseFloat(f, 64)
				if err != nil {
					return nil, fmt.Errorf("line %d: %v", n, err)
				}
				vs = append(vs, v)
			}
			k := [2]string{region, metric}
			e.data[k] = append(e.data[k], vs)
			if len(e.data[k]) > len(e.points) {
				return nil, fmt.Errorf("line %d: more DATA lines than points for %s %s", n, region, metric)
			}
		default:
			return nil, fmt.Errorf("line %d: unknown section %q", n, tag)
		}
	}
	for k, d := range e.data {
		if len(d) != len(e.points) {
			return nil, fmt.Errorf("%s %s: %d DATA lines for %d points", k[0], k[1], len(d), len(e.points))
		}
	}
	return e, nil
}

// TestScaleEndToEnd runs gopari scale on a program whose costs have a
// known shape on any number of cores, because the time in them is spent
// sleeping (at a real-time priority where the test may: see scaleprog.c):
// a critical section that every thread enters 8 times for 20 ms (the
// parallel region around it takes 8 · t entries, and a visit waits for
// every other thread's entry: both linear in t), and a region where every
// thread sleeps 20 ms (constant).
func TestScaleEndToEnd(t *testing.T) {
	prefix, err := filepath.Abs("../../build")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(prefix, "lib", "libpomp.a")); err != nil {
		t.Fatalf("%v (run make build)", err)
	}
	t.Setenv("GOPARI_PREFIX", prefix)
	// Threads that wait must not spin: four spinning threads on two
	// cores would keep the sleepers from waking up on time.
	t.Setenv("OMP_WAIT_POLICY", "passive")
	dir := t.TempDir()
	src, err := filepath.Abs("testdata/scale/scaleprog.c")
	if err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "prog")
	gopariStatus(t, 0, "cc", "gcc", "-fopenmp", "-O1", src, "-o", exe)

	out, extrap := filepath.Join(dir, "runs"), filepath.Join(dir, "runs.txt")
	stdout, stderr := gopariStatus(t, 0, "scale", "--threads", "1,2,3,4", "--repeat", "3", "--out", out,
		"--json", "--extrap", extrap, "--", exe)
	for _, want := range []string{"run 1 of 12: 1 thread(s), repetition 1", "run 12 of 12: 4 thread(s), repetition 3 (elapsed"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(out, "t4.r1", "stderr.txt")); len(b) > 0 {
		t.Logf("the program says: %s", b)
	}
	var models []model.JSON
	if err := json.Unmarshal([]byte(stdout), &models); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	find := func(line int, metric string) *model.JSON {
		for i := range models {
			if models[i].Line == line && models[i].Metric == metric {
				return &models[i]
			}
		}
		t.Fatalf("no model for line %d, %s", line, metric)
		return nil
	}
	lines := sourceLines(t, src, "#pragma omp parallel", "#pragma omp critical")
	total, crit, constant := lines[0][0], lines[1][0], lines[0][1]
	const d = 20e6 // ns, one critical entry or constant region
	for _, c := range []struct {
		line          int
		metric, class string
	}{
		{total, "construct", "linear"}, // all entries of all threads
		{crit, "construct", "linear"},  // waiting for the others' entries
		{crit, "body", "constant"},     // one entry
		{constant, "construct", "constant"},
		{constant, "body", "constant"},
	} {
		m := find(c.line, c.metric)
		t.Logf("line %d %s: %s (%s, adj R² %.3f, noise %v)", c.line, c.metric, m.Model, m.Class, m.AdjR2, *m.Noise)
		verdict := map[string]string{"linear": "check", "constant": "scales"}[c.class]
		if m.Class != c.class || m.Verdict != verdict || (c.class == "linear" && (m.I != 1 || m.J != 0)) {
			t.Errorf("line %d %s: %s is %s (i %v, j %d), verdict %s; want %s, verdict %s", c.line, c.metric, m.Model, m.Class, m.I, m.J, m.Verdict, c.class, verdict)
		}
	}
	// Sleeping gives lower bounds; the upper ones catch a wrong unit.
	critModel := find(crit, "construct")
	at := func(m *model.JSON, tt float64) float64 {
		for _, p := range m.Points {
			if p.T == tt {
				return p.Predicted
			}
		}
		return math.NaN()
	}
	if a1, a4 := at(critModel, 1), at(critModel, 4); !(a1 >= d && a1 < 2*d && a4/a1 > 3 && a4/a1 < 5) {
		t.Errorf("critical section: %s gives %.1f ms at 1 thread, %.1f ms at 4; want about 20 and 80", critModel.Model, a1/1e6, a4/1e6)
	}
	if m := find(total, "construct"); !(m.C1 >= 8*d && m.C1 < 16*d) {
		t.Errorf("the region around the critical section: %s, want about 160 ms · t", m.Model)
	}
	if m := find(crit, "body"); m.C0 < d || m.C0 > 2*d {
		t.Errorf("critical body: %s, want about 20 ms", m.Model)
	}
	if m := find(constant, "body"); m.C0 < d || m.C0 > 2*d {
		t.Errorf("constant region: %s, want about 20 ms", m.Model)
	}

	// The JSON's points are the profiles' numbers: recompute one metric
	// from each run's profile.
	for _, p := range critModel.Points {
		for r := 1; r <= 3; r++ {
			prof, err := profile.Read(filepath.Join(out, fmt.Sprintf("t%d.r%d", int(p.T), r), "profile.json"))
			if err != nil {
				t.Fatal(err)
			}
			want := 0.0
			for _, s := range prof.Stats {
				if reg := prof.Region(s.Region); reg.Kind == "critical" && s.Construct != nil && s.Construct.Visits > 0 {
					want = math.Max(want, float64(s.Construct.InclNs)/float64(s.Construct.Visits))
				}
			}
			if p.Values[r-1] != want {
				t.Errorf("t=%v, run %d: the model used %v, the profile says %v", p.T, r, p.Values[r-1], want)
			}
		}
	}

	// The Extra-P file holds the same numbers.
	b, err := os.ReadFile(extrap)
	if err != nil {
		t.Fatal(err)
	}
	e, err := parseExtraP(b)
	if err != nil {
		t.Fatalf("%s: %v\n%s", extrap, err, b)
	}
	if fmt.Sprint(e.params, e.points) != "[t] [[1] [2] [3] [4]]" {
		t.Errorf("parameters %v, points %v; want t at 1, 2, 3, 4", e.params, e.points)
	}
	checked := 0
	for _, m := range models {
		k := [2]string{fmt.Sprintf("%s:%d %s", m.File, m.Line, m.Kind), m.Metric + "." + m.Stat}
		data, ok := e.data[k]
		if !ok {
			t.Errorf("Extra-P file has no %q", k)
			continue
		}
		for i, p := range m.Points {
			if fmt.Sprint(data[i]) != fmt.Sprint(p.Values) {
				t.Errorf("%q at t=%v: Extra-P has %v, the model %v", k, p.T, data[i], p.Values)
			}
		}
		checked++
	}
	if checked != len(e.data) || checked < 8 {
		t.Errorf("compared %d series of %d in the Extra-P file", checked, len(e.data))
	}
}

// sourceLines returns, for each text, the numbers of the lines of file
// that contain it, in order.
func sourceLines(t *testing.T, file string, texts ...string) [][]int {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	out := make([][]int, len(texts))
	for n, line := range strings.Split(string(b), "\n") {
		for i, text := range texts {
			if strings.Contains(line, text) {
				out[i] = append(out[i], n+1)
			}
		}
	}
	return out
}

// gopariStatus runs the command in process and checks its exit status.
func gopariStatus(t *testing.T, status int, args ...string) (string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	got := run(append([]string{"gopari"}, args...), strings.NewReader(""), &stdout, &stderr)
	if got != status {
		t.Fatalf("gopari %s: exit status %d, want %d\n%s%s", strings.Join(args, " "), got, status, stdout.String(), stderr.String())
	}
	return stdout.String(), stderr.String()
}
