package parser

import (
	"bytes"
	"strconv"
)

// Respace returns the preprocessed text pre with every line that the
// preprocessor only respaced put back as the user wrote it: a line of a
// user's file (not a system header) whose tokens are those of its source
// line, so that no macro expanded into it. A compiler that reads the
// result reports the user's columns there, where the preprocessor had
// collapsed runs of blanks, turned tabs into blanks or moved a #pragma
// to the start of its line. source returns a file's bytes by the name its
// line markers give, or false. The result is pre itself when no line
// changes.
func Respace(pre []byte, source func(name string) ([]byte, bool)) []byte {
	var out []byte
	done := 0 // pre[:done] is in out
	file, line, system := "", 0, false
	files := map[string]*sourceLines{}
	for i := 0; i < len(pre); {
		end := bytes.IndexByte(pre[i:], '\n')
		if end < 0 {
			end = len(pre)
		} else {
			end += i
		}
		text := pre[i:end]
		if n, name, flags, ok := lineMarker(text); ok {
			line = n
			if name != "" {
				file = name
			}
			system = bytes.Contains(flags, []byte("3"))
		} else {
			if !system && file != "" && len(bytes.TrimSpace(text)) > 0 {
				src := files[file]
				if src == nil {
					src = &sourceLines{}
					src.b, src.ok = source(file)
					files[file] = src
				}
				if orig, ok := src.line(line); ok && !bytes.Equal(orig, text) && sameTokens(orig, text) {
					if out == nil {
						out = make([]byte, 0, len(pre)+len(pre)/16)
					}
					out = append(out, pre[done:i]...)
					out = appendDirective(out, orig)
					done = end
				}
			}
			line++
		}
		i = end + 1
	}
	if out == nil {
		return pre
	}
	return append(out, pre[done:]...)
}

// appendDirective appends source line orig; a directive's '#' goes to
// the start of the line, which compilers require of preprocessed input,
// the blanks before it after it, so that what follows keeps its column.
func appendDirective(out, orig []byte) []byte {
	k := 0
	for k < len(orig) && isBlankByte(orig[k]) {
		k++
	}
	if k == 0 || k == len(orig) || orig[k] != '#' {
		return append(out, orig...)
	}
	out = append(out, '#')
	out = append(out, orig[:k]...)
	return append(out, orig[k+1:]...)
}

// sourceLines is a source file read for Respace, with its line starts
// found as lines are asked for.
type sourceLines struct {
	b      []byte
	ok     bool
	starts []int
}

// line returns line n of the file without its line break, or false.
func (s *sourceLines) line(n int) ([]byte, bool) {
	if !s.ok || n < 1 {
		return nil, false
	}
	if s.starts == nil {
		s.starts = []int{0}
	}
	for len(s.starts) <= n && s.starts[len(s.starts)-1] <= len(s.b) {
		last := s.starts[len(s.starts)-1]
		k := bytes.IndexByte(s.b[last:], '\n')
		if k < 0 {
			s.starts = append(s.starts, len(s.b)+1)
			break
		}
		s.starts = append(s.starts, last+k+1)
	}
	if n >= len(s.starts) {
		return nil, false
	}
	a, b := s.starts[n-1], s.starts[n]-1
	if a > len(s.b) {
		return nil, false
	}
	if b > len(s.b) {
		b = len(s.b)
	}
	l := s.b[a:b]
	if len(l) > 0 && l[len(l)-1] == '\r' {
		l = l[:len(l)-1]
	}
	return l, true
}

// lineMarker parses a GCC line marker, # N "name" flags.
func lineMarker(text []byte) (line int, name string, flags []byte, ok bool) {
	i := 0
	for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
		i++
	}
	if i >= len(text) || text[i] != '#' {
		return 0, "", nil, false
	}
	i++
	for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
		i++
	}
	j := i
	for j < len(text) && text[j] >= '0' && text[j] <= '9' {
		j++
	}
	if j == i {
		return 0, "", nil, false
	}
	n, err := strconv.Atoi(string(text[i:j]))
	if err != nil {
		return 0, "", nil, false
	}
	rest := bytes.TrimSpace(text[j:])
	if len(rest) > 0 && rest[0] == '"' {
		k := 1
		for k < len(rest) && rest[k] != '"' {
			if rest[k] == '\\' {
				k++
			}
			k++
		}
		if k < len(rest) {
			name = unquoteC(string(rest[1:k]))
			flags = rest[k+1:]
		}
	}
	return n, name, flags, true
}

// sameTokens reports whether source line orig, without its comments,
// and preprocessed line pre differ in blanks only. A line that a line
// splice continues, that a comment or a raw string leaves open, or that
// holds a backslash outside literals is never the same.
func sameTokens(orig, pre []byte) bool {
	i, j := 0, 0
	for {
		for i < len(orig) {
			c := orig[i]
			if isBlankByte(c) {
				i++
				continue
			}
			if c == '/' && i+1 < len(orig) && orig[i+1] == '/' {
				i = len(orig)
				break
			}
			if c == '/' && i+1 < len(orig) && orig[i+1] == '*' {
				k := bytes.Index(orig[i+2:], []byte("*/"))
				if k < 0 {
					return false
				}
				i += k + 4
				continue
			}
			break
		}
		for j < len(pre) && isBlankByte(pre[j]) {
			j++
		}
		if i == len(orig) || j == len(pre) {
			return i == len(orig) && j == len(pre)
		}
		c := orig[i]
		switch {
		case c == '\\':
			return false
		case c == 'R' && i+1 < len(orig) && orig[i+1] == '"':
			return false
		case c == '"' || c == '\'':
			// A literal: byte for byte, escapes and blanks included.
			k := i + 1
			for k < len(orig) && orig[k] != c {
				if orig[k] == '\\' {
					k++
				}
				k++
			}
			if k >= len(orig) {
				return false
			}
			k++
			if j+(k-i) > len(pre) || !bytes.Equal(orig[i:k], pre[j:j+(k-i)]) {
				return false
			}
			j += k - i
			i = k
		default:
			if pre[j] != c {
				return false
			}
			i++
			j++
		}
	}
}

func isBlankByte(c byte) bool {
	return c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == '\r'
}
