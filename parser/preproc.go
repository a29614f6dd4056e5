package parser

// Preprocessing directive lines: the scanner takes each as one Preproc
// token, records #line directives and GCC line markers in the File, and
// hands #if, #elif and #else lines to cond.go.

import (
	"bytes"
	"strconv"
)

// Preprocessing directive kinds in Token.Sub.
const (
	PPOther = iota
	PPNull
	PPIf
	PPIfdef
	PPIfndef
	PPElif
	PPElse
	PPEndif
	PPPragma
	PPDefine
	PPLine
	PPInclude
)

// DeadBranch is set in Token.Sub of an #if, #elif or #else line whose
// branch can never be compiled (#if 0); the branch is one Skipped token.
const DeadBranch = 0x80

// PP returns the directive kind of a Preproc token.
func (t Token) PP() int { return int(t.Sub & 0x3f) }

// directive scans a preprocessing directive whose '#' is at hash; name is
// the offset after the '#'. The token spans up to (not including) the
// newline that ends the logical line.
func (s *scanner) directive(hash, name int) int {
	end, nameStart, nameEnd := s.directiveEnd(name)
	if s.fatal {
		return len(s.src)
	}
	dname := s.name(nameStart, nameEnd)
	kind := ppKind(dname)

	s.pp = append(s.pp, int32(len(s.toks)))
	tokEnd := end
	if tokEnd > name && s.src[tokEnd-1] == '\r' {
		tokEnd-- // the CR of a CRLF line ending is not part of the directive
	}
	s.emit(Preproc, uint8(kind), hash, tokEnd)
	if len(s.conds) == 0 && (kind == PPElif || kind == PPElse || kind == PPEndif) {
		s.touchedBase = true // see scanSplit
	}
	switch kind {
	case PPIf, PPIfdef, PPIfndef:
		s.conds = append(s.conds, false)
		if kind == PPIf {
			switch constCond(s.rest(nameEnd, end)) {
			case 0:
				return s.skipBranch(end)
			case 1:
				s.conds[len(s.conds)-1] = true
			}
		}
	case PPElif:
		if len(s.conds) > 0 {
			if s.conds[len(s.conds)-1] {
				return s.skipBranch(end)
			}
			if string(dname) == "elif" { // not #elifdef or #elifndef
				switch constCond(s.rest(nameEnd, end)) {
				case 0:
					return s.skipBranch(end)
				case 1:
					s.conds[len(s.conds)-1] = true
				}
			}
		}
	case PPElse:
		if len(s.conds) > 0 && s.conds[len(s.conds)-1] {
			return s.skipBranch(end)
		}
	case PPEndif:
		if len(s.conds) > 0 {
			s.conds = s.conds[:len(s.conds)-1]
		}
	case PPLine:
		s.lineDirective(string(dname), s.rest(nameEnd, end), end)
	}
	return end
}

// name returns a directive's name at src[from:to], without the
// backslash-newlines it may contain.
func (s *scanner) name(from, to int) []byte {
	b := s.src[from:to]
	if bytes.IndexByte(b, '\\') < 0 {
		return b
	}
	out := make([]byte, 0, len(b))
	for i := from; i < to; {
		if k := s.splice(i); k > 0 {
			i += k
			continue
		}
		out = append(out, s.src[i])
		i++
	}
	return out
}

// rest returns the normalized text of a directive after its name.
func (s *scanner) rest(from, to int) string {
	return string(normalizePP(&s.txt, s.src, from, to).s)
}

func ppKind(name []byte) int {
	switch string(name) {
	case "":
		return PPNull
	case "if":
		return PPIf
	case "ifdef":
		return PPIfdef
	case "ifndef":
		return PPIfndef
	case "elif", "elifdef", "elifndef":
		return PPElif
	case "else":
		return PPElse
	case "endif":
		return PPEndif
	case "pragma":
		return PPPragma
	case "define":
		return PPDefine
	case "line":
		return PPLine
	case "include", "include_next", "import":
		return PPInclude
	}
	if name[0] >= '0' && name[0] <= '9' {
		return PPLine // GCC line marker: # 12 "file" flags
	}
	return PPOther
}

// dirSpecial marks bytes that need the careful scan of a directive line.
var dirSpecial = [256]bool{'/': true, '"': true, '\'': true, '\\': true}

// directiveEnd finds the newline ending the directive whose text starts at
// i (after the '#'), and the span of the directive's name. Comments may
// continue the line; literals are scanned leniently, as the preprocessor
// does in directives.
func (s *scanner) directiveEnd(i int) (end, nameStart, nameEnd int) {
	nameStart, nameEnd = s.directiveName(i)
	if s.fatal {
		return len(s.src), nameStart, nameEnd
	}
	return s.directiveLineEnd(nameEnd), nameStart, nameEnd
}

