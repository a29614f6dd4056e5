package rewrite

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
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
