package parser

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	generate "gopari/internal/gen"
)

// parseSplit parses src with the search for directives split at token k
// (-1: never) and returns the result with its diagnostics as text.
func parseSplit(src []byte, cfg Config, k int) (*Result, string) {
	r, _, wait := startSplit(NewFile("s.c", src), cfg, false, k)
	wait()
	var b strings.Builder
	for _, d := range r.Diags {
		b.WriteString(d.Error() + "\n")
	}
	return r, b.String()
}

// checkDirectiveSplits checks that the search for directives split at
// every step-th token finds what the search in one piece finds: the same
// directives, constructs, lock calls, user regions, marked tokens and
// diagnostics.
func checkDirectiveSplits(t *testing.T, name string, src []byte, cfg Config, step int) {
	t.Helper()
	want, wantDiags := parseSplit(src, cfg, -1)
	for k := 1; k < len(want.Toks); k += step {
		got, diags := parseSplit(src, cfg, k)
		if diags != wantDiags {
			t.Fatalf("%s: split at token %d: diagnostics\n%s\nwant\n%s", name, k, diags, wantDiags)
		}
		for _, c := range []struct {
			what      string
			got, want any
		}{
			{"tokens", got.Toks, want.Toks},
			{"directives", got.Directives, want.Directives},
			{"constructs", got.Constructs, want.Constructs},
			{"lock calls", got.Locks, want.Locks},
			{"user regions", got.UserRegions, want.UserRegions},
			{"macro pragmas", got.MacroPragmas, want.MacroPragmas},
		} {
			if !reflect.DeepEqual(c.got, c.want) {
				t.Fatalf("%s: split at token %d: the %s differ from a search in one piece", name, k, c.what)
			}
		}
	}
}

// TestDirectiveSplitGolden: the golden inputs, split at every token.
func TestDirectiveSplitGolden(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob("../golden/testdata/*")
	n := 0
	for _, name := range files {
		ext := filepath.Ext(name)
		if !map[string]bool{".c": true, ".cc": true, ".cpp": true, ".i": true, ".ii": true}[ext] {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		cfg := Config{CPlusPlus: ext == ".cc" || ext == ".cpp" || ext == ".ii", Preprocessed: ext == ".i" || ext == ".ii"}
		step := 1
		if len(src) > 20000 {
			step = 7
		}
		checkDirectiveSplits(t, filepath.Base(name), src, cfg, step)
		n++
	}
	if n < 50 {
		t.Fatalf("only %d golden inputs found", n)
	}
}

// TestDirectiveSplitGenerated: generated inputs, split at many tokens,
// and as Parse splits a large one.
func TestDirectiveSplitGenerated(t *testing.T) {
	t.Parallel()
	checkDirectiveSplits(t, "mixed", generate.Mixed(2000, 5), Config{}, 97)
	checkDirectiveSplits(t, "dense, C++", generate.Dense(2000), Config{CPlusPlus: true}, 89)
	src := generate.Mixed(40_000, 3)
	want, wantDiags := parseSplit(src, Config{}, -1)
	got, diags := parseSplit(src, Config{}, 0)
	if len(want.Directives) < splitDirectives/2 {
		t.Fatalf("%d directives: the search is not split", len(want.Directives))
	}
	if diags != wantDiags || !reflect.DeepEqual(got.Directives, want.Directives) || !reflect.DeepEqual(got.Constructs, want.Constructs) || !reflect.DeepEqual(got.Toks, want.Toks) {
		t.Fatal("a large file split by Parse: the result differs")
	}
}
