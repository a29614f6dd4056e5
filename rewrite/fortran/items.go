package fortran

import (
	"regexp"
	"strings"
	"sync"
)

// An item is one statement or one directive, over one or more lines.
type item struct {
	first, last int // indexes of its first and last line
	dir         *directive
	pompText    string // an !$pomp directive's text
	isPomp      bool
	label       string // a statement's label
	norm        string // a statement, upper case, blanks and strings removed
	raw         string // a statement as written, label removed
}

// items groups the classified lines into statements and directives.
func items(lines []line) []item {
	var out []item
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		switch l.kind {
		case lDir:
			it := item{first: i, last: i}
			text := l.body
			for j := i + 1; j < len(lines); j++ {
				if lines[j].kind == lDir && lines[j].cont {
					text += " " + lines[j].body
					it.last = j
					i = j
				} else if lines[j].kind != lBlank && lines[j].kind != lComment {
					break
				}
			}
			it.dir = parseDirective(text)
			out = append(out, it)
		case lPomp:
			out = append(out, item{first: i, last: i, isPomp: true, pompText: strings.TrimSpace(l.body)})
		case lCode:
			text := l.body
			last := i
			for j := i + 1; j < len(lines); j++ {
				if lines[j].kind == lCode && lines[j].cont {
					text += lines[j].body
					last = j
				} else if lines[j].kind == lCode || lines[j].kind == lDir || lines[j].kind == lPomp || lines[j].kind == lCpp {
					break
				}
			}
			for _, s := range splitStatements(text) {
				it := item{first: i, last: last}
				it.label, it.raw = cutLabel(s)
				it.norm = normalize(it.raw)
				if it.norm != "" || it.label != "" {
					out = append(out, it)
				}
			}
			i = last
		}
	}
	return out
}

// splitStatements cuts a statement line at semicolons outside character
// contexts.
func splitStatements(s string) []string {
	var out []string
	var quote byte
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == ';':
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

var labelRx = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*([0-9]{1,5})\s+`) })

func cutLabel(s string) (string, string) {
	if m := labelRx().FindStringSubmatch(s); m != nil {
		return m[1], strings.TrimSpace(s[len(m[0]):])
	}
	return "", strings.TrimSpace(s)
}

// normalize upper-cases a statement, removes its blanks and empties its
// character literals, so that keywords compare alike in both forms.
func normalize(s string) string {
	var b strings.Builder
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
				b.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote = c
			b.WriteByte(c)
		case c == ' ' || c == '\t':
		case c >= 'a' && c <= 'z':
			b.WriteByte(c - 'a' + 'A')
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

var (
	// A DO statement: an optional construct name, DO, an optional label,
	// then a loop control, WHILE, CONCURRENT or nothing.
	doRx    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:[A-Z][A-Z0-9_]*:)?DO([0-9]*),?(.*)$`) })
	doCtlRx = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Z][A-Z0-9_]*=`) })
	endDoRx = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^ENDDO([A-Z][A-Z0-9_]*)?$`) })
)

// doLabel reports whether a normalized statement is a DO statement, and
// its terminal label ("" for a DO ended by END DO).
func doLabel(norm string) (bool, string) {
	m := doRx().FindStringSubmatch(norm)
	if m == nil {
		return false, ""
	}
	rest := m[2]
	switch {
	case rest == "" && m[1] == "" && !strings.Contains(norm, "="):
		return true, ""
	case strings.HasPrefix(rest, "WHILE("), strings.HasPrefix(rest, "CONCURRENT("):
		return true, m[1]
	case doCtlRx().MatchString(rest) && topLevelComma(rest):
		return true, m[1]
	case rest == "" && m[1] != "":
		return true, m[1]
	}
	return false, ""
}

// topLevelComma reports whether s has a comma outside parentheses: a DO
// control "I=1,N", not an assignment "DOI=F(1,N)".
func topLevelComma(s string) bool {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				return true
			}
		}
	}
	return false
}

func isEndDo(norm string) bool { return endDoRx().MatchString(norm) }

// loopEnd returns the index of the item that ends the DO loop at items[k]
// (the outermost loop of a nest), or -1 when items[k] is no DO statement
// or the loop does not end.
func loopEnd(its []item, k int) int {
	if k >= len(its) || its[k].dir != nil || its[k].isPomp {
		return -1
	}
	ok, lab := doLabel(its[k].norm)
	if !ok {
		return -1
	}
	stack := []string{lab}
	for j := k + 1; j < len(its); j++ {
		it := its[j]
		if it.dir != nil || it.isPomp {
			continue
		}
		if ok, lab := doLabel(it.norm); ok {
			stack = append(stack, lab)
			continue
		}
		popped := false
		for it.label != "" && len(stack) > 0 && stack[len(stack)-1] == it.label {
			stack = stack[:len(stack)-1]
			popped = true
		}
		if !popped && isEndDo(it.norm) && len(stack) > 0 && stack[len(stack)-1] == "" {
			stack = stack[:len(stack)-1]
		}
		if len(stack) == 0 {
			return j
		}
	}
	return -1
}
