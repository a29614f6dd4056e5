package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCCStepOrder builds a program of two sources and an object through
// gopari cc -v and --dry-run, with a compiler that logs each command it
// runs, and checks that the steps print in the order they run: every
// command the compiler ran, and only those, in the same order; each
// step after the steps that make its inputs; what gopari says about a
// step (its diagnostics, the link's warnings) after that step's line
// or, for the link, just before it.
func TestCCStepOrder(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("no gcc")
	}
	prefix, err := filepath.Abs("../../build")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(prefix, "lib", "libpomp.a")); err != nil {
		t.Skip("build/lib/libpomp.a not built: run make build")
	}
	for _, mode := range []string{"-v", "--dry-run"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			cc, log := stepFiles(t, dir)
			cmd := exec.Command("gopari", "cc", mode, cc, "-fopenmp", "a.c", "b.c", "w.o", "-o", "prog")
			var stderr bytes.Buffer
			cmd.Dir, cmd.Stderr = dir, &stderr
			cmd.Env = append(os.Environ(), "GOPARI_PREFIX="+prefix, "STEP_LOG="+log)
			if err := cmd.Run(); err != nil {
				t.Fatalf("gopari cc %s: %v\n%s", mode, err, stderr.Bytes())
			}
			lines := strings.Split(strings.TrimSuffix(stderr.String(), "\n"), "\n")
			steps, kinds := ccSteps(cc, lines)
			ran, _ := os.ReadFile(log)
			want := []string{"preprocess", "instrument", "compile", "preprocess", "probe", "instrument", "compile", "link"}
			if mode == "--dry-run" {
				// Nothing runs, nothing is instrumented, the compiler
				// is not asked about metadirectives.
				want = slices.Delete(want, 4, 5)
				if len(ran) != 0 {
					t.Errorf("--dry-run ran commands:\n%s", ran)
				}
				if _, err := os.Stat(filepath.Join(dir, "prog")); err == nil {
					t.Error("--dry-run wrote prog")
				}
			} else {
				var compiler []string
				for _, s := range steps {
					if !strings.HasPrefix(s, "gopari ") {
						compiler = append(compiler, strings.TrimSuffix(s, " <<< (does it implement metadirectives?)"))
					}
				}
				if diff := cmp.Diff(strings.Split(strings.TrimSuffix(string(ran), "\n"), "\n"), compiler); diff != "" {
					t.Errorf("the commands printed are not those the compiler ran, in that order (-ran +printed):\n%s", diff)
				}
			}
			if diff := cmp.Diff(want, kinds); diff != "" {
				t.Errorf("steps (-want +got):\n%s\ngopari cc %s printed:\n%s", diff, mode, stderr.Bytes())
			}
			checkInputsFirst(t, steps)
			checkSaidAfter(t, lines, mode)
		})
	}
}

// stepFiles writes the sources, an object compiled with OpenMP but
// without gopari (w.o), and a compiler (cc) that logs each command it
// runs to log before running gcc.
func stepFiles(t *testing.T, dir string) (cc, log string) {
	t.Helper()
	files := map[string]string{
		// a.c's text shows every construct: it is compiled from its
		// instrumented text; gopari notes the untied clause it removes.
		"a.c": "void b(void);\nint main(void)\n{\n  int n = 0;\n  #pragma omp parallel\n  #pragma omp single\n  #pragma omp task untied\n  n++;\n  b();\n  return n == 1 ? 0 : 1;\n}\n",
		// b.c's directive comes from a macro: it is compiled from its
		// preprocessed form; its metadirective makes gopari ask the
		// compiler whether it implements them.
		"b.c":       "#define PAR _Pragma(\"omp parallel\")\nvoid b(void)\n{\n  int s = 0;\n  PAR\n  { }\n  #pragma omp metadirective default(parallel for reduction(+: s))\n  for (int i = 0; i < 10; i++)\n    s += i;\n}\n",
		"w.c":       "void w(void)\n{\n  #pragma omp parallel\n  { }\n}\n",
		"cc":        "#!/bin/sh\necho \"$0 $*\" >> \"$STEP_LOG\"\nexec gcc \"$@\"\n",
		"steps.log": "",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("gcc", "-fopenmp", "-c", "w.c", "-o", "w.o")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gcc -c w.c: %v\n%s", err, out)
	}
	return filepath.Join(dir, "cc"), filepath.Join(dir, "steps.log")
}

// ccSteps returns the lines of gopari cc's standard error that are
// steps (commands of the compiler cc, gopari instrument) and their kinds.
func ccSteps(cc string, lines []string) (steps, kinds []string) {
	for _, l := range lines {
		kind := ""
		switch {
		case strings.HasPrefix(l, "gopari instrument "):
			kind = "instrument"
		case !strings.HasPrefix(l, cc+" "):
			continue
		case strings.Contains(l, " -fsyntax-only "):
			kind = "probe"
		case strings.Contains(l, " -E "):
			kind = "preprocess"
		case strings.Contains(l, " -c "):
			kind = "compile"
		default:
			kind = "link"
		}
		steps, kinds = append(steps, l), append(kinds, kind)
	}
	return steps, kinds
}

// checkInputsFirst checks that every file a step reads comes from a step
// printed before it, if a step makes it: gopari instrument IN -o OUT and
// the compiler's -o name what they make.
func checkInputsFirst(t *testing.T, steps []string) {
	t.Helper()
	madeBy := make(map[string]int)
	for i, s := range steps {
		f := strings.Fields(s)
		for j := range f[:len(f)-1] {
			if f[j] == "-o" {
				madeBy[f[j+1]] = i
			}
		}
	}
	for i, s := range steps {
		f := strings.Fields(s)
		for j, a := range f {
			if j > 0 && f[j-1] == "-o" {
				continue
			}
			if k, ok := madeBy[a]; ok && k >= i {
				t.Errorf("step %d reads %s, which step %d makes:\n%s\n%s", i+1, a, k+1, s, steps[k])
			}
		}
	}
}

// checkSaidAfter checks that gopari's note about a.c follows a.c's
// instrument step (-v: --dry-run instruments nothing), and that the
// warning about w.o comes just before the link.
func checkSaidAfter(t *testing.T, lines []string, mode string) {
	t.Helper()
	at := func(prefix string) int {
		return slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, prefix) })
	}
	note, inst := at("a.c:7:"), at("gopari instrument a.c ")
	if mode == "-v" && (note < 0 || inst < 0 || note != inst+1) {
		t.Errorf("gopari's note about a.c is not the line after a.c's instrument step:\n%s", strings.Join(lines, "\n"))
	}
	warn := at("gopari: warning: w.o uses OpenMP")
	if warn < 0 || warn != len(lines)-2 {
		t.Errorf("the warning about w.o is not the line before the link:\n%s", strings.Join(lines, "\n"))
	}
}
