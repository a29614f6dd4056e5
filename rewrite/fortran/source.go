// Package fortran instruments the OpenMP directives of Fortran sources,
// free form and fixed form, as package rewrite does for C and C++: each
// construct is wrapped in calls of the runtime's Fortran binding (module
// pomp_lib, pomprt/include/pomp_lib.f90), with the task identity of
// pomp.h's top comment. The regions of a file are described by a C table
// (Result.Table) that registers them from a constructor, as an
// instrumented C file does; the Fortran code reaches them through a
// small module written at the top of the instrumented file.
//
// Extra code goes on lines of its own; a line marker (# N "file") after
// it gives the next line of the user's the number it had, which gfortran
// reads in any Fortran source, preprocessed or not.
package fortran

import (
	"strconv"
	"strings"
)

// Form is the source form of a Fortran file.
type Form int

// The source forms.
const (
	Free Form = iota
	Fixed
)

// FormOf returns the form a file's suffix says, and whether the suffix is
// a Fortran one at all; preprocessed says whether the compiler runs the C
// preprocessor on it first (an upper-case suffix).
func FormOf(path string) (form Form, preprocessed, ok bool) {
	i := strings.LastIndexByte(path, '.')
	if i < 0 || strings.ContainsRune(path[i:], '/') {
		return Free, false, false
	}
	switch ext := path[i:]; ext {
	case ".f90", ".f95", ".f03", ".f08":
		return Free, false, true
	case ".F90", ".F95", ".F03", ".F08":
		return Free, true, true
	case ".f", ".for", ".f77", ".ftn":
		return Fixed, false, true
	case ".F", ".FOR", ".FTN", ".fpp", ".FPP":
		return Fixed, true, true
	}
	return Free, false, false
}

// lineKind says what a physical line is.
type lineKind uint8

const (
	lBlank   lineKind = iota
	lComment          // a comment, or a line this package passes over
	lCode             // a statement or a continuation of one
	lDir              // an !$omp directive line (first or continuation)
	lPomp             // an !$pomp directive line
	lCpp              // a preprocessor line (# ...), line markers included
)

// A line is one physical line of the source.
type line struct {
	text string // without its end of line
	eol  string // "\n", "\r\n" or "" at the end of the file
	kind lineKind
	file string // the user's file and line number of this line
	num  int
	cont bool   // a continuation of the previous item's line (code or directive)
	body string // code: the statement text of the line; directives: the text after the sentinel
}

// splitLines cuts src into lines and follows line markers.
func splitLines(src []byte, name string) []line {
	var out []line
	s := string(src)
	file, num := name, 1
	for len(s) > 0 {
		i := strings.IndexByte(s, '\n')
		var l line
		if i < 0 {
			l.text, s = s, ""
		} else {
			l.text, l.eol, s = s[:i], "\n", s[i+1:]
		}
		if strings.HasSuffix(l.text, "\r") {
			l.text = l.text[:len(l.text)-1]
			if l.eol != "" {
				l.eol = "\r\n"
			} else {
				l.eol = "\r"
			}
		}
		l.file, l.num = file, num
		num++
		if strings.HasPrefix(l.text, "#") {
			l.kind = lCpp
			if f, n, ok := lineMarker(l.text); ok {
				file, num = f, n
			}
		}
		out = append(out, l)
	}
	return out
}

// lineMarker parses "# N "file" ...", "#line N "file"" or flang's
// "#line "file" N".
func lineMarker(s string) (string, int, bool) {
	s = strings.TrimPrefix(s, "#")
	s = strings.TrimLeft(s, " \t")
	s = strings.TrimPrefix(s, "line")
	if t := strings.TrimLeft(s, " \t"); strings.HasPrefix(t, "\"") {
		end := strings.IndexByte(t[1:], '"')
		if end < 0 {
			return "", 0, false
		}
		n, err := strconv.Atoi(strings.TrimSpace(t[end+2:]))
		if err != nil {
			return "", 0, false
		}
		return t[1 : end+1], n, true
	}
	f := strings.Fields(s)
	if len(f) < 2 {
		return "", 0, false
	}
	n, err := strconv.Atoi(f[0])
	if err != nil || !strings.HasPrefix(f[1], "\"") {
		return "", 0, false
	}
	rest := strings.TrimLeft(s, " \t")[len(f[0]):]
	rest = strings.TrimLeft(rest, " \t")
	end := strings.IndexByte(rest[1:], '"')
	if end < 0 {
		return "", 0, false
	}
	return rest[1 : end+1], n, true
}

// hasPrefixFold reports whether s starts with the lower-case prefix p,
// ignoring case.
func hasPrefixFold(s, p string) bool {
	return len(s) >= len(p) && strings.EqualFold(s[:len(p)], p)
}

