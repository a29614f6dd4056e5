package pop

import (
	"math"
	"path/filepath"
	"testing"

	"gopari/internal/profile"
	"gopari/internal/runtest"
)

// measure builds testdata/name through gopari cc, runs it with two
// threads and returns its metrics.
func measure(t *testing.T, name string) *Metrics {
	t.Helper()
	dir := t.TempDir()
	exe := runtest.Build(t, dir, "gcc", "prog", filepath.Join("testdata", name))
	exp := runtest.Run(t, dir, []string{"OMP_NUM_THREADS=2"}, exe)
	p, err := profile.Read(filepath.Join(exp, "profile.json"))
	if err != nil {
		t.Fatal(err)
	}
	m := Compute(p)
	t.Logf("%s: serial fraction %.4f, load balance %.4f, sync efficiency %.4f, parallel efficiency %.4f, wall %.1f ms",
		name, m.SerialFraction, m.LoadBalance, m.SyncEfficiency, m.ParallelEfficiency, m.WallNs/1e6)
	return m
}

func within(t *testing.T, name string, got, want, tol float64) {
	t.Helper()
	if math.IsNaN(got) || math.Abs(got-want) > tol {
		t.Errorf("%s = %.3f, want %.2f ± %.2f", name, got, want, tol)
	}
}

// TestSerialProgram: a program whose first half runs on one thread has
// a serial fraction of 0.5.
func TestSerialProgram(t *testing.T) {
	t.Parallel()
	m := measure(t, "serial.c")
	within(t, "serial fraction", m.SerialFraction, 0.5, 0.02)
	within(t, "load balance", m.LoadBalance, 1, 0.02)
	within(t, "parallel efficiency", m.ParallelEfficiency, 0.75, 0.03)
	within(t, "serial region efficiency", m.SerialRegionEfficiency, 0.75, 0.01)
	if m.Threads != 2 {
		t.Errorf("%d workers, want 2", m.Threads)
	}
}

// TestImbalancedProgram: a program in which one of two threads does all
// the work has a load balance of 0.5.
func TestImbalancedProgram(t *testing.T) {
	t.Parallel()
	m := measure(t, "imbalance.c")
	within(t, "load balance", m.LoadBalance, 0.5, 0.02)
	within(t, "serial fraction", m.SerialFraction, 0, 0.05)
	// The idle thread's time is its wait in the closing barrier.
	lost := m.InRegions.Lost
	if share := lost.Barrier / m.InRegions.TotalNs; math.Abs(share-0.5) > 0.03 {
		t.Errorf("barrier waiting is %.3f of the time in parallel regions, want 0.5", share)
	}
}
