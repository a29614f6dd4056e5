package pop

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"gopari/internal/profile"
	"gopari/internal/runtest"
)

// own is what a test program measured of itself, in nanoseconds: its
// serial work, its parallel region from before the fork to after the
// join, and each thread's work in it.
type own struct {
	serial, region float64
	work           [2]float64
}

// measure builds testdata/name through gopari cc, runs it with two
// threads and returns its metrics and what it measured of itself.
func measure(t *testing.T, name string) (*Metrics, own) {
	t.Helper()
	dir := t.TempDir()
	exe := runtest.Build(t, dir, "gcc", "prog", filepath.Join("testdata", name))
	exp := runtest.Run(t, dir, []string{"OMP_NUM_THREADS=2"}, exe)
	p, err := profile.Read(filepath.Join(exp, "profile.json"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "own.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var o own
	if _, err := fmt.Sscanf(string(b), "serial %g region %g work %g %g", &o.serial, &o.region, &o.work[0], &o.work[1]); err != nil {
		t.Fatalf("own.txt %q: %v", b, err)
	}
	o.serial, o.region, o.work[0], o.work[1] = o.serial*1e9, o.region*1e9, o.work[0]*1e9, o.work[1]*1e9
	m := Compute(p)
	t.Logf("%s: serial fraction %.4f, load balance %.4f, sync efficiency %.4f, parallel efficiency %.4f, wall %.1f ms; own clock: serial %.1f ms, region %.1f ms, work %.1f and %.1f ms",
		name, m.SerialFraction, m.LoadBalance, m.SyncEfficiency, m.ParallelEfficiency, m.WallNs/1e6,
		o.serial/1e6, o.region/1e6, o.work[0]/1e6, o.work[1]/1e6)
	if m.Threads != 2 || len(m.Workers) != 2 {
		t.Fatalf("%d workers, want 2", m.Threads)
	}
	return m, o
}

// slack is what two clocks may disagree by over d nanoseconds: the
// program's CLOCK_MONOTONIC and the runtime's clock.
func slack(d float64) float64 { return 200e3 + 0.005*d }

// atLeast checks got ≥ want less the clocks' slack.
func atLeast(t *testing.T, name string, got, want float64) {
	t.Helper()
	if math.IsNaN(got) || got < want-slack(want) {
		t.Errorf("%s = %.3f ms, want at least %.3f ms (the program's own clock)", name, got/1e6, want/1e6)
	}
}

// checkTimes checks what holds by construction between gopari's times
// and the program's own, however loaded the machine: the region that
// the program timed around the fork and join holds gopari's; gopari's
// holds each thread's work, which is useful time; the serial work lies
// outside it. Ratios built from these bounds hold as well.
func checkTimes(t *testing.T, m *Metrics, o own) {
	t.Helper()
	atLeast(t, "the serial time", m.SerialNs, o.serial)
	atLeast(t, "the region's time as the program measured it", o.region, m.ParallelNs)
	var work float64
	for i, w := range m.Workers {
		atLeast(t, "the parallel region's time", m.ParallelNs, o.work[i])
		atLeast(t, "useful time of "+w.Path, w.UsefulNs, o.work[i])
		if w.UsefulNs > m.ParallelNs {
			t.Errorf("%s: useful %.3f ms in a region of %.3f ms", w.Path, w.UsefulNs/1e6, m.ParallelNs/1e6)
		}
		work += o.work[i] - slack(o.work[i])
	}
	// useful ≥ work, max(useful) ≤ P ≤ region; the serial work is useful.
	if lb := work / 2 / (o.region + slack(o.region)); m.LoadBalance < lb || m.LoadBalance > 1 {
		t.Errorf("load balance %.3f, want %.3f to 1", m.LoadBalance, lb)
	}
	if pe := (o.serial - slack(o.serial) + work) / (2 * m.WallNs); m.ParallelEfficiency < pe || m.ParallelEfficiency > 1 {
		t.Errorf("parallel efficiency %.3f, want %.3f to 1", m.ParallelEfficiency, pe)
	}
	if sf := m.SerialNs / m.WallNs; m.SerialFraction != sf || m.SerialRegionEfficiency != 1-sf/2 {
		t.Errorf("serial fraction %.3f and serial region efficiency %.3f; S/T is %.3f", m.SerialFraction, m.SerialRegionEfficiency, sf)
	}
}

// TestSerialProgram: a program whose first half runs on one thread, its
// serial fraction and load balance against its own clock.
func TestSerialProgram(t *testing.T) {
	t.Parallel()
	m, o := measure(t, "serial.c")
	checkTimes(t, m, o)
}

// TestImbalancedProgram: a program in which one of two threads does all
// the work: thread 0.1's useful time is what it takes to reach the
// closing barrier, where it waits for 0.0.
func TestImbalancedProgram(t *testing.T) {
	t.Parallel()
	m, o := measure(t, "imbalance.c")
	checkTimes(t, m, o)
	// Unloaded, the load balance is 0.5 and 0.1 waits as long as 0.0
	// works. Before these fail, thread 0.1 must lose half of 0.0's work
	// (150 ms) to being preempted before it reaches the barrier.
	if m.LoadBalance > 0.75 {
		t.Errorf("load balance %.3f, want below 0.75 (0.5 unless thread 0.1 was preempted for 150 ms)", m.LoadBalance)
	}
	if wait := m.Workers[1].Lost.Barrier; wait < o.work[0]/2 {
		t.Errorf("thread 0.1 waited %.3f ms in the closing barrier, want at least half of 0.0's work %.3f ms", wait/1e6, o.work[0]/1e6)
	}
}
