package pprof

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"gopari/internal/callpath"
	"gopari/internal/callpath/cptest"
)

// goTool runs go tool pprof with args on file.
func goTool(t *testing.T, file string, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", append(append([]string{"tool", "pprof"}, args...), file)...)
	cmd.Env = append(os.Environ(), "PPROF_TMPDIR="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go tool pprof %v %s: %v\n%s", args, file, err, out)
	}
	return string(out)
}

func writeFile(t *testing.T, runs []Run) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "p.pb.gz")
	var b bytes.Buffer
	if err := Write(&b, runs); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestGoToolPprof writes the profile of cptest's run, alone and as two
// ranks of a job, and checks that go tool pprof's -top and -traces
// show the model's numbers.
func TestGoToolPprof(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	p := cptest.Profile(t)
	a, err := callpath.FromProfile(p)
	if err != nil {
		t.Fatal(err)
	}
	p.CallPaths.Threads = p.CallPaths.Threads[:1]
	b, err := callpath.FromProfile(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, runs := range [][]Run{{{Rank: -1, Tree: a}}, {{Rank: 0, Tree: a}, {Rank: 1, Tree: b}}} {
		path := writeFile(t, runs)
		checkTop(t, runs, goTool(t, path, "-top", "-sample_index=time", "-unit=ns", "-nodecount=100"), "time")
		checkTop(t, runs, goTool(t, path, "-top", "-sample_index=visits", "-nodecount=100"), "visits")
		checkTraces(t, runs, goTool(t, path, "-traces", "-sample_index=time", "-unit=ns"))
	}
}

// checkTop compares -top's flat and cum per function with the sums of
// the model's exclusive and inclusive values by name (no name is
// nested in itself in cptest's tree).
func checkTop(t *testing.T, runs []Run, out, index string) {
	t.Helper()
	want := map[string][2]int64{}
	for _, r := range runs {
		for _, n := range r.Tree.Nodes {
			w := want[n.Name]
			if index == "time" {
				w[0] += int64(n.ExclNs)
				w[1] += int64(n.InclNs)
			} else {
				w[0] += int64(n.Visits)
				w[1] += int64(visitsBelow(r.Tree, &n))
			}
			want[n.Name] = w
		}
	}
	got := map[string][2]int64{}
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) < 6 || !strings.HasSuffix(f[1], "%") || !strings.HasSuffix(f[4], "%") {
			continue
		}
		got[strings.Join(f[5:], " ")] = [2]int64{number(t, f[0]), number(t, f[3])}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("go tool pprof -top (%s):\n got %v\nwant %v\n%s", index, got, want, out)
	}
}

// visitsBelow is the visits of a node's subtree, what pprof's cum is
// for visits.
func visitsBelow(t *callpath.Tree, n *callpath.Node) uint64 {
	v := n.Visits
	for _, c := range n.Children {
		v += visitsBelow(t, &t.Nodes[c])
	}
	return v
}

func number(t *testing.T, s string) int64 {
	t.Helper()
	v, err := strconv.ParseInt(strings.TrimSuffix(s, "ns"), 10, 64)
	if err != nil {
		t.Fatalf("number %q: %v", s, err)
	}
	return v
}

// checkTraces compares -traces' samples (labels, ns, stack) with the
// model's per-location exclusive times.
func checkTraces(t *testing.T, runs []Run, out string) {
	t.Helper()
	var want, got []string
	for _, r := range runs {
		for _, l := range r.Tree.Locations {
			for _, s := range l.Stats {
				if s.ExclNs == 0 && s.Visits == 0 {
					continue
				}
				rank := ""
				if r.Rank >= 0 {
					rank = fmt.Sprintf("rank:%d ", r.Rank)
				}
				path := r.Tree.Path(s.Node)
				slices.Reverse(path)
				want = append(want, fmt.Sprintf("%sthread:%s %d %s", rank, l.Path, s.ExclNs, strings.Join(path, ";")))
			}
		}
	}
	for _, block := range strings.Split(out, "-----------+")[1:] {
		var labels []string
		var stack []string
		var value string
		for _, line := range strings.Split(block, "\n")[1:] {
			if k, v, ok := strings.Cut(strings.TrimSpace(line), ":  "); ok && !strings.Contains(k, " ") {
				labels = append(labels, k+":"+strings.TrimSpace(v))
				continue
			}
			f := strings.Fields(line)
			if len(f) == 0 {
				continue
			}
			if value == "" {
				value, f = strings.TrimSuffix(f[0], "ns"), f[1:]
			}
			stack = append(stack, strings.Join(f, " "))
		}
		if value == "" {
			continue
		}
		sort.Strings(labels)
		got = append(got, fmt.Sprintf("%s %s %s", strings.Join(labels, " "), value, strings.Join(stack, ";")))
	}
	sort.Strings(want)
	sort.Strings(got)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("go tool pprof -traces:\n got %q\nwant %q\n%s", got, want, out)
	}
}

func TestFolded(t *testing.T) {
	t.Parallel()
	tr, err := callpath.FromProfile(cptest.Profile(t))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := Folded(&b, []Run{{Rank: -1, Tree: tr}}); err != nil {
		t.Fatal(err)
	}
	par := tr.Nodes[tr.Nodes[2].Children[1]].Name
	want := fmt.Sprintf(`paths;main 1000000
paths;main;top 10000000
paths;main;top;%[1]s 11000000
paths;main;top;%[1]s;leaf 16000000
paths;main;top;mid 20000000
paths;main;top;mid;leaf 30000000
`, par)
	if b.String() != want {
		t.Errorf("folded:\n%s\nwant\n%s", b.String(), want)
	}
}
