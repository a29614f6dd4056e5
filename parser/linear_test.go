package parser

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// linearInputs generate sources of a size proportional to n, each
// stressing one thing the parser's passes might scan again and again.
var linearInputs = []struct {
	name string
	gen  func(n int) string
}{
	// Braced parallel regions nested n deep: every block holds all the
	// inner ones.
	{"nested blocks", func(n int) string {
		return "void f(void) {\n" + strings.Repeat("#pragma omp parallel\n{ x++;\n", n) + strings.Repeat("}\n", n) + "}\n"
	}},
	// n directives before one statement: each one's statement is the
	// next directive.
	{"directive chain", func(n int) string {
		return "void f(void) {\n" + strings.Repeat("#pragma omp parallel\n", n) + "#pragma omp for\nfor (int i = 0; i < 9; i++) x++;\n}\n"
	}},
	// _Pragma operators nested in braces, and C++ lambdas in calls.
	{"nested _Pragma and lambdas", func(n int) string {
		return "void f() {\n" + strings.Repeat("g([&] { _Pragma(\"omp parallel\") { y++;\n", n) + strings.Repeat("} });\n", n) + "}\n"
	}},
	// sections nested n deep.
	{"nested sections", func(n int) string {
		return "void f(void) {\n" + strings.Repeat("#pragma omp parallel sections\n{\n#pragma omp section\n{ a();\n", n) + strings.Repeat("}\n}\n", n) + "}\n"
	}},
	// if statements without else nested n deep in a construct, and n
	// preprocessor lines where each looks for an else.
	{"if chain and preprocessor lines", func(n int) string {
		return "void f(void) {\n#pragma omp task\n" + strings.Repeat("if (a)\n", n) + "x++;\n" + strings.Repeat("#define M 1\n", n) + "y++;\n}\n"
	}},
	// Conditionals inside every level of nesting.
	{"nested blocks with conditionals", func(n int) string {
		return "void f(void) {\n" + strings.Repeat("#pragma omp parallel\n{\n#ifdef A\n a();\n#else\n b();\n#endif\n", n) + strings.Repeat("}\n", n) + "}\n"
	}},
	// Many lock calls and user regions inside and outside simd and
	// target constructs, and declare target blocks.
	{"lock calls and user regions", func(n int) string {
		var b strings.Builder
		b.WriteString("#include <omp.h>\nomp_lock_t l;\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "void f%d(void) {\n#pragma omp parallel\n{\n omp_set_lock(&l);\n#pragma pomp inst begin(r%d)\n x++;\n#pragma pomp inst end(r%d)\n omp_unset_lock(&l);\n}\n#pragma omp simd\nfor (int i = 0; i < 9; i++) omp_test_lock(&l);\n}\n", i, i, i)
			fmt.Fprintf(&b, "#pragma omp declare target\nvoid g%d(void) { omp_set_lock(&l); }\n#pragma omp end declare target\n", i)
		}
		return b.String()
	}},
	// Lock calls inside n simd loops and n target regions: n spans where
	// no call may go, each lock call looked up in them (it was a scan of
	// every construct per call: quadratic).
	{"lock calls inside n simd/target spans", lockSpans},
	// cancel in the innermost of n nested regions, n times.
	{"cancel deep inside", func(n int) string {
		return "void f(void) {\n" + strings.Repeat("#pragma omp parallel\n{\n", n) + strings.Repeat("#pragma omp cancel parallel\n", n) + strings.Repeat("}\n", n) + "}\n"
	}},
	// #line markers and GCC line markers, one per construct.
	{"line markers", func(n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "# %d \"h%d.h\"\nvoid f%d(void) {\n#pragma omp parallel\n x++;\n}\n#line %d \"x.c\"\n", i+1, i%7, i, 3*i+1)
		}
		return b.String()
	}},
	// One long line: digit separators in a skipped branch and in a
	// directive's clause.
	{"long lines", func(n int) string {
		digits := strings.Repeat("1'", n) + "1"
		return "#if 0\nint x = " + digits + ";\n#endif\nvoid f(void) {\n#pragma omp parallel num_threads(" + digits + ")\n x++;\n}\n"
	}},
	// A truncated file: n braces opened after directives, none closed.
	{"unclosed blocks", func(n int) string {
		return "void f(void) {\n" + strings.Repeat("#pragma omp parallel\n{ x++;\n", n)
	}},
	// Nested constructs whose statements fail after the inner ones.
	{"nested failing statements", func(n int) string {
		return "void f(void) {\n" + strings.Repeat("#pragma omp task\nif (a) { b();\n", n) + strings.Repeat("} else\n", n) + "}\n"
	}},
	// Many identifiers that look like lock routines but are not calls.
	{"identifiers", func(n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "void omp_set_lock_%d(void); s.omp_set_lock = p->omp_unset_lock; int omp_test_lock;\n", i)
		}
		return b.String()
	}},
}

