package codeshape

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const (
	cMaxFileLines = 800
	cMaxFuncLines = 80
	// A C function over cMaxFuncLines passes when it is a table
	// dispatch: this share of its lines at least is one switch.
	cDispatchShare = 0.8
	// The runtime ships at least this many C files and functions; a
	// scan that finds fewer missed them.
	cMinFiles = 20
	cMinFuncs = 250
)

// cRuntimeFiles are the C sources and headers that the runtime ships:
// its C part, its MPI library and its public header.
var cRuntimeFiles = []string{"pomprt/*.c", "pomprt/*.h", "pomprt/mpi/*.c", "pomprt/include/*.h"}

// cLongFiles may have more than cMaxFileLines lines, for the reason
// given; their functions are checked all the same. None has today.
var cLongFiles = map[string]string{}

// TestCShape checks every C file of the runtime: at most 800 lines, and
// no function over 80 lines unless most of it is one switch.
func TestCShape(t *testing.T) {
	root := filepath.Join("..", "..")
	nfiles, nfuncs := 0, 0
	for _, pat := range cRuntimeFiles {
		paths, err := filepath.Glob(filepath.Join(root, pat))
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range paths {
			rel, _ := filepath.Rel(root, path)
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			nfiles++
			n := strings.Count(string(src), "\n")
			if why, ok := cLongFiles[filepath.ToSlash(rel)]; !ok && n > cMaxFileLines {
				t.Errorf("%s: %d lines, more than %d", rel, n, cMaxFileLines)
			} else if ok && n <= cMaxFileLines {
				t.Errorf("%s: %d lines, within %d: it needs no exemption (%s) any more", rel, n, cMaxFileLines, why)
			}
			funcs, err := cFunctions(string(src))
			if err != nil {
				t.Errorf("%s: %v", rel, err)
				continue
			}
			nfuncs += len(funcs)
			for _, f := range funcs {
				if f.lines() > cMaxFuncLines && !f.dispatch() {
					t.Errorf("%s:%d: function %s has %d lines, more than %d, and is not a dispatch switch", rel, f.start, f.name, f.lines(), cMaxFuncLines)
				}
			}
		}
	}
	t.Logf("%d C files, %d functions", nfiles, nfuncs)
	if nfiles < cMinFiles || nfuncs < cMinFuncs {
		t.Fatalf("read %d C files and %d functions of the runtime, want at least %d and %d: the scan missed them", nfiles, nfuncs, cMinFiles, cMinFuncs)
	}
}

// A cFunc is a function definition in C source: its name, the lines of
// its first and last line (1-based), and the lines of the switch
// statement at its top level that spans the most lines, if any.
type cFunc struct {
	name       string
	start, end int
	switchLen  int
}

func (f cFunc) lines() int { return f.end - f.start + 1 }

// dispatch reports whether one switch statement makes up most of f.
func (f cFunc) dispatch() bool {
	return float64(f.switchLen) >= cDispatchShare*float64(f.lines())
}

// cFunctions finds the function definitions of C source: a brace at file
// level after a closing parenthesis opens a function's body. Comments,
// string and character literals and preprocessor lines are blanked out
// first, so that braces in them do not count. A function's first line is
// that of its name.
func cFunctions(src string) ([]cFunc, error) {
	code := cBlank(src)
	line := 1
	depth := 0
	var funcs []cFunc
	var cur *cFunc
	type open struct {
		line     int
		isSwitch bool
	}
	var stack []open
	for i := 0; i < len(code); i++ {
		switch c := code[i]; c {
		case '\n':
			line++
		case '{':
			if depth == 0 {
				if name, at, ok := cSignature(code[:i]); ok {
					cur = &cFunc{name: name, start: line - strings.Count(code[at:i], "\n"), end: 0}
				}
			}
			isSwitch := depth >= 1 && cur != nil && strings.HasSuffix(cLastStatement(code[:i]), "switch")
			stack = append(stack, open{line, isSwitch})
			depth++
		case '}':
			if depth == 0 {
				return nil, fmt.Errorf("line %d: unbalanced }", line)
			}
			o := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			depth--
			if o.isSwitch && cur != nil && line-o.line+1 > cur.switchLen {
				cur.switchLen = line - o.line + 1
			}
			if depth == 0 && cur != nil {
				cur.end = line
				funcs = append(funcs, *cur)
				cur = nil
			}
		}
	}
	if depth != 0 {
		return nil, fmt.Errorf("%d unclosed {", depth)
	}
	return funcs, nil
}

