package html

import (
	"bytes"
	"math"
	"path/filepath"
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
