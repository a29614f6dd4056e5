package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"gopari/internal/callpath"
	"gopari/internal/callpath/cptest"
)

// TestCallPaths prints the hot call paths of cptest's profile: its
// truth, top-down, and nothing without call paths.
func TestCallPaths(t *testing.T) {
	t.Parallel()
	p := cptest.Profile(t)
	var b bytes.Buffer
	Write(&b, p, 20)
	out := b.String()
	_, section, ok := strings.Cut(out, "\nCall paths ")
	if !ok {
		t.Fatalf("no call paths:\n%s", out)
	}
	par := fmt.Sprintf("!$omp parallel @paths.c:%d", p.Regions[0].BeginLine)
	want := []string{
		"88.000    0.000       0  paths",
		"88.000    1.000       1    main",
		"87.000   10.000       1      top",
		"50.000   20.000       2        mid",
		"30.000   30.000       4          leaf",
		"27.000   11.000       1        " + par,
		"16.000   16.000       6          leaf",
	}
	lines := strings.Split(section, "\n")[2:]
	for i, w := range want {
		if i >= len(lines) || strings.TrimSpace(lines[i]) != w {
			t.Errorf("call paths line %d: want %q\n%s", i, w, section)
			break
		}
	}
	if strings.Index(out, "\nRegions by") > strings.Index(out, "\nCall paths") {
		t.Error("call paths before the regions")
	}

	p.CallPaths = nil
	b.Reset()
	Write(&b, p, 20)
	if strings.Contains(b.String(), "Call paths") {
		t.Errorf("call paths without any:\n%s", b.String())
	}
}

// TestJobCallPaths prints the merged call paths of two ranks, one of
// which ran location 0 alone: min, mean and max of each path.
func TestJobCallPaths(t *testing.T) {
	t.Parallel()
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
	var buf bytes.Buffer
	jobCallPaths(&buf, callpath.Merge([]int{0, 1}, []*callpath.Tree{a, b}))
	out := buf.String()
	fields := map[string]bool{}
	for _, l := range strings.Split(out, "\n") {
		fields[strings.Join(strings.Fields(l), " ")] = true
	}
	for _, want := range []string{
		"76.000 82.000 88.000 0.000 0 paths",
		"75.000 81.000 87.000 10.000 1 top",
		"50.000 50.000 50.000 20.000 2 mid",
		"8.000 12.000 16.000 12.000 6 leaf", // the region's leaf: 16 ms on rank 0, 8 on rank 1
	} {
		if !fields[want] {
			t.Errorf("job call paths lack %q:\n%s", want, out)
		}
	}
	buf.Reset()
	jobCallPaths(&buf, nil)
	if buf.Len() != 0 {
		t.Errorf("call paths of a job without any: %q", buf.String())
	}
}
