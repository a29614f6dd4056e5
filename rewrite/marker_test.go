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
