package parser

// The scanner's slower path, by the first byte of a token: comments,
// literals and directives that start with a punctuation byte, and the
// operators and punctuators with their digraphs.

// punct scans what starts with the byte c at i.
func (s *scanner) punct(i int, c byte) int {
	src := s.src
	switch c {
	case '/':
		c2, j := s.at(i + 1)
		if c2 == '*' {
			if j != i+1 {
				return s.blockCommentFrom(i, j)
			}
			return s.blockComment(i)
		}
		if c2 == '/' {
			return s.lineComment(j - 1)
		}
	case '"':
		return s.quoted(i, i, '"', String)
	case '\'':
		return s.quoted(i, i, '\'', Char)
	case '#':
		if s.atLineStart(i) {
			return s.directive(i, i+1)
		}
	case '%':
		if c2, j := s.at(i + 1); c2 == ':' && s.atLineStart(i) {
			return s.directive(i, j+1)
		}
	case '\\':
		if k := s.splice(i); k > 0 {
			return i + k
		}
		s.emit(Other, 0, i, i+1)
		return i + 1
	case '.':
		if i+1 < len(src) && class[src[i+1]]&cDigit != 0 {
			return s.number(i)
		}
	case '@', '`':
		s.emit(Other, 0, i, i+1)
		return i + 1
	}
	return s.operator(i, c)
}

// blockCommentFrom handles the rare /\<newline>* comment opener.
func (s *scanner) blockCommentFrom(i, star int) int {
	return s.blockComment(star - 1)
}

// operator scans a punctuator at i, longest match first.
func (s *scanner) operator(i int, c byte) int {
	src := s.src
	next := func(k int) byte {
		if i+k < len(src) {
			return src[i+k]
		}
		return 0
	}
	switch c {
	case '{', '}', '(', ')', '[', ']', ';', ',', '?', '~':
		s.emit(Punct, c, i, i+1)
		return i + 1
	case ':':
		if next(1) == ':' {
			s.emit(Punct, PColon2, i, i+2)
			return i + 2
		}
		if next(1) == '>' {
			s.emit(Punct, ']', i, i+2)
			return i + 2
		}
		s.emit(Punct, ':', i, i+1)
		return i + 1
	case '<':
		if next(1) == '%' {
			s.emit(Punct, '{', i, i+2)
			return i + 2
		}
		if next(1) == ':' {
			// C++11: <:: is < followed by :: unless the next is : or >.
			if !(s.opts.CPlusPlus && next(2) == ':' && next(3) != ':' && next(3) != '>') {
				s.emit(Punct, '[', i, i+2)
				return i + 2
			}
		}
	case '%':
		if next(1) == '>' {
			s.emit(Punct, '}', i, i+2)
			return i + 2
		}
	}
	n := opLen(src, i, c)
	sub := c
	if n > 1 {
		sub = PMulti
	}
	s.emit(Punct, sub, i, i+n)
	return i + n
}

// opLen returns the length of the operator at i that starts with c, the
// longest of the usual multi-character forms.
func opLen(src []byte, i int, c byte) int {
	next := func(k int) byte {
		if i+k < len(src) {
			return src[i+k]
		}
		return 0
	}
	n := 1
	switch c {
	case '-':
		if next(1) == '>' {
			n = 2
			if next(2) == '*' {
				n = 3
			}
		} else if next(1) == '-' || next(1) == '=' {
			n = 2
		}
	case '+', '&', '|':
		if next(1) == c || next(1) == '=' {
			n = 2
		}
	case '<', '>':
		if next(1) == c {
			n = 2
			if next(2) == '=' {
				n = 3
			}
		} else if next(1) == '=' {
			n = 2
			if c == '<' && next(2) == '>' {
				n = 3
			}
		}
	case '*', '/', '%', '^', '!', '=':
		if next(1) == '=' {
			n = 2
		}
	case '.':
		if next(1) == '.' && next(2) == '.' {
			n = 3
		} else if next(1) == '*' {
			n = 2
		}
	case '#':
		if next(1) == '#' {
			n = 2
		}
	}
	return n
}

// fastOpLen returns the length of the operator that starts with one of
// = ! ^ * + - & | at i: one or two bytes (three for ->*).
func fastOpLen(src []byte, i int, c byte) int {
	if i+1 >= len(src) {
		return 1
	}
	switch d := src[i+1]; {
	case d == '=' || d == c && (c == '+' || c == '&' || c == '|' || c == '-'):
		return 2
	case c == '-' && d == '>':
		if i+2 < len(src) && src[i+2] == '*' {
			return 3
		}
		return 2
	}
	return 1
}
