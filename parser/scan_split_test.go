package parser

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// scanBoth scans src sequentially and in two halves.
func scanBoth(t *testing.T, src []byte, cpp bool) (seq, split string) {
	t.Helper()
	old := splitMin
	defer func() { splitMin = old }()
	run := func(min int) string {
		splitMin = min
		var diags DiagnosticList
		f := NewFile("s.c", src)
		s := scan(f, Options{CPlusPlus: cpp}, &diags)
		var b strings.Builder
		fmt.Fprintf(&b, "toks %v\npp %v\nids %v\nmarkers %v\n", s.toks, s.pp, s.ids, f.markers)
		for _, d := range diags {
			b.WriteString(d.Error() + "\n")
		}
		return b.String()
	}
	return run(1 << 62), run(1)
}

// TestScanSplit checks that scanning in two halves gives what one scan
// gives, token for token, with the same line markers and errors: on
// random sequences of what can run over the middle of a file (comments,
// literals, directive lines, skipped branches, conditionals, #line), and
// on every golden input.
func TestScanSplit(t *testing.T) {
	pieces := []string{"x ", "42 ", "1'000 ", "a.b ", "+= ", "\n", "\n\n", "/* c\n c */", "// c\\\n c\n", "\"s\\\n s\" ",
		"'c' ", "R\"d(x\n)d\" ", "#if 0\nq\n#else\nr\n#endif\n", "#ifdef A\n", "#endif\n", "#else\n", "#elif 0\n", "#elif B\n",
		"#if 1\n", "#line 7 \"h.h\"\n", "# 9\n", "#define M \\\n 1\n", "{ ", "} ", "_Pragma(\"omp barrier\") ", "#pragma omp task\n",
		"omp_set_lock(&l); ", "\"unterminated\n", "/* open", "\\\n", "\r\n"}
	r := rand.New(rand.NewPCG(9, 10))
	rejected := splitsRejected.Load()
	const iters = 4000
	for iter := 0; iter < iters; iter++ {
		var b strings.Builder
		for n := r.IntN(30); n > 0; n-- {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		src := []byte(b.String())
		cpp := iter%2 == 0
		if seq, split := scanBoth(t, src, cpp); seq != split {
			t.Fatalf("%q:\none scan:\n%s\ntwo halves:\n%s", src, seq, split)
		}
	}
	if n := splitsRejected.Load() - rejected; n < iters/20 || n > iters-iters/20 {
		t.Errorf("%d of %d second halves thrown away: both ways should be common", n, iters)
	}
	files, _ := filepath.Glob("../golden/testdata/*.[ci]*")
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil || strings.HasSuffix(name, ".golden") {
			continue
		}
		if seq, split := scanBoth(t, src, strings.HasSuffix(name, "pp")); seq != split {
			t.Errorf("%s: two halves differ from one scan", name)
		}
	}
}
