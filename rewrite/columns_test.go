package rewrite

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"gopari/parser"
)

// TestColumnsKept instruments every golden input and checks that each
// identifier written once in it stands, in the output, at its line (as
// #line directives and line markers number the lines) and its column:
// the compiler's messages about it name the user's position. An
// identifier that the output holds more than once after its header
// (copied into generated code) is not checked, nor one on the line of a lock call
// after the call (the wrapper's call is longer), nor one on a line that
// --chunks rewrites.
func TestColumnsKept(t *testing.T) {
	files, _ := filepath.Glob("../golden/testdata/*")
	checked := 0
	for _, path := range files {
		ext := filepath.Ext(path)
		if ext != ".c" && ext != ".cpp" && ext != ".i" || strings.HasPrefix(filepath.Base(path), "error_") {
			continue
		}
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(src, []byte("--chunks")) || bytes.HasPrefix(src, []byte("\xEF\xBB\xBF")) {
			continue
		}
		name := filepath.Base(path)
		cfg := parser.Config{CPlusPlus: ext == ".cpp", Preprocessed: ext == ".i"}
		res, diags := Source(name, src, cfg, Options{Untied: UntiedKeep})
		if res == nil {
			t.Errorf("%s: %v", name, diags)
			continue
		}
		checked += checkColumns(t, name, src, res.Bytes())
	}
	if checked < 500 {
		t.Errorf("%d identifiers checked in all: the golden inputs hold more", checked)
	}
}

var (
	identRE      = regexp.MustCompile(`[A-Za-z_][A-Za-z_0-9]*`)
	blockComment = regexp.MustCompile(`/\*.*?\*/`)
)

// checkColumns checks the positions of the identifiers of src in out,
// the instrumentation of src, and returns how many it checked.
func checkColumns(t *testing.T, name string, src, out []byte) int {
	t.Helper()
	type pos struct{ file, line, col int }
	count := func(b []byte, header bool) map[string][]pos {
		m := map[string][]pos{}
		file, line := 0, 1
		for _, l := range bytes.Split(b, []byte("\n")) {
			if n, ok := lineNumber(l); ok {
				file++ // a new numbering: positions before it are not comparable
				line = n
				header = false
				continue
			}
			if header {
				continue // the region table repeats the clauses
			}
			if k := bytes.Index(l, []byte("//")); k >= 0 {
				l = l[:k] // comments are not code
			}
			l = blockComment.ReplaceAllFunc(l, func(c []byte) []byte { return bytes.Repeat([]byte{' '}, len(c)) })
			for _, loc := range identRE.FindAllIndex(l, -1) {
				if loc[0] > 0 && (l[loc[0]-1] >= '0' && l[loc[0]-1] <= '9' || l[loc[0]-1] == '.') {
					continue // a suffix of a number
				}
				id := string(l[loc[0]:loc[1]])
				m[id] = append(m[id], pos{file, line, loc[0] + 1})
			}
			line++
		}
		return m
	}
	in, got := count(src, false), count(out, true)
	skipLines := map[int]bool{}
	for id, ps := range in {
		if strings.HasPrefix(id, "omp_") && strings.HasSuffix(id, "lock") || id == "directive" || id == "sequence" {
			for _, p := range ps {
				skipLines[p.line] = true
			}
		}
	}
	n := 0
	for id, ps := range in {
		g := got[id]
		if len(ps) != 1 || len(g) != 1 || skipLines[ps[0].line] || strings.HasPrefix(id, "omp_") {
			continue
		}
		n++
		if ps[0].line != g[0].line || ps[0].col != g[0].col {
			t.Errorf("%s: %s at %d:%d is at %d:%d in the output", name, id, ps[0].line, ps[0].col, g[0].line, g[0].col)
		}
	}
	return n
}

// lineNumber reads a #line directive or a line marker: the number of the
// next line.
func lineNumber(l []byte) (int, bool) {
	s := strings.TrimSpace(string(l))
	switch {
	case strings.HasPrefix(s, "#line "):
		s = s[len("#line "):]
	case strings.HasPrefix(s, "# ") && len(s) > 2 && s[2] >= '0' && s[2] <= '9':
		s = s[2:]
	default:
		return 0, false
	}
	f := strings.Fields(s)
	if len(f) == 0 {
		return 0, false
	}
	n, err := strconv.Atoi(f[0])
	return n, err == nil
}

// TestOutline checks that the outline of a source's instrumentation is
// that of its preprocessed form when the text shows every construct as
// preprocessing does, and differs when a macro makes a directive or
// hides a loop's shape.
func TestOutline(t *testing.T) {
	outline := func(src string, pre bool) string {
		t.Helper()
		res, diags := Source("o.c", []byte(src), parser.Config{Preprocessed: pre}, Options{Chunks: true})
		if res == nil {
			t.Fatalf("%q: %v", src, diags)
		}
		return res.Outline()
	}
	const text = "#define N 8\nvoid f(int *a) {\n#pragma omp parallel for schedule(dynamic, N)\nfor (int i = 0; i < N; i++)\n  a[i] = 0;\n}\n"
	const pre = "# 1 \"o.c\"\n\nvoid f(int *a) {\n#pragma omp parallel for schedule(dynamic, 8)\nfor (int i = 0; i < 8; i++)\n  a[i] = 0;\n}\n"
	if a, b := outline(text, false), outline(pre, true); a != b {
		t.Errorf("outlines differ:\n%s\n%s", a, b)
	} else if !strings.Contains(a, "POMP_FOR") || !strings.Contains(a, "chunks") {
		t.Errorf("outline without the loop or its chunks:\n%s", a)
	}
	for _, text := range []string{
		// a directive from a macro
		"#define PFOR _Pragma(\"omp parallel for\")\nvoid f(int *a) {\nPFOR\nfor (int i = 0; i < 8; i++)\n  a[i] = 0;\n}\n",
		// a loop whose header a macro hides: no chunks in the text
		"#define EACH(i) for (int i = 0; i < 8; i++)\nvoid f(int *a) {\n#pragma omp parallel for schedule(dynamic, 8)\nEACH(i)\n  a[i] = 0;\n}\n",
	} {
		if outline(text, false) == outline(pre, true) {
			t.Errorf("%q: the outline is its preprocessed form's", text)
		}
	}
	if res, _ := Source("o.c", []byte("int x;\n"), parser.Config{}, Options{}); res.Changed() {
		t.Errorf("a file without directives is changed")
	}
}

// TestTokenAt checks tokenAt's galloping search against a plain binary
// search, for offsets asked in increasing order, as keepColumns asks,
// and in any order.
func TestTokenAt(t *testing.T) {
	src := []byte(strings.Repeat("int f(int a) { return g((a), 1) + 22; }\n", 300))
	pr := parser.Parse(parser.NewFile("t.c", src), parser.Config{})
	g := &gen{toks: pr.Toks}
	r := rand.New(rand.NewPCG(3, 4))
	offs := make([]int, 2000)
	for i := range offs {
		offs[i] = r.IntN(len(src) + 2)
	}
	sorted := slices.Clone(offs)
	slices.Sort(sorted)
	for _, off := range append(sorted, offs...) {
		want := sort.Search(len(pr.Toks), func(i int) bool { return int(pr.Toks[i].Pos) >= off })
		if got := g.tokenAt(off); got != want {
			t.Fatalf("tokenAt(%d) = %d, want %d", off, got, want)
		}
	}
}
