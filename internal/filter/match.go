package filter

import "strings"

// Match reports whether s matches the shell wildcard pattern as
// fnmatch(3) with no flags matches it (the way Score-P matches filter
// patterns): '*' any string, '/' and a leading '.' included; '?' any
// byte; [...] a set; a backslash quotes the next byte, and a pattern
// that ends in one matches nothing. Bytes compare as bytes, without
// locale. It runs in O(len(pattern)·len(s)) at worst.
func Match(pattern, s string) bool {
	// The patterns of filter files are mostly a literal with a '*' on
	// either side: a run's filter matches each against thousands of
	// symbols.
	front := strings.HasPrefix(pattern, "*")
	lit := strings.TrimPrefix(pattern, "*")
	back := strings.HasSuffix(lit, "*")
	lit = strings.TrimSuffix(lit, "*")
	if !strings.ContainsAny(lit, "*?[\\") {
		switch {
		case front && back:
			return strings.Contains(s, lit)
		case front:
			return strings.HasSuffix(s, lit)
		case back:
			return strings.HasPrefix(s, lit)
		}
		return s == lit
	}
	return wildcard(pattern, s)
}

// wildcard is Match without its shortcut for literals.
func wildcard(pattern, s string) bool {
	p, n := 0, 0
	starP, starN := -1, 0 // the last '*' seen, and where in s it took over
	for p < len(pattern) || n < len(s) {
		if p < len(pattern) {
			if pattern[p] == '*' {
				starP, starN = p, n
				p++
				continue
			}
			if n < len(s) {
				if next, ok := matchOne(pattern, p, s[n]); ok {
					p = next
					n++
					continue
				}
			}
		}
		if starP < 0 || starN >= len(s) {
			return false
		}
		starN++ // the last '*' takes one byte more
		p, n = starP+1, starN
	}
	return true
}

// matchOne matches the pattern element at p, which is not '*', against
// the byte c, and returns the offset after the element.
func matchOne(pattern string, p int, c byte) (int, bool) {
	switch pattern[p] {
	case '?':
		return p + 1, true
	case '\\':
		if p+1 >= len(pattern) {
			return p, false // a trailing backslash matches nothing
		}
		return p + 2, pattern[p+1] == c
	case '[':
		if end, in, ok := matchSet(pattern, p, c); ok {
			return end, in
		}
		// A '[' without its ']' is itself.
	}
	return p + 1, pattern[p] == c
}

// matchSet matches the set [...] at pattern[p] against c. ok is false
// when the set is not closed.
func matchSet(pattern string, p int, c byte) (end int, in, ok bool) {
	i := p + 1
	negate := i < len(pattern) && (pattern[i] == '!' || pattern[i] == '^')
	if negate {
		i++
	}
	matched := false
	for first := true; ; first = false {
		if i >= len(pattern) {
			return 0, false, false
		}
		ch := pattern[i]
		if ch == ']' && !first {
			return i + 1, matched != negate, true
		}
		if ch == '[' && i+1 < len(pattern) && pattern[i+1] == ':' {
			if j := indexFrom(pattern, i+2, ":]"); j >= 0 {
				matched = matched || inClass(pattern[i+2:j], c)
				i = j + 2
				continue
			}
		}
		lo, next, ok := setByte(pattern, i)
		if !ok {
			return 0, false, false
		}
		hi := lo
		if next+1 < len(pattern) && pattern[next] == '-' && pattern[next+1] != ']' {
			if hi, next, ok = setByte(pattern, next+1); !ok {
				return 0, false, false
			}
		}
		matched = matched || lo <= c && c <= hi
		i = next
	}
}

// setByte returns the byte of a set at pattern[i], a backslash quoting it.
func setByte(pattern string, i int) (byte, int, bool) {
	if pattern[i] == '\\' {
		if i+1 >= len(pattern) {
			return 0, 0, false
		}
		return pattern[i+1], i + 2, true
	}
	return pattern[i], i + 1, true
}

func indexFrom(s string, from int, sub string) int {
	for i := from; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}

// inClass reports whether c is in the POSIX class name (C locale); an
// unknown class holds nothing.
func inClass(name string, c byte) bool {
	upper, lower, digit := 'A' <= c && c <= 'Z', 'a' <= c && c <= 'z', '0' <= c && c <= '9'
	punct := c > ' ' && c < 0x7f && !upper && !lower && !digit
	switch name {
	case "alpha":
		return upper || lower
	case "digit":
		return digit
	case "alnum":
		return upper || lower || digit
	case "upper":
		return upper
	case "lower":
		return lower
	case "xdigit":
		return digit || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
	case "space":
		return c == ' ' || '\t' <= c && c <= '\r'
	case "blank":
		return c == ' ' || c == '\t'
	case "punct":
		return punct
	case "cntrl":
		return c < ' ' || c == 0x7f
	case "graph":
		return c > ' ' && c < 0x7f
	case "print":
		return c >= ' ' && c < 0x7f
	}
	return false
}
