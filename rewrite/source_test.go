package rewrite

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"gopari/parser"
)

// TestSourceWarnings checks that Source, whose bracket check runs beside
// the rewrite, reports exactly what Parse followed by Instrument reports:
// each kind of bracket warning, with a position read from the file, in
// files with and without conditional groups of two live branches.
func TestSourceWarnings(t *testing.T) {
	warned := 0
	for _, src := range []string{
		"void f(void) {\n#pragma omp parallel\n{ x++; }\n}\n",
		"void f(void) {\n#pragma omp parallel\n{ x++; }\n}\n}\n",
		"void f(void) {\n#pragma omp parallel\n{ x++; )\n}\n",
		"void f(void) {\n#pragma omp parallel\n{ x++; }\n",
		"#ifdef A\nvoid f(void) {\n#else\nvoid g(void) {\n#endif\n#pragma omp barrier\n}\n}\n",
		"#ifdef A\nvoid f(void) {\n#else\nvoid g(void) {\n#endif\n#pragma omp barrier\n)\n",
		"#line 40 \"h.c\"\nint a[2] = { 1, 2 ];\n#pragma omp flush\n",
		"void f(void) {\n#pragma omp parallel\n{ x++;\n}\n#pragma omp barrier\n", // an error first
	} {
		res, got := Source("w.c", []byte(src), parser.Config{}, Options{})
		pr := parser.Parse(parser.NewFile("w.c", []byte(src)), parser.Config{})
		want := Instrument(pr, Options{})
		if d := cmp.Diff(diagStrings(pr.Diags), diagStrings(got)); d != "" {
			t.Errorf("%q: Source's diagnostics differ from Parse and Instrument's (-want +got):\n%s", src, d)
		}
		if (res == nil) != (want == nil || pr.Diags.HasErrors()) {
			t.Errorf("%q: Source gave a result: %v, Instrument: %v", src, res != nil, want != nil)
		}
		for _, d := range got {
			if strings.Contains(d.Msg, "unbalanced") {
				warned++
			}
		}
	}
	if warned < 5 {
		t.Errorf("%d bracket warnings in all: the inputs should give 5", warned)
	}
}

func diagStrings(l parser.DiagnosticList) []string {
	var s []string
	for _, d := range l {
		s = append(s, fmt.Sprint(d))
	}
	return s
}
