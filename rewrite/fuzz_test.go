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

func addSeeds(f *testing.F) {
	files, _ := filepath.Glob("../golden/testdata/*.c")
	more, _ := filepath.Glob("../golden/testdata/*.cpp")
	for _, name := range append(files, more...) {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b, filepath.Ext(name) == ".cpp")
		}
	}
	f.Add([]byte("int main(void) { return 0; }\n"), false)
	f.Add([]byte("#pragma omp parallel\n#pragma omp for\nfor (int i = 0; i < 4; i++) f(i);\n"), false)
}

var (
	lineRx = regexp.MustCompile(`(?m)^#line (\d+) "`)
)

// FuzzInstrument checks the properties every rewrite must have.
func FuzzInstrument(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte, cpp bool) {
		cfg := parser.Config{CPlusPlus: cpp}
		res, diags := Source("f.c", src, cfg, Options{})
		if res == nil {
			if !diags.HasErrors() {
				t.Fatalf("no output and no error")
			}
			return
		}
		out := res.Bytes()
		if len(out) != res.Size() {
			t.Fatalf("Size %d, wrote %d bytes", res.Size(), len(out))
		}
		lines := bytes.Count(src, []byte{'\n'}) + 1

		// Every #line names a line of the input, unless the input
		// renumbers its own lines, as the parser reads them (a line
		// marker may be spliced, #\<newline>000, or hold a comment).
		file := parser.NewFile("f.c", src)
		in := parser.Parse(file, cfg)
		for _, m := range lineRx.FindAllSubmatch(out, -1) {
			if file.Renumbered() {
				break
			}
			n, _ := strconv.Atoi(string(m[1]))
			if n < 1 || n > lines {
				t.Fatalf("#line %d in the output of a %d-line input", n, lines)
			}
		}

		// A file without directives comes back unchanged after the header.
		if len(in.Directives) == 0 && len(in.Locks) == 0 {
			body := src
			if bytes.HasPrefix(body, []byte("\xEF\xBB\xBF")) {
				body = body[3:]
			}
			i := bytes.Index(out, []byte("#line 1 \"f.c\"\n"))
			if i < 0 && bytes.Contains(out, []byte("#line 1 \"f.c\"\r\n")) {
				i = bytes.Index(out, []byte("#line 1 \"f.c\"\r\n"))
				i++
			}
			if i < 0 || !bytes.Equal(out[i+len("#line 1 \"f.c\"\n"):], body) {
				t.Fatalf("a file without directives changed:\n%q\nbecame\n%q", src, out)
			}
			return
		}

		// The output parses again, without errors, its brackets pair up
		// if the input's did, and every block gopari opened with a begin
		// call ends with its end call.
		again := parser.Parse(parser.NewFile("f.c", out), cfg)
		if again.Diags.HasErrors() {
			t.Fatalf("instrumented output does not parse: %v\ninput:\n%q\noutput:\n%s", again.Diags.Err(), src, out)
		}
		if !unbalanced(in.Diags) && unbalanced(again.Diags) {
			t.Fatalf("the input's brackets pair up, the output's do not: %v\ninput:\n%q\noutput:\n%s", again.Diags, src, out)
		}
		checkPairs(t, again, out)
	})
}

var beginRx = regexp.MustCompile(`^\{ (?:POMP_Region \*pomp_end(?:_\d+)? __attribute__\(\(__unused__, __cleanup__\((POMP_\w+_cleanup)\)\)\) = pomp_r\((\d+)\); )?(POMP_(\w+)_begin)\(pomp_r\((\d+)\)`)

// checkPairs checks that the structured block of every directive in an
// instrumented file that starts with POMP_X_begin(pomp_r(N)) ends with
// POMP_X_end(pomp_r(N)) or has a cleanup handler for region N.
func checkPairs(t *testing.T, r *parser.Result, out []byte) {
	t.Helper()
	for _, c := range r.Constructs {
		if c.Last < 0 || c.First >= len(r.Toks) {
			continue
		}
		first, last := r.Toks[c.First], r.Toks[c.Last]
		block := out[first.Pos:last.End]
		m := beginRx.FindSubmatch(block)
		if m == nil {
			continue
		}
		kind, region := string(m[4]), string(m[5])
		if m[1] != nil {
			if string(m[2]) != region {
				t.Fatalf("cleanup for region %s in the block of region %s", m[2], region)
			}
			continue
		}
		end := "POMP_" + kind + "_end(pomp_r(" + region + "));"
		trimmed := strings.TrimRight(string(block[:len(block)-1]), " \t\r\n")
		if !strings.HasSuffix(trimmed, end) {
			tail := trimmed
			if len(tail) > 80 {
				tail = tail[len(tail)-80:]
			}
			t.Fatalf("block opened by %s(pomp_r(%s)) does not end with %s: ...%s", m[3], region, end, tail)
		}
	}
}

// unbalanced reports whether diags hold the parser's warning about
// brackets that do not pair up.
func unbalanced(diags parser.DiagnosticList) bool {
	for _, d := range diags {
		if strings.Contains(d.Msg, "unbalanced") {
			return true
		}
	}
	return false
}
