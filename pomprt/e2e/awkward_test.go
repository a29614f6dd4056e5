package e2e

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"gopari/internal/gen"
	"gopari/internal/profile"
)

var (
	gopariOnce sync.Once
	gopariExe  string
	gopariErr  error
)

// gopariCommand returns the gopari command, built once.
func gopariCommand(t *testing.T) string {
	t.Helper()
	gopariOnce.Do(func() {
		gopariExe = filepath.Join(libDir, "gopari")
		out, err := exec.Command("go", "build", "-o", gopariExe, "../../cmd/gopari").CombinedOutput()
		if err != nil {
			gopariErr = fmt.Errorf("building gopari: %v\n%s", err, out)
		}
	})
	if gopariErr != nil {
		t.Fatal(gopariErr)
	}
	return gopariExe
}

// instrumentIn runs gopari instrument src -o out in dir.
func instrumentIn(t *testing.T, dir, src, out string) {
	t.Helper()
	cmd := exec.Command(gopariCommand(t), "instrument", src, "-o", out)
	cmd.Dir = dir
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gopari instrument: %v\n%s", err, msg)
	}
}

// awkward is a valid but unusual input.
type awkward struct {
	name string
	src  func() []byte
	run  bool // link and run it, and compare with the uninstrumented build
}

// mainWith returns a main function that runs a parallel region and then
// extra. It prints __LINE__ here and there, so that comparing the output
// of the instrumented program with the original's checks #line mapping.
func mainWith(extra string) string {
	return `int main(void)
{
  int n = 0;
  printf("%d\n", __LINE__);
  #pragma omp parallel
  {
    #pragma omp atomic
    n++;
  }
  printf("%d %d\n", __LINE__, n > 0);
` + extra + `  return 0;
}
`
}

var awkwardInputs = []awkward{
	// An empty file.
	{"empty.c", func() []byte { return nil }, false},

	// Latin-1 in comments and strings, as legacy code has it: passed
	// through byte for byte.
	{"latin1.c", func() []byte {
		return []byte("#include <stdio.h>\n/* R\xe9sum\xe9: \xa9 1998 M\xfcller */\n" +
			"static const char *who = \"Gr\xfc\xdfe, \xe9t\xe9\";\n" +
			mainWith("  puts(who); /* caf\xe9 */\n"))
	}, true},

	// A 10 MB line: a comment, then code with a directive on the same
	// line, then more code whose line numbers must not shift.
	{"longline.c", func() []byte {
		var b bytes.Buffer
		b.WriteString("#include <stdio.h>\nint before;\n")
		b.WriteString("static int m; /* ")
		b.Write(bytes.Repeat([]byte("0123456789abcdef"), 10<<20/16))
		b.WriteString(` */ static void f(void) { _Pragma("omp parallel") { _Pragma("omp atomic") m++; } printf("%d\n", __LINE__); }`)
		b.WriteString("\n")
		b.WriteString(mainWith("  f();\n  printf(\"%d %d\\n\", __LINE__, m > 0);\n"))
		return b.Bytes()
	}, true},

	// Constructs nested 1,000 deep.
	{"deep.c", func() []byte {
		var b strings.Builder
		b.WriteString("#include <stdio.h>\nint depth;\n")
		b.WriteString("static void f(void)\n{\n")
		for i := 0; i < 1000; i++ {
			if i%2 == 0 {
				b.WriteString("#pragma omp parallel\n{\n")
			} else {
				b.WriteString("#pragma omp single\n{\n")
			}
		}
		b.WriteString("#pragma omp atomic\ndepth++;\n")
		b.WriteString(strings.Repeat("}\n", 1000))
		b.WriteString("printf(\"%d %d\\n\", __LINE__, depth > 0);\n}\n")
		b.WriteString(mainWith("  f();\n"))
		return []byte(b.String())
	}, true},

	// 100,000 regions in one file, where the reference tool crashes.
	{"regions.c", func() []byte {
		var b strings.Builder
		b.WriteString("#include <stdio.h>\nlong hits;\n")
		kinds := []string{"#pragma omp atomic\nhits++;\n", "#pragma omp critical\nhits++;\n", "#pragma omp flush\n",
			"#pragma omp barrier\n", "#pragma omp master\nhits++;\n"}
		for f := 0; f < 1000; f++ {
			fmt.Fprintf(&b, "void f%d(void)\n{\n", f)
			for j := 0; j < 100; j++ {
				b.WriteString(kinds[j%len(kinds)])
			}
			b.WriteString("}\n")
		}
		var calls strings.Builder
		for f := 0; f < 1000; f++ {
			fmt.Fprintf(&calls, "  f%d();\n", f)
		}
		calls.WriteString("  printf(\"%d %ld\\n\", __LINE__, hits);\n")
		b.WriteString(mainWith(calls.String()))
		return []byte(b.String())
	}, true},

	// A file of a million lines: a generated table, and code.
	{"million.c", func() []byte {
		var b bytes.Buffer
		b.WriteString("static const int table[] = {\n")
		for i := 0; i < 990_000; i++ {
			fmt.Fprintf(&b, "  %d,\n", i%9973)
		}
		b.WriteString("};\nint table_size(void) { return sizeof table / sizeof table[0]; }\n")
		b.Write(gen.Dense(10_000))
		return b.Bytes()
	}, false},
}

