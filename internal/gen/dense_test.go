package gen

import (
	"bytes"
	"testing"
)

// TestDenseShape checks the density the benchmark promises: one directive
// per 8 lines.
func TestDenseShape(t *testing.T) {
	src := Dense(10_000)
	lines := Lines(src)
	dirs := bytes.Count(src, []byte("  #pragma omp ")) // real directives are indented
	ratio := float64(lines) / float64(dirs)
	if ratio < 7.5 || ratio > 8.5 {
		t.Errorf("%d lines, %d directives: one per %.2f lines, want 8", lines, dirs, ratio)
	}
	if lines < 10_000 || lines > 10_000+kernelLines {
		t.Errorf("got %d lines for 10000", lines)
	}
}
