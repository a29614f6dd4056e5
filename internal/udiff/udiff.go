// Package udiff renders unified diffs of text, line by line (Myers'
// algorithm), as diff -u and gopari diff print them.
package udiff

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// splitLines splits b into lines, each keeping its newline.
func splitLines(b []byte) []string {
	var out []string
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			out = append(out, string(b))
			break
		}
		out = append(out, string(b[:i+1]))
		b = b[i+1:]
	}
	return out
}

// op is one line of an edit script: ' ' kept, '-' deleted, '+' inserted.
type op struct {
	kind byte
	line string
}

// lineDiff computes a shortest edit script from a to b (Myers, O(ND)).
func lineDiff(a, b []string) []op {
	n, m := len(a), len(b)
	max := n + m
	v := make([]int, 2*max+2)
	var trace [][]int
	off := max + 1
	for d := 0; d <= max; d++ {
		// Keep only the diagonals step d can read: memory O(D^2).
		trace = append(trace, append([]int(nil), v[off-d:off+d+1]...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || k != d && v[off+k-1] < v[off+k+1] {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				return backtrack(trace, a, b, off, d)
			}
		}
	}
	return nil
}

func backtrack(trace [][]int, a, b []string, off, d int) []op {
	x, y := len(a), len(b)
	var rev []op
	for ; d > 0; d-- {
		v := trace[d] // v[i] is diagonal i-d
		k := x - y
		var pk int
		if k == -d || k != d && v[k-1+d] < v[k+1+d] {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := v[pk+d]
		py := px - pk
		for x > px && y > py {
			x--
			y--
			rev = append(rev, op{' ', a[x]})
		}
		if x == px {
			y--
			rev = append(rev, op{'+', b[y]})
		} else {
			x--
			rev = append(rev, op{'-', a[x]})
		}
	}
	for x > 0 && y > 0 {
		x--
		y--
		rev = append(rev, op{' ', a[x]})
	}
	out := make([]op, len(rev))
	for i := range rev {
		out[i] = rev[len(rev)-1-i]
	}
	return out
}

// Unified renders a unified diff of a and b with 3 lines of context, or
// "" when they are equal.
func Unified(nameA, nameB string, a, b []byte) string {
	if bytes.Equal(a, b) {
		return ""
	}
	ops := lineDiff(splitLines(a), splitLines(b))
	const ctx = 3
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", nameA, nameB)
	// Positions: ai, bi count lines of a and b before ops[i].
	type hunk struct{ start, end int }
	var hunks []hunk
	for i := 0; i < len(ops); i++ {
		if ops[i].kind == ' ' {
			continue
		}
		s := i - ctx
		if s < 0 {
			s = 0
		}
		e := i
		for e < len(ops) {
			if ops[e].kind != ' ' {
				e++
				continue
			}
			j := e
			for j < len(ops) && ops[j].kind == ' ' {
				j++
			}
			if j == len(ops) || j-e > 2*ctx {
				break
			}
			e = j
		}
		end := e + ctx
		if end > len(ops) {
			end = len(ops)
		}
		if n := len(hunks); n > 0 && s <= hunks[n-1].end {
			hunks[n-1].end = end
		} else {
			hunks = append(hunks, hunk{s, end})
		}
		i = e
	}
	ai, bi, pos := 0, 0, 0
	for _, h := range hunks {
		for ; pos < h.start; pos++ {
			switch ops[pos].kind {
			case ' ':
				ai++
				bi++
			case '-':
				ai++
			case '+':
				bi++
			}
		}
		na, nb := 0, 0
		for _, o := range ops[h.start:h.end] {
			if o.kind != '+' {
				na++
			}
			if o.kind != '-' {
				nb++
			}
		}
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", span(ai, na), span(bi, nb))
		for _, o := range ops[h.start:h.end] {
			out.WriteByte(o.kind)
			out.WriteString(o.line)
			if !strings.HasSuffix(o.line, "\n") {
				out.WriteString("\n\\ No newline at end of file\n")
			}
		}
	}
	return out.String()
}

func span(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	if n == 1 {
		return fmt.Sprintf("%d", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

// Golden compares got, the instrumented text of file, with its golden
// file: it returns their unified diff, "" when they are equal, and an
// error that says how to make a golden file that is missing.
func Golden(golden, file string, got []byte) (string, error) {
	want, err := os.ReadFile(golden)
	if err != nil {
		return "", fmt.Errorf("%s: no golden file: %v (use --update to create it)", file, err)
	}
	return Unified(filepath.ToSlash(golden), filepath.ToSlash(file)+" (instrumented)", want, got), nil
}
