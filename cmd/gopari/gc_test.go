package main

import (
	"runtime/debug"
	"testing"
)

// TestPauseGC checks that collection is off, under a limit that grows
// with the file, between pauseGC and its resume, and as before after.
func TestPauseGC(t *testing.T) {
	t.Setenv("GOGC", "")
	defer debug.SetGCPercent(debug.SetGCPercent(150))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(5 << 30))
	resume := pauseGC(1 << 20)
	percent, limit := debug.SetGCPercent(-1), debug.SetMemoryLimit(-1)
	resume()
	if percent != -1 || limit != 1<<30+32<<20 {
		t.Errorf("while paused: GC percent %d, limit %d; want -1, %d", percent, limit, 1<<30+32<<20)
	}
	if p, l := debug.SetGCPercent(150), debug.SetMemoryLimit(-1); p != 150 || l != 5<<30 {
		t.Errorf("after resume: GC percent %d, limit %d; want 150, %d", p, l, 5<<30)
	}
	t.Setenv("GOGC", "100")
	pauseGC(1 << 20)()
	if p := debug.SetGCPercent(150); p != 150 {
		t.Errorf("with GOGC set, pauseGC changed the GC percent to %d", p)
	}
}
