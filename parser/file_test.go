package parser

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestLineLookups checks lines and columns found by counting from the
// previous lookup, and then by the line table once counting has looked at
// too much, against a count from the start of the file.
func TestLineLookups(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for iter := 0; iter < 200; iter++ {
		src := make([]byte, r.IntN(300))
		for i := range src {
			src[i] = "ab\n"[r.IntN(3)]
		}
		f := NewFile("l.c", src)
		for q := 0; q < 60; q++ {
			off := r.IntN(len(src) + 1)
			wantLine := bytes.Count(src[:off], []byte{'\n'}) + 1
			wantCol := off - (bytes.LastIndexByte(src[:off], '\n') + 1) + 1
			p := f.Position(off)
			if p.Line != wantLine || p.Col != wantCol {
				t.Fatalf("%q at %d (table built: %v): %d:%d, want %d:%d", src, off, f.lines != nil, p.Line, p.Col, wantLine, wantCol)
			}
		}
		if len(src) > 10 && f.lines == nil {
			t.Fatalf("60 random lookups in %d bytes did not build the table", len(src))
		}
	}
}
