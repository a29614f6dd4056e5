package rewrite

import (
	"bytes"
	"testing"

	"gopari/parser"
)

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

// TestControlBytesInDirective checks that bytes of the user's text that
// have the values of join's markers stay text: a directive whose clause
// holds such a byte in a string literal is instrumented as the same
// directive with a letter there (gopari panicked on '\x02' and split the
// literal on '\x01' and '\x03').
func TestControlBytesInDirective(t *testing.T) {
	t.Parallel()
	const src = "int f(const char *c) {\n  int n = 0;\n#pragma omp parallel if(c[0] != \"@\"[0]) reduction(+:n)\n  n++;\n#pragma omp task if(c[1] != \"@\"[0])\n  n--;\n  return n;\n}\n"
	instrument := func(c byte) []byte {
		res, diags := Source("ctl.c", bytes.ReplaceAll([]byte(src), []byte("@"), []byte{c}), parser.Config{}, Options{})
		if res == nil {
			t.Fatalf("%q: %v", c, diags.Err())
		}
		return res.Bytes()
	}
	// The code after the header, which names the byte escaped.
	code := func(b []byte) []byte {
		_, after, ok := bytes.Cut(b, []byte("#line 1 \"ctl.c\"\n"))
		if !ok {
			t.Fatalf("no header in\n%s", b)
		}
		return after
	}
	want := code(instrument('A'))
	for _, c := range []byte{1, 2, 3, 4, 0x7f, 0x80} {
		got := code(instrument(c))
		if !bytes.Equal(got, bytes.ReplaceAll(want, []byte(`"A"`), []byte{'"', c, '"'})) {
			t.Errorf("with %q instead of 'A':\n%s", c, got)
		}
	}
}

// TestOmpEnd checks where ompEnd finds the end of "omp" in #pragma
// lines, on its fast path for the plain spelling and off it.
func TestOmpEnd(t *testing.T) {
	for _, c := range []struct {
		src  string
		want int
	}{
		{"#pragma omp parallel", 11},
		{"#pragma omp\tparallel", 11},
		{"#pragma omp(x)", 11},
		{"#pragma omp", 11},
		{"#pragma ompx parallel", -1},
		{"#pragma omp_x", -1},
		{"#pragma om\\\np parallel", 13},
		{"#pragma omp\\\nx parallel", -1},
		{"#pragma omp\\\n parallel", 11},
		{"#  pragma   omp parallel", 15},
		{"%:pragma omp parallel", 12},
		{"#pragma /* c */ omp parallel", 19},
		{"#pragma pomp inst begin(x)", -1},
	} {
		d := &parser.Directive{Form: parser.FormHash, Pos: 0, End: len(c.src)}
		if got, _ := ompEnd([]byte(c.src), d, nil); got != c.want {
			t.Errorf("ompEnd(%q) = %d, want %d", c.src, got, c.want)
		}
	}
}