// TestAwkwardInputs instruments valid but awkward files with the gopari
// command and compiles the results; the runnable ones are linked, run
// and compared with their uninstrumented builds.
func TestAwkwardInputs(t *testing.T) {
	needTools(t)
	c := compilers[0]
	for _, in := range awkwardInputs {
		in := in
		t.Run(in.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			src := in.src()
			if err := os.WriteFile(filepath.Join(dir, in.name), src, 0o644); err != nil {
				t.Fatal(err)
			}
			inst := strings.TrimSuffix(in.name, ".c") + ".pomp.c"
			instrumentIn(t, dir, in.name, inst)
			out, err := os.ReadFile(filepath.Join(dir, inst))
			if err != nil {
				t.Fatal(err)
			}
			checkVerbatim(t, src, out)

			opt := append([]string{"-O0", "-w", "-I", incDir}, c.openmp...)
			if !in.run {
				compileOrFail(t, c.cc, append(opt, "-c", filepath.Join(dir, inst), "-o", filepath.Join(dir, "out.o"))...)
				return
			}
			origExe, instExe := filepath.Join(dir, "orig"), filepath.Join(dir, "inst")
			compileOrFail(t, c.cc, append(opt, filepath.Join(dir, in.name), "-o", origExe)...)
			compileOrFail(t, c.cc, append(append(opt, filepath.Join(dir, inst), "-o", instExe, filepath.Join(libDir, "libpomp.a")), c.linkLibs...)...)
			env := []string{"OMP_NUM_THREADS=2"}
			want, got := run(t, origExe, env), run(t, instExe, env)
			if got.code != 0 || got.stdout != want.stdout {
				t.Fatalf("instrumented, it printed (exit %d)\n%s\nuninstrumented\n%s\nstderr: %s", got.code, got.stdout, want.stdout, got.stderr)
			}
			prof := readProfile(t, got)
			if prof.UnmatchedEvents != 0 {
				t.Errorf("%d unmatched events", prof.UnmatchedEvents)
			}
			if in.name == "regions.c" {
				checkRegionCount(t, prof, 100_000+2) // and main's two
			}
		})
	}
}

// checkVerbatim checks that the awkward lines of the input are in the
// output unchanged, byte for byte, and in order: lines with bytes beyond
// ASCII, long lines and table rows. (Lines next to constructs may gain
// calls at their ends, and lines with directives change.)
func checkVerbatim(t *testing.T, src, out []byte) {
	t.Helper()
	pos := 0
	for i, line := range bytes.Split(src, []byte("\n")) {
		if !awkwardLine(line) {
			continue
		}
		if k := bytes.Index(line, []byte("omp")); k >= 0 {
			// What comes before a _Pragma on the line stays as it was.
			k = bytes.LastIndex(line[:k], []byte("_Pragma"))
			if k <= 0 {
				continue
			}
			line = line[:k]
		}
		k := bytes.Index(out[pos:], line)
		if k < 0 {
			if len(line) > 60 {
				line = line[:60]
			}
			t.Fatalf("line %d of the input is not in the output, in order: %q", i+1, line)
		}
		pos += k + len(line)
	}
}

func checkRegionCount(t *testing.T, p *profile.Profile, n int) {
	t.Helper()
	if len(p.Regions) != n {
		t.Errorf("the profile has %d regions, want %d", len(p.Regions), n)
	}
}

func awkwardLine(line []byte) bool {
	if len(line) > 1000 || len(line) > 2 && line[len(line)-1] == ',' {
		return true
	}
	for _, c := range line {
		if c >= 0x80 {
			return true
		}
	}
	return false
}
