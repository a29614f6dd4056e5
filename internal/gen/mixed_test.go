package gen

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gopari/parser"
	"gopari/rewrite"
)

// TestMixedShape checks what the held-out input promises (issue 27): a
// third of the functions serial, with comments and string literals that
// hold "#pragma omp" text and escaped quotes; the rest with parallel,
// for, critical, barrier, single, atomic, master, tasks with taskwait,
// parallel for with clauses, sections, nested parallel regions and lock
// calls.
func TestMixedShape(t *testing.T) {
	t.Parallel()
	src := Mixed(20_000, 7)
	r := parser.Parse(parser.NewFile("mixed.c", src), parser.Config{})
	if len(r.Diags) > 0 {
		t.Fatal(r.Diags.Err())
	}
	names := map[string]int{}
	for _, d := range r.Directives {
		names[d.Name]++
	}
	for _, n := range []string{"parallel", "for", "critical", "barrier", "single", "atomic", "master",
		"task", "taskwait", "parallel for", "parallel sections", "section"} {
		if names[n] == 0 {
			t.Errorf("no %q directive", n)
		}
	}
	withClauses := 0
	for _, d := range r.Directives {
		if d.Name == "parallel for" && len(d.Clauses) >= 2 {
			withClauses++
		}
	}
	if withClauses == 0 {
		t.Errorf("no parallel for with clauses")
	}
	nested := 0
	for _, c := range r.Constructs {
		for p := c.Parent; p != nil; p = p.Parent {
			if c.Dir.Leaves != nil && c.Dir.Leaves[0] == "parallel" && p.Dir.Name == "parallel" {
				nested++
				break
			}
		}
	}
	if nested == 0 {
		t.Errorf("no parallel region nested in another")
	}
	locks := map[string]int{}
	for _, l := range r.Locks {
		locks[l.Name]++
	}
	if locks["omp_set_lock"] == 0 || locks["omp_unset_lock"] == 0 {
		t.Errorf("lock calls %v, want omp_set_lock and omp_unset_lock", locks)
	}
	funcs, serial, fake := 0, 0, 0
	for _, f := range strings.Split(string(src), "\ndouble fn")[1:] {
		funcs++
		if !strings.Contains(f, "#pragma omp parallel\n") && !strings.Contains(f, "  #pragma omp") {
			serial++
			if strings.Contains(f, `"say \"#pragma omp task\" twice"`) && strings.Contains(f, "// #pragma omp for") &&
				strings.Contains(f, `/* '\'' "#pragma omp barrier" */`) {
				fake++
			}
		}
	}
	if third := float64(serial) / float64(funcs); third < 0.28 || third > 0.39 {
		t.Errorf("%d of %d functions serial (%.2f), want a third", serial, funcs, third)
	}
	if fake != serial {
		t.Errorf("%d of %d serial functions hold pragma text in comments and strings with escaped quotes", fake, serial)
	}
}

// TestMixedCompiles checks that a small Mixed file is valid C for gcc
// and clang with OpenMP, without a warning under -Wall, and that gopari
// instruments it into C that compiles too.
func TestMixedCompiles(t *testing.T) {
	t.Parallel()
	src := Mixed(600, 3)
	res, diags := rewrite.Source("mixed.c", src, parser.Config{}, rewrite.Options{})
	if res == nil {
		t.Fatal(diags.Err())
	}
	dir := t.TempDir()
	orig := filepath.Join(dir, "mixed.c")
	inst := filepath.Join(dir, "mixed.pomp.c")
	if err := os.WriteFile(orig, src, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(inst, res.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	include, err := filepath.Abs("../../pomprt/include")
	if err != nil {
		t.Fatal(err)
	}
	probe := filepath.Join(dir, "probe.c")
	if err := os.WriteFile(probe, []byte("#include <omp.h>\nint main(void) { return omp_get_max_threads() < 1; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ran := 0
	for _, cc := range []string{"gcc", "clang-14"} {
		if _, err := exec.LookPath(cc); err != nil {
			continue
		}
		if out, err := exec.Command(cc, "-fopenmp", "-fsyntax-only", probe).CombinedOutput(); err != nil {
			if cc == "gcc" {
				t.Fatalf("gcc cannot compile an OpenMP program: %v\n%s", err, out)
			}
			// As pomprt/e2e does: clang without its libomp headers is no
			// compiler for OpenMP programs here.
			t.Logf("%s cannot compile an OpenMP program (its omp.h missing?): %v\n%s", cc, err, out)
			continue
		}
		ran++
		for _, f := range []string{orig, inst} {
			out, err := exec.Command(cc, "-fopenmp", "-fsyntax-only", "-Wall", "-I", include, f).CombinedOutput()
			if err != nil || len(bytes.TrimSpace(out)) > 0 {
				t.Errorf("%s %s: %v\n%s", cc, filepath.Base(f), err, out)
			}
		}
	}
	if ran == 0 {
		t.Skip("neither gcc nor clang-14 compiles OpenMP programs here")
	}
}
