package rewrite

import "strconv"

// appendQuoted appends s as a C string literal. It escapes quotes,
// backslashes, control bytes and the second '?' of a trigraph; other
// bytes, UTF-8 included, are kept. Go's %q is not C's escaping.
func appendQuoted[T string | []byte](b []byte, s T) []byte {
	b = append(b, '"')
	plain := true
	for i := 0; i < len(s); i++ {
		if needsEscape[s[i]] {
			plain = false
			break
		}
	}
	if plain {
		b = append(b, s...)
		return append(b, '"')
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c == '\n':
			b = append(b, '\\', 'n')
		case c == '\t':
			b = append(b, '\\', 't')
		case c == '\r':
			b = append(b, '\\', 'r')
		case c == '?' && i > 0 && s[i-1] == '?':
			b = append(b, '\\', '?')
		case c < 0x20 || c == 0x7f:
			b = append(b, '\\', '0'+c>>6, '0'+(c>>3)&7, '0'+c&7)
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}

// quoteC renders s as a C string literal; see appendQuoted.
func quoteC(s string) string { return string(appendQuoted(nil, s)) }

// QuoteC renders s as a C string literal, as gopari writes every string
// of generated C (the wrapper's filter file too); see appendQuoted.
func QuoteC(s string) string { return quoteC(s) }

// needsEscape marks the bytes appendQuoted may have to escape.
var needsEscape = func() (t [256]bool) {
	for c := 0; c < 0x20; c++ {
		t[c] = true
	}
	t['"'], t['\\'], t['?'], t[0x7f] = true, true, true, true
	return t
}()

// itoa appends the decimal form of i.
func itoa(b []byte, i int) []byte { return strconv.AppendInt(b, int64(i), 10) }

// LineMarker returns a GCC line marker, # line "name", with its newline:
// as the first line of preprocessed input it names the file compiled.
func LineMarker(line int, name string) []byte {
	b := append(itoa([]byte("# "), line), ' ')
	return append(appendQuoted(b, name), '\n')
}