// TestLinearWork parses inputs of n and 4n units and checks that the
// steps the passes take (parser.work: tokens visited by walks, scans of
// sections and conditional groups, characters looked at for digit
// separators, and the entries every lookup examines: interval sets of
// simd, target and declare target spans, the directive list, the line
// table) grow at most about four times. Steps, not time: the test does
// not depend on the machine. A lookup that scans every construct for
// each lock call, the bug of issue 12, makes the lock-call cases grow
// 16 times; so does a linear scan in spans.contains.
func TestLinearWork(t *testing.T) {
	for _, in := range linearInputs {
		t.Run(in.name, func(t *testing.T) {
			const n = 2000
			w1, size1 := parseWork(t, in.gen(n))
			w4, size4 := parseWork(t, in.gen(4*n))
			if w1 == 0 {
				t.Fatalf("no work counted for %d units", n)
			}
			if ratio := float64(w4) / float64(w1); ratio > 4.5 {
				t.Errorf("%d units: %d steps (%d bytes); %d units: %d steps (%d bytes): %.1f times the work for 4 times the input", n, w1, size1, 4*n, w4, size4, ratio)
			}
			if per := float64(w4) / float64(size4); per > 4 {
				t.Errorf("%.1f steps per byte of input", per)
			}
		})
	}
}

func parseWork(t *testing.T, src string) (work, size int) {
	t.Helper()
	_, p := parse(NewFile("lin.c", []byte(src)), Config{CPlusPlus: true})
	return p.work, len(src)
}

// TestDigitSepRuns checks that numRun, which remembers runs, answers as
// a fresh look back does, for quotes asked in increasing order.
func TestDigitSepRuns(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte("1a.'_x9 (\"")
	for iter := 0; iter < 2000; iter++ {
		b := make([]byte, 1+r.IntN(40))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		var nr numRun
		for i := range b {
			if b[i] != '\'' {
				continue
			}
			if got, want := nr.digitSep(b, i), naiveDigitSep(b, i); got != want {
				t.Fatalf("%q at %d: numRun says %v, a fresh look %v", b, i, got, want)
			}
		}
	}
}

// naiveDigitSep is digitSep as it was: a look back over the whole run.
func naiveDigitSep(b []byte, i int) bool {
	if i == 0 || i+1 >= len(b) || class[b[i-1]]&cIdent == 0 || class[b[i+1]]&cIdent == 0 {
		return false
	}
	k := i - 1
	for k > 0 && isNumRun(b[k-1]) {
		k--
	}
	return class[b[k]]&cDigit != 0 || b[k] == '.' && class[b[k+1]]&cDigit != 0
}

// lockSpans is n simd loops and n target regions, each holding lock
// calls, with lock calls between them.
func lockSpans(n int) string {
	var b strings.Builder
	b.WriteString("#include <omp.h>\nomp_lock_t l;\nvoid f(int *a) {\n")
	for i := 0; i < n; i++ {
		b.WriteString("#pragma omp simd\nfor (int i = 0; i < 9; i++) { omp_set_lock(&l); a[i]++; omp_unset_lock(&l); }\n")
		b.WriteString("#pragma omp target\n{ omp_set_lock(&l); omp_unset_lock(&l); }\nomp_set_lock(&l); omp_unset_lock(&l);\n")
	}
	b.WriteString("}\n")
	return b.String()
}
