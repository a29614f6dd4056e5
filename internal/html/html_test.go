package html

import (
	"bytes"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"gopari/internal/events"
	"gopari/internal/events/evtest"
	"gopari/internal/profile"
)

// tinyRun writes evtest's tiny-task stream: tasks tasks over two threads.
func tinyRun(t *testing.T, tasks int) (string, *profile.Profile) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "exp")
	if _, err := evtest.Tiny(dir, tasks, 2, 30); err != nil {
		t.Fatal(err)
	}
	p, err := profile.Read(filepath.Join(dir, "profile.json"))
	if err != nil {
		t.Fatal(err)
	}
	return dir, p
}

// TestDeterministic: the same input gives the same bytes.
func TestDeterministic(t *testing.T) {
	dir, p := tinyRun(t, 500)
	var a, b bytes.Buffer
	if err := Write(&a, Input{Profile: p, Dir: dir}); err != nil {
		t.Fatal(err)
	}
	if err := Write(&b, Input{Profile: p, Dir: dir}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("two pages of one run differ")
	}
}

// TestBinned: a timeline past MaxSegments is binned, and its bins hold
// the time of the exact segments, per thread and category.
func TestBinned(t *testing.T) {
	dir, p := tinyRun(t, 5000)
	exp, err := events.OpenExperiment(dir)
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{}
	opts.defaults()
	exact, err := buildTimeline(exp, p.WallNs, opts)
	if err != nil {
		t.Fatal(err)
	}
	opts.MaxSegments, opts.Bins = 1000, 256
	binned, err := buildTimeline(exp, p.WallNs, opts)
	if err != nil {
		t.Fatal(err)
	}
	if exact.Mode != "exact" || binned.Mode != "binned" || binned.Bins > 256 || binned.Segments < 1000 {
		t.Fatalf("modes %s and %s, %d bins, %d segments", exact.Mode, binned.Mode, binned.Bins, binned.Segments)
	}
	for i, tr := range exact.Tracks {
		want := map[int]float64{}
		for k, d := range tr.D {
			want[tr.C[k]] += float64(d)
		}
		got := map[int]float64{}
		b := binned.Tracks[i]
		if b.Path != tr.Path {
			t.Fatalf("track %d: %s, %s", i, b.Path, tr.Path)
		}
		for k := 0; k < len(b.B); k += 3 {
			got[int(b.B[k+1])] += float64(b.B[k+2]) / 1000 * binned.BinNs
		}
		if len(want) == 0 {
			t.Errorf("track %s: no segments", tr.Path)
		}
		for c, w := range want {
			// Each bin's share is rounded to 1‰ of a bin.
			if tol := float64(binned.Bins) * binned.BinNs / 1000; math.Abs(got[c]-w) > tol {
				t.Errorf("track %s, %s: bins hold %.0f ns, segments %.0f ns", tr.Path, exact.Cats[c].Name, got[c], w)
			}
		}
	}
}

// TestTimelineExact: in the tiny-task stream every task runs 32 ticks
// (its 30 of work and the record's 2) and every creation takes 2 ticks
// of 1 ns: the timeline's segments add up to that, and the initial
// thread shows its fork-join all along the parallel region.
func TestTimelineExact(t *testing.T) {
	dir, p := tinyRun(t, 100)
	exp, err := events.OpenExperiment(dir)
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{}
	opts.defaults()
	tl, err := buildTimeline(exp, p.WallNs, opts)
	if err != nil {
		t.Fatal(err)
	}
	total := map[string]int64{}
	for _, tr := range tl.Tracks {
		for k, d := range tr.D {
			total[tr.Path+" "+tl.Cats[tr.C[k]].Name] += d
		}
	}
	var tasks int64
	for k, v := range total {
		if strings.HasSuffix(k, " task tiny.c:14-16") {
			tasks += v
		}
	}
	if tasks != 100*32 || total["0.0 creating a task"] != 100*2 {
		t.Errorf("tasks ran %d ns, creations took %d ns; want 3200 and 200 (%v)", tasks, total["0.0 creating a task"], total)
	}
	if tl.Tracks[0].Path != "0" || len(tl.Tracks[0].C) != 1 || tl.Cats[tl.Tracks[0].C[0]].Name != "forked a team (fork-join)" {
		t.Errorf("track %s: %v", tl.Tracks[0].Path, tl.Tracks[0])
	}
}

// TestRegionRows: the table shows the regions that ran, costliest
// first, at most MaxRegionRows; the others are counted and named.
func TestRegionRows(t *testing.T) {
	p := &profile.Profile{WallNs: 1000, Threads: []profile.Thread{{Path: "0"}}}
	for i := 1; i <= 5; i++ {
		p.Regions = append(p.Regions, profile.Region{ID: i, Kind: "critical", Name: "critical", File: "a.c", BeginLine: 10 * i})
		if i <= 3 {
			ns := uint64(100 * i)
			p.Stats = append(p.Stats, profile.Stat{Region: i, Construct: &profile.Phase{Visits: 1, Timed: 1, InclNs: ns, ExclNs: ns}})
		}
	}
	in := Input{Profile: p, Options: Options{MaxRegionRows: 2}}
	in.Options.defaults()
	pg, err := build(&in)
	if err != nil {
		t.Fatal(err)
	}
	if len(pg.Regions) != 2 || pg.Regions[0].Where != "a.c:30" || pg.Regions[1].Where != "a.c:20" || pg.Ran != 3 || pg.More != 1 {
		t.Errorf("rows %+v, %d ran, %d more", pg.Regions, pg.Ran, pg.More)
	}
	if pg.IdleCount != 2 || len(pg.Idle) != 2 || pg.Idle[0] != "critical a.c:40" {
		t.Errorf("never ran: %d %q", pg.IdleCount, pg.Idle)
	}
}