// classifyFree sets the kind and body of the lines of a free-form file.
// inString carries a character context over continued lines.
func classifyFree(lines []line) {
	codeCont, dirCont := false, false
	var quote byte
	for i := range lines {
		l := &lines[i]
		if l.kind == lCpp {
			continue
		}
		t := strings.TrimLeft(l.text, " \t")
		switch {
		case t == "":
			l.kind = lBlank
			continue
		case hasPrefixFold(t, "!$omp") && (len(t) == 5 || strings.ContainsRune(" \t&", rune(t[5]))):
			l.kind, l.body, l.cont = lDir, t[5:], dirCont
			body := strings.TrimLeft(l.body, " \t")
			if l.cont {
				body = strings.TrimPrefix(body, "&")
			}
			body, more := trimContinuation(stripComment(body, 0))
			l.body, dirCont = body, more
			continue
		case hasPrefixFold(t, "!$pomp") && (len(t) == 6 || t[6] == ' ' || t[6] == '\t'):
			l.kind, l.body = lPomp, stripComment(t[6:], 0)
			dirCont = false
			continue
		case hasPrefixFold(t, "!$") && (len(t) == 2 || strings.ContainsRune(" \t&", rune(t[2]))):
			t = "  " + t[2:] // conditional compilation: code under -fopenmp
		case t[0] == '!':
			l.kind = lComment
			continue
		}
		dirCont = false
		l.kind, l.cont = lCode, codeCont
		if codeCont {
			if s := strings.TrimLeft(t, " \t"); strings.HasPrefix(s, "&") {
				t = s[1:]
			}
		}
		body := stripCommentQ(t, &quote)
		l.body, codeCont = trimContinuation(body)
		if !codeCont {
			quote = 0
		}
	}
}

// trimContinuation removes a trailing & and says whether there was one.
func trimContinuation(s string) (string, bool) {
	t := strings.TrimRight(s, " \t")
	if strings.HasSuffix(t, "&") {
		return t[:len(t)-1], true
	}
	return t, false
}

// stripComment removes a ! comment outside character contexts.
func stripComment(s string, quote byte) string {
	return stripCommentQ(s, &quote)
}

// stripCommentQ removes a ! comment outside character contexts, starting
// in the context *quote (0: none) and leaving the context at the end.
func stripCommentQ(s string, quote *byte) string {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case *quote != 0:
			if c == *quote {
				if i+1 < len(s) && s[i+1] == c {
					i++
				} else {
					*quote = 0
				}
			}
		case c == '\'' || c == '"':
			*quote = c
		case c == '!':
			return s[:i]
		}
	}
	return s
}

// classifyFixed sets the kind and body of the lines of a fixed-form file.
func classifyFixed(lines []line) {
	inDir := false
	var quote byte
	for i := range lines {
		l := &lines[i]
		if l.kind == lCpp {
			continue
		}
		t := expandTab(l.text)
		if len(t) > 72 {
			t = t[:72]
		}
		if strings.TrimSpace(t) == "" {
			l.kind = lBlank
			continue
		}
		c0 := t[0]
		sentinel := c0 == '!' || c0 == 'c' || c0 == 'C' || c0 == '*'
		if sentinel && len(t) >= 6 && hasPrefixFold(t[1:], "$omp") {
			cont := t[5] != ' ' && t[5] != '0'
			l.kind, l.cont, l.body = lDir, cont, stripComment(t[6:], 0)
			if cont && !inDir {
				l.kind = lComment
			}
			inDir = true
			continue
		}
		if sentinel && len(t) >= 7 && hasPrefixFold(t[1:], "$pomp") && (t[6] == ' ' || t[6] == '\t') {
			l.kind, l.body, inDir = lPomp, stripComment(t[6:], 0), false
			continue
		}
		if sentinel && len(t) >= 2 && t[1] == '$' && blankOrDigits(padTo(t, 6)[2:5]) {
			t = "  " + t[2:] // conditional compilation
		} else if sentinel || strings.HasPrefix(strings.TrimLeft(padTo(t, 6)[:6], " "), "!") {
			l.kind = lComment
			continue
		}
		inDir = false
		t = padTo(t, 6)
		l.kind = lCode
		l.cont = t[5] != ' ' && t[5] != '0'
		if !l.cont {
			quote = 0
		}
		l.body = stripCommentQ(t[6:], &quote)
		if lab := strings.TrimSpace(t[:5]); lab != "" && !l.cont {
			l.body = lab + " " + l.body // the label, as free form writes it
		}
	}
}

func padTo(s string, n int) string {
	for len(s) < n {
		s += " "
	}
	return s
}

func blankOrDigits(s string) bool {
	for _, c := range s {
		if c != ' ' && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// expandTab turns a leading tab of a fixed-form line into columns: a tab
// then a digit 1-9 is a continuation line, else the statement starts in
// column 7 (DEC's tab form, which gfortran reads).
func expandTab(s string) string {
	i := strings.IndexByte(s, '\t')
	if i < 0 || i > 5 || strings.TrimSpace(s[:i]) != strings.TrimLeft(s[:i], " ") {
		return s
	}
	head := padTo(s[:i], 5)
	rest := s[i+1:]
	if rest != "" && rest[0] >= '1' && rest[0] <= '9' {
		return head + rest
	}
	return head + " " + rest
}