// cSignature reports whether the code before a file-level brace ends a
// function's declarator, "name(...)", perhaps followed by attributes, and
// returns the name and its offset.
func cSignature(before string) (string, int, bool) {
	s := strings.TrimRight(before, " \t\n")
	for {
		open := cMatchOpen(s)
		if open < 0 {
			return "", 0, false
		}
		j := len(strings.TrimRight(s[:open], " \t\n"))
		k := j
		for k > 0 && cIdent(s[k-1]) {
			k--
		}
		switch name := s[k:j]; name {
		case "__attribute__":
			s = strings.TrimRight(s[:k], " \t\n")
		case "", "if", "for", "while", "switch", "return", "sizeof":
			return "", 0, false
		default:
			return name, k, true
		}
	}
}

// cMatchOpen returns the offset of the parenthesis that the final ')' of
// s closes, or -1.
func cMatchOpen(s string) int {
	if !strings.HasSuffix(s, ")") {
		return -1
	}
	n := 0
	for i := len(s) - 1; i >= 0; i-- {
		switch s[i] {
		case ')':
			n++
		case '(':
			n--
			if n == 0 {
				return i
			}
		}
	}
	return -1
}

func cIdent(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// cLastStatement returns the text before a brace back to the end of the
// previous statement or block, with a parenthesized condition removed:
// "switch (x)" gives "switch".
func cLastStatement(before string) string {
	s := strings.TrimRight(before, " \t\n")
	if open := cMatchOpen(s); open >= 0 {
		s = strings.TrimRight(s[:open], " \t\n")
	}
	if i := strings.LastIndexAny(s, ";{}"); i >= 0 {
		s = s[i+1:]
	}
	return strings.TrimSpace(s)
}

// cBlank returns src with comments, string and character literals and
// preprocessor lines replaced by spaces, newlines kept.
func cBlank(src string) string {
	b := []byte(src)
	blank := func(from, to int) {
		for k := from; k < to && k < len(b); k++ {
			if b[k] != '\n' {
				b[k] = ' '
			}
		}
	}
	lineStart := true
	for i := 0; i < len(b); {
		switch {
		case b[i] == '\n':
			lineStart = true
			i++
		case b[i] == ' ' || b[i] == '\t':
			i++
		case lineStart && b[i] == '#':
			j := i
			for j < len(b) && (b[j] != '\n' || b[j-1] == '\\') {
				j++
			}
			blank(i, j)
			i = j
		case strings.HasPrefix(src[i:], "//"):
			j := strings.IndexByte(src[i:], '\n')
			if j < 0 {
				j = len(src) - i
			}
			blank(i, i+j)
			i += j
		case strings.HasPrefix(src[i:], "/*"):
			j := strings.Index(src[i+2:], "*/")
			if j < 0 {
				j = len(src) - i - 4
			}
			blank(i, i+j+4)
			i += j + 4
			lineStart = false
		case b[i] == '"' || b[i] == '\'':
			q := b[i]
			j := i + 1
			for j < len(b) && b[j] != q && b[j] != '\n' {
				if b[j] == '\\' {
					j++
				}
				j++
			}
			blank(i, j+1)
			i = j + 1
			lineStart = false
		default:
			lineStart = false
			i++
		}
	}
	return string(b)
}

// TestCFunctions checks the scanner on code whose functions are known.
func TestCFunctions(t *testing.T) {
	long := func(name string, n int) string {
		return "static int " + name + "(int x)\n{\n" + strings.Repeat("\tx++;\n", n-3) + "}\n"
	}
	dispatch := "const char *name(int k)\n{\n\tswitch (k) {\n" + strings.Repeat("\tcase 1:\n\t\treturn \"a\";\n", 45) + "\t}\n\treturn \"\";\n}\n"
	src := "#include <stdio.h>\n#define M(x) { x }\n" +
		"/* not { a function } */\nstruct s { int a; };\nstatic const int tab[] = {1, 2};\n" +
		"static inline __attribute__((always_inline)) int fast(int t)\n{\n\tif (t) {\n\t\treturn '{';\n\t}\n\treturn 0;\n}\n" +
		long("fits", 80) + long("too_long", 81) + dispatch +
		"__attribute__((constructor(101))) static void ctor(void) { puts(\"}\"); }\n"
	funcs, err := cFunctions(src)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range funcs {
		got = append(got, fmt.Sprintf("%s:%d:%d:%v", f.name, f.start, f.lines(), f.lines() <= cMaxFuncLines || f.dispatch()))
	}
	want := []string{"fast:6:7:true", "fits:13:80:true", "too_long:93:81:false", "name:174:96:true", "ctor:270:1:true"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("functions\n%v\nwant\n%v", got, want)
	}
}
