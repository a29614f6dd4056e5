package callpath_test

import (
	"strings"
	"testing"

	"gopari/internal/callpath"
	"gopari/internal/callpath/cptest"
	"gopari/internal/profile"
)

// TestSampled: a run's samples (GOPARI_SAMPLE_HZ) are summed per node
// and up the tree like the measured times, on outlined functions'
// parents too; the views then weigh paths by them (Incl, Excl, Hot),
// whatever the measured times say.
func TestSampled(t *testing.T) {
	t.Parallel()
	p := cptest.Profile(t)
	cp := p.CallPaths
	cp.Sampling = &profile.Sampling{Hz: 1000, Clock: "cpu", PeriodNs: 1e6, Samples: 100, Ns: 100 * ms}
	// 40 ms in leaf below mid, 10 in mid; 30 in the region's outlined
	// function (its parent's, the fork's), 20 in leaf below it at 0.1.
	cp.Threads[0].Samples = [][3]uint64{{3, 10, 10 * ms}, {4, 40, 40 * ms}, {6, 30, 30 * ms}}
	cp.Threads[1].Samples = [][3]uint64{{7, 20, 20 * ms}}
	tr, err := callpath.FromProfile(p)
	if err != nil {
		t.Fatal(err)
	}
	par := find(t, tr, "main", "top").Children
	var region string
	for _, c := range par {
		if strings.HasPrefix(tr.Nodes[c].Name, "!$omp parallel") {
			region = tr.Nodes[c].Name
		}
	}
	for _, c := range []struct {
		path                []string
		samples, excl, incl uint64
	}{
		{nil, 0, 0, 100 * ms},
		{[]string{"main", "top"}, 0, 0, 100 * ms},
		{[]string{"main", "top", "mid"}, 10, 10 * ms, 50 * ms},
		{[]string{"main", "top", "mid", "leaf"}, 40, 40 * ms, 40 * ms},
		{[]string{"main", "top", region}, 30, 30 * ms, 50 * ms},
		{[]string{"main", "top", region, "leaf"}, 20, 20 * ms, 20 * ms},
	} {
		n := find(t, tr, c.path...)
		if n.Samples != c.samples || n.CPUNs != c.excl || n.InclCPUNs != c.incl {
			t.Errorf("%q: samples %d cpu %d incl %d, want %d %d %d", c.path, n.Samples, n.CPUNs, n.InclCPUNs, c.samples, c.excl, c.incl)
		}
	}
	if tr.Incl(0) != 100*ms || tr.Excl(0) != 0 {
		t.Errorf("the root weighs %d incl, %d excl; want the samples' 100 ms, 0", tr.Incl(0), tr.Excl(0))
	}
	rows := tr.Hot(0.3) // 30 ms and more
	var names []string
	for _, r := range rows {
		names = append(names, tr.Nodes[r.Node].Name)
	}
	if got := strings.Join(names, ";"); got != "paths;main;top;"+region+";mid;leaf" { // a tie: by name
		t.Errorf("hot paths by samples %s", got)
	}
}