// directiveName returns the span of a directive's name, which follows i
// after blanks and comments. On an unterminated comment (s.fatal) both
// are where the comment ended.
func (s *scanner) directiveName(i int) (nameStart, nameEnd int) {
	src := s.src
	for i < len(src) {
		c := src[i]
		if c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' {
			i++
		} else if c == '/' && i+1 < len(src) && src[i+1] == '*' {
			i = s.blockComment(i)
			if s.fatal {
				return i, i
			}
		} else if k := s.splice(i); k > 0 {
			i += k
		} else {
			break
		}
	}
	nameStart = i
	for i < len(src) {
		if class[src[i]]&cIdent != 0 {
			i++
		} else if k := s.splice(i); k > 0 && i > nameStart && i+k < len(src) && class[src[i+k]]&cIdent != 0 {
			i += k // #pra\<newline>gma
		} else {
			break
		}
	}
	return nameStart, i
}

// directiveLineEnd returns the newline that ends the directive line on
// which i lies, past comments and splices (len(src) if none).
func (s *scanner) directiveLineEnd(i int) int {
	src := s.src
	// Fast when nothing on the line can hide a newline.
	nl := bytes.IndexByte(src[i:], '\n')
	lineEnd := len(src)
	if nl >= 0 {
		lineEnd = i + nl
	}
	plain := true
	for _, c := range src[i:lineEnd] {
		if dirSpecial[c] {
			plain = false
			break
		}
	}
	if plain {
		return lineEnd
	}
	for i < len(src) {
		c := src[i]
		switch {
		case c == '\n':
			return i
		case c == '\\':
			if k := s.splice(i); k > 0 {
				i += k
				continue
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			i = s.blockComment(i)
			if s.fatal {
				return len(src)
			}
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			return s.lineComment(i)
		case c == '"' || c == '\'' && !s.nums.digitSep(src, i):
			j := i + 1
			for j < len(src) && src[j] != c && src[j] != '\n' {
				if n := s.splice(j); n > 0 {
					j += n
					continue
				}
				if src[j] == '\\' && j+1 < len(src) && src[j+1] != '\n' {
					j++
				}
				j++
			}
			if j < len(src) && src[j] == c {
				j++
			}
			i = j
			continue
		}
		i++
	}
	return len(src)
}

// lineDirective records #line N "file" and GCC line markers # N "file" f.
func (s *scanner) lineDirective(num, rest string, end int) {
	if num == "line" {
		k := 0
		for k < len(rest) && rest[k] >= '0' && rest[k] <= '9' {
			k++
		}
		num, rest = rest[:k], rest[k:]
	}
	line, err := strconv.Atoi(num)
	if err != nil {
		return // a macro-expanded #line: leave it to the compiler
	}
	rest = trimBlank(rest)
	name := ""
	system := false
	if len(rest) > 0 && rest[0] == '"' {
		j := 1
		for j < len(rest) && rest[j] != '"' {
			if rest[j] == '\\' {
				j++
			}
			j++
		}
		if j < len(rest) {
			name = unquoteC(rest[1:j])
			for _, flag := range splitBlank(rest[j+1:]) {
				if flag == "3" {
					system = true
				}
			}
		}
	}
	nl := end
	if s.deferred {
		s.markers = append(s.markers, marker{Off: nl, Line: line, Name: name, System: system})
		return
	}
	s.f.addMarker(nl, line, name, system)
}

func trimBlank(s string) string {
	for len(s) > 0 && (s[0] == ' ' || s[0] == '\t') {
		s = s[1:]
	}
	for len(s) > 0 && (s[len(s)-1] == ' ' || s[len(s)-1] == '\t') {
		s = s[:len(s)-1]
	}
	return s
}

func splitBlank(s string) []string {
	var out []string
	for {
		s = trimBlank(s)
		if s == "" {
			return out
		}
		k := 0
		for k < len(s) && s[k] != ' ' && s[k] != '\t' {
			k++
		}
		out = append(out, s[:k])
		s = s[k:]
	}
}

// unquoteC undoes the escapes GCC writes in line-marker file names.
func unquoteC(s string) string {
	if !bytes.ContainsRune([]byte(s), '\\') {
		return s
	}
	var b []byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			i++
			c = s[i]
			if c >= '0' && c <= '7' {
				v := 0
				for k := 0; k < 3 && i < len(s) && s[i] >= '0' && s[i] <= '7'; k++ {
					v = v*8 + int(s[i]-'0')
					i++
				}
				i--
				c = byte(v)
			}
		}
		b = append(b, c)
	}
	return string(b)
}
