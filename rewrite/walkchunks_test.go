package rewrite

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	generate "gopari/internal/gen"
	"gopari/parser"
)

// instrumentSplit instruments src with the walk split before item k (0:
// as Source decides, -1: never; below -1: in -k chunks) and returns the
// output (nil after errors), the diagnostics, and the number of items.
func instrumentSplit(src []byte, cfg parser.Config, opts Options, k int) ([]byte, string, int) {
	pr, wait := parser.ParseAsync(parser.NewFile("s.c", src), cfg)
	var out []byte
	n := 0
	if !pr.Diags.HasErrors() {
		g := newGen(pr, opts)
		n = len(g.items())
		g.forceSplit = k
		if k < -1 {
			g.forceSplit, g.forceChunks = 0, -k
		}
		if res := g.run(); res != nil {
			out = res.Bytes()
			if len(out) != res.Size() {
				panic("Size differs from the bytes written")
			}
		}
	}
	wait()
	var diags strings.Builder
	for _, d := range pr.Diags {
		diags.WriteString(d.Error() + "\n")
	}
	return out, diags.String(), n
}

// checkSplits checks that the walk split before any item gives the output
// and diagnostics of the walk in one piece; step > 1 checks every step-th
// split only.
func checkSplits(t *testing.T, name string, src []byte, cfg parser.Config, opts Options, step int) {
	t.Helper()
	want, wantDiags, n := instrumentSplit(src, cfg, opts, -1)
	for k := 1; k < n; k += step {
		got, diags, _ := instrumentSplit(src, cfg, opts, k)
		if !bytes.Equal(got, want) {
			t.Fatalf("%s: split before item %d of %d: the output differs from the walk in one piece:\n%s", name, k, n, firstDiff(got, want))
		}
		if diags != wantDiags {
			t.Fatalf("%s: split before item %d of %d: diagnostics\n%s\nwant\n%s", name, k, n, diags, wantDiags)
		}
	}
}

// firstDiff shows where got and want first differ.
func firstDiff(got, want []byte) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	from := max(0, i-200)
	return "got:  …" + string(got[from:min(len(got), i+200)]) + "\nwant: …" + string(want[from:min(len(want), i+200)])
}

var optionLine = regexp.MustCompile(`^\s*(?://|/\*)\s*gopari:([^;*]*)`)

// TestSplitWalkGolden: every golden input, split before each of its
// items, instruments to the same bytes and diagnostics as in one piece.
func TestSplitWalkGolden(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob("../golden/testdata/*")
	cases := 0
	for _, name := range files {
		ext := filepath.Ext(name)
		if !map[string]bool{".c": true, ".cc": true, ".cpp": true, ".i": true, ".ii": true}[ext] {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		cfg := parser.Config{CPlusPlus: ext == ".cc" || ext == ".cpp" || ext == ".ii", Preprocessed: ext == ".i" || ext == ".ii"}
		var opts Options
		if m := optionLine.FindSubmatch(src); m != nil {
			for _, f := range strings.Fields(string(m[1])) {
				k, v, _ := strings.Cut(f, "=")
				switch k {
				case "--untied":
					opts.Untied, _ = ParseUntied(v)
				case "--disable":
					opts.Disable, _ = ParseDisable(v)
				case "--chunks":
					opts.Chunks = true
				}
			}
		}
		checkSplits(t, filepath.Base(name), src, cfg, opts, 1)
		cases++
	}
	if cases < 50 {
		t.Fatalf("only %d golden inputs found", cases)
	}
}

// TestSplitWalkGenerated: the generated inputs, split at many places, and
// as Source splits a large one.
func TestSplitWalkGenerated(t *testing.T) {
	t.Parallel()
	checkSplits(t, "mixed", generate.Mixed(3000, 7), parser.Config{}, Options{}, 37)
	checkSplits(t, "dense", generate.Dense(3000), parser.Config{}, Options{}, 41)
	checkSplits(t, "dense, C++", generate.Dense(3000), parser.Config{CPlusPlus: true}, Options{Untied: UntiedKeep}, 53)
	for _, k := range []int{3, 8, 13} {
		src := generate.Mixed(5000, int64(k))
		want, wantDiags, _ := instrumentSplit(src, parser.Config{}, Options{}, -1)
		got, diags, _ := instrumentSplit(src, parser.Config{}, Options{}, -k)
		if !bytes.Equal(got, want) || diags != wantDiags {
			t.Fatalf("Mixed 5000 in %d chunks: the output differs:\n%s", k, firstDiff(got, want))
		}
	}
	src := generate.Mixed(40_000, 3)
	want, wantDiags, n := instrumentSplit(src, parser.Config{}, Options{}, -1)
	got, diags, _ := instrumentSplit(src, parser.Config{}, Options{}, 0)
	if n < splitItems {
		t.Fatalf("%d items: the walk is not split", n)
	}
	if !bytes.Equal(got, want) || diags != wantDiags {
		t.Fatalf("a large file split by Source: the output differs:\n%s", firstDiff(got, want))
	}
}

// TestSplitRenumbers: region numbers of the second half, of every width,
// in calls, cleanup variables, copied lines and lock calls.
func TestSplitRenumbers(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("#include <omp.h>\nomp_lock_t l;\nvoid f(int c) {\n")
	for i := 0; i < 120; i++ {
		b.WriteString("#pragma omp parallel\n{\n#pragma omp for\nfor (int i = 0; i < c; i++) { if (i) {\n#pragma omp cancel for\n} }\nomp_set_lock(&l); omp_unset_lock(&l);\n#if X\n#pragma omp critical\n#endif\n{ c++; }\n}\n")
	}
	b.WriteString("}\n")
	checkSplits(t, "renumber", []byte(b.String()), parser.Config{}, Options{}, 7)
}

// TestRowsAhead: the rows of a large region table (80k lines) rendered in chunks
// beside the sort are those rendered as they are written, across chunks
// and file names (#line).
func TestRowsAhead(t *testing.T) {
	t.Parallel()
	var src []byte
	for i, name := range []string{"a.h", "b.h", "b.h", "c.h"} {
		src = append(src, generate.Mixed(20_000, int64(i))...)
		src = append(src, "#line 7 \""+name+"\"\n"...)
	}
	res, diags := Source("rows.c", src, parser.Config{}, Options{})
	if res == nil {
		t.Fatal(diags)
	}
	if res.g.rows == nil {
		t.Fatalf("%d regions: the rows were not rendered ahead", res.Regions)
	}
	ahead := res.Bytes()
	res.g.rows = nil
	if written := res.Bytes(); !bytes.Equal(ahead, written) {
		t.Fatalf("the rows rendered ahead differ:\n%s", firstDiff(ahead, written))
	}
}
