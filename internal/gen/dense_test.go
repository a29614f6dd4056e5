package gen

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gopari/parser"
)

// TestDenseShape checks what the benchmark input promises: one directive
// per 8 lines, every construct class, lock calls, user regions, _Pragma,
// nesting and a long line.
func TestDenseShape(t *testing.T) {
	src := Dense(10_000)
	lines := Lines(src)
	if lines < 10_000 || lines > 10_000+cycleLines {
		t.Errorf("got %d lines for 10000", lines)
	}
	r := parser.Parse(parser.NewFile("dense.c", src), parser.Config{})
	if r.Diags.HasErrors() {
		t.Fatal(r.Diags.Err())
	}
	if ratio := float64(lines) / float64(len(r.Directives)); ratio < 7.5 || ratio > 8.5 {
		t.Errorf("%d lines, %d directives: one per %.2f lines, want 8", lines, len(r.Directives), ratio)
	}
	classes := map[parser.Class]bool{}
	forms := map[parser.Form]bool{}
	for _, d := range r.Directives {
		classes[d.Class()] = true
		forms[d.Form] = true
	}
	for c := parser.ClassParallel; c <= parser.ClassUserEnd; c++ {
		if c != parser.ClassPassthrough && c != parser.ClassDeclTargetBegin && c != parser.ClassDeclTargetEnd && !classes[c] {
			t.Errorf("no directive of class %d", c)
		}
	}
	if !forms[parser.FormOperator] {
		t.Errorf("no _Pragma operator")
	}
	sets := 0
	for _, l := range r.Locks {
		if l.Name == "omp_set_lock" {
			sets++
		}
	}
	if per := float64(sets) * 1000 / float64(lines); per < 4 || per > 8 {
		t.Errorf("%.1f omp_set_lock calls per 1,000 lines, want about 6", per)
	}
	depth := 0
	for _, c := range r.Constructs {
		depth = max(depth, c.Depth)
	}
	if depth < 3 {
		t.Errorf("constructs nest %d deep, want at least 3", depth+1)
	}
	long := 0
	for _, l := range bytes.Split(src, []byte{'\n'}) {
		long = max(long, len(l))
	}
	if long < 1400 {
		t.Errorf("longest line %d bytes, want 1,400 or more", long)
	}
}

// TestDenseCompiles checks that the generated file is valid C.
func TestDenseCompiles(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc not installed")
	}
	name := filepath.Join(t.TempDir(), "dense.c")
	if err := os.WriteFile(name, Dense(1000), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("gcc", "-fopenmp", "-fsyntax-only", "-Wall", "-Wno-unknown-pragmas", name).CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "" {
		t.Errorf("gcc: %v\n%s", err, out)
	}
}

// TestMixedParses checks that Mixed is deterministic, C that the parser
// reads without a diagnostic, and holds about a directive per 6-12 lines.
func TestMixedParses(t *testing.T) {
	src := Mixed(5_000, 1)
	if !bytes.Equal(src, Mixed(5_000, 1)) {
		t.Fatal("Mixed(5000, 1) differs between calls")
	}
	r := parser.Parse(parser.NewFile("mixed.c", src), parser.Config{})
	if len(r.Diags) > 0 {
		t.Fatal(r.Diags.Err())
	}
	if lines := Lines(src); len(r.Directives) < lines/15 || len(r.Directives) > lines/4 {
		t.Errorf("%d lines, %d directives", lines, len(r.Directives))
	}
}
