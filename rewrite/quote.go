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

// itoa appends the decimal form of i. The offsets, lines and region
// numbers gopari writes are below a billion: they are written in place,
// two digits at a time, in a third of strconv.AppendInt's instructions.
func itoa(b []byte, i int) []byte {
	if i < 0 || i >= 1e9 {
		return strconv.AppendInt(b, int64(i), 10)
	}
	n := decimalDigits(i)
	at := len(b)
	if cap(b)-at < n {
		b = append(b, "000000000"[:n]...)
	} else {
		b = b[:at+n]
	}
	k := at + n
	for i >= 100 {
		q := i / 100
		r := 2 * (i - 100*q)
		k -= 2
		b[k], b[k+1] = pairs[r], pairs[r+1]
		i = q
	}
	if i >= 10 {
		b[k-2], b[k-1] = pairs[2*i], pairs[2*i+1]
	} else {
		b[k-1] = byte('0' + i)
	}
	return b
}

// pairs holds the two digits of 00 to 99.
const pairs = "00010203040506070809" + "10111213141516171819" + "20212223242526272829" + "30313233343536373839" +
	"40414243444546474849" + "50515253545556575859" + "60616263646566676869" + "70717273747576777879" +
	"80818283848586878889" + "90919293949596979899"

// decimalDigits returns the number of decimal digits of 0 <= i < 1e9.
func decimalDigits(i int) int {
	switch {
	case i < 10:
		return 1
	case i < 100:
		return 2
	case i < 1000:
		return 3
	case i < 10000:
		return 4
	case i < 100000:
		return 5
	case i < 1000000:
		return 6
	case i < 10000000:
		return 7
	case i < 100000000:
		return 8
	}
	return 9
}

// LineMarker returns a GCC line marker, # line "name", with its newline:
// as the first line of preprocessed input it names the file compiled.
func LineMarker(line int, name string) []byte {
	b := append(itoa([]byte("# "), line), ' ')
	return append(appendQuoted(b, name), '\n')
}
