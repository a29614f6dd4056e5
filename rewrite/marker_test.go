package rewrite

import (
	"bytes"
	"testing"
)

// TestMarkerIndex checks the eight-bytes-at-a-time scan of join against
// bytes.IndexAny: every marker at every position of texts of every length
// up to 40, beside bytes that are near the markers (0x04, 0x7f, 0x80,
// 0x81, 0xff), whose borrows a wrong word test would mistake.
func TestMarkerIndex(t *testing.T) {
	fill := []byte{' ', 'a', 0x04, 0x05, 0x7f, 0x80, 0x81, 0x83, 0xff, '\n'}
	for n := 0; n <= 40; n++ {
		for _, f := range fill {
			text := bytes.Repeat([]byte{f}, n)
			if got, want := markerIndex(text), bytes.IndexAny(text, "\x01\x02\x03"); got != want {
				t.Fatalf("%q: markerIndex %d, IndexAny %d", text, got, want)
			}
			for at := 0; at < n; at++ {
				for _, m := range []byte{resyncLine, pragmaStart, resyncOptional} {
					text[at] = m
					if got := markerIndex(text); got != at {
						t.Fatalf("%q: markerIndex %d, want %d", text, got, at)
					}
					text[at] = f
				}
			}
		}
	}
}

// TestPlainRun checks writeKept's eight-bytes-at-a-time scan against a
// byte-by-byte one: every special byte at every position, beside bytes
// near them (0x0b, 0x0e, 0x5b, 0x5d, 0xdc).
func TestPlainRun(t *testing.T) {
	naive := func(b []byte, i, stop int) int {
		for i < stop && !keptSpecial[b[i]] {
			i++
		}
		return i
	}
	for n := 0; n <= 40; n++ {
		for _, f := range []byte{' ', 'x', 0x0b, 0x0e, 0x5b, 0x5d, 0xdc, 0x80} {
			b := bytes.Repeat([]byte{f}, n)
			for at := -1; at < n; at++ {
				for _, c := range []byte{'\\', '\n', '\r', '\t'} {
					if at >= 0 {
						b[at] = c
					}
					for i := 0; i <= n; i += 3 {
						if got, want := plainRun(b, i, n), naive(b, i, n); got != want {
							t.Fatalf("%q from %d: plainRun %d, want %d", b, i, got, want)
						}
					}
					if at >= 0 {
						b[at] = f
					}
				}
			}
		}
	}
}
