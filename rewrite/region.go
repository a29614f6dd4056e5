package rewrite

import (
	"io"

	"gopari/internal/par"

	"gopari/parser"
)

// A region is one entry of the region table that an instrumented file
// registers with the runtime: a POMP_Region of pomp.h.
type region struct {
	kind    string // POMP_PARALLEL, ...
	flags   flags
	file    string
	begin   int
	end     int
	name    string
	sub     string
	arg     string // a directive argument shown with the clauses: flush(list)
	hasArg  bool
	clauses []parser.Clause
	// shape records choices of the code that the table does not show:
	// how a taskloop hands its tasks their IDs, how a loop's chunks are
	// recorded (Result.Outline).
	shape string
}

// flags are the POMP_FLAG_* bits of a region: flagNowait, ... and their
// names, flagNames, are generated from internal/constructs's list
// (flags_gen.go).
type flags uint16

func (f flags) append(b []byte) []byte {
	if f == 0 {
		return append(b, '0')
	}
	first := true
	for i, n := range flagNames {
		if f&(1<<i) != 0 {
			if !first {
				b = append(b, '|')
			}
			b = append(b, n...)
			first = false
		}
	}
	return b
}

// headerChunk is how much of the header writeHeader builds before it
// writes it: the region table of a large file is written as it is
// rendered, never held whole.
const headerChunk = 32 << 10

// writeHeader writes the generated-code header, the region table and the
// registration of this file's regions to w.
func (g *gen) writeHeader(w io.Writer) error {
	nl := g.nl
	b := make([]byte, 0, headerChunk+4096)
	b = append(b, Header+nl...)
	if g.iface != nil {
		if _, err := w.Write(b); err != nil {
			return err
		}
		b = b[:0]
		if _, err := w.Write(g.iface); err != nil {
			return err
		}
		if len(g.iface) > 0 && g.iface[len(g.iface)-1] != '\n' {
			b = append(b, nl...)
		}
	} else {
		b = append(b, `#include "pomp.h"`+nl...)
		if g.metas > 0 {
			for _, l := range metaWarning {
				b = append(append(b, l...), nl...)
			}
		}
	}
	if len(g.regions) > 0 {
		b = append(b, "static POMP_Region pomp_regions[] = {"+nl...)
		if g.rows != nil {
			// Rendered already, beside the sort of the edits (run).
			if _, err := w.Write(b); err != nil {
				return err
			}
			b = b[:0]
			for _, rows := range g.rows {
				if _, err := w.Write(rows); err != nil {
					return err
				}
			}
		} else {
			var tmp []byte
			for i := 0; i < len(g.regions); {
				if b = g.appendRows(b, i, len(g.regions), &tmp, &i); len(b) >= headerChunk {
					if _, err := w.Write(b); err != nil {
						return err
					}
					b = b[:0]
				}
			}
		}
		b = append(b, "};"+nl...)
		b = append(b, "static POMP_Unit pomp_unit = {POMP_ABI_VERSION, "...)
		b = itoa(b, len(g.regions))
		b = append(b, ", "+quoteC(g.name)+", pomp_regions, 0};"+nl...)
		b = append(b, "static void pomp_register(void) __attribute__((__constructor__));"+nl...)
		b = append(b, "static void pomp_register(void) { POMP_Register_unit(&pomp_unit); }"+nl...)
		b = append(b, "static __inline__ POMP_Region *pomp_r(unsigned i) { return &pomp_regions[i]; }"+nl...)
	}
	_, err := w.Write(g.lineDirective(b, 1, g.name))
	return err
}

// metaWarning makes the compilers that ignore metadirectives, GCC before
// 13, say that gopari instrumented the variants OpenMP selects: the
// instrumented program runs them, the original ran without them.
// (gopari cc asks the compiler first, and passes metadirectives through
// where it ignores them.)
var metaWarning = []string{
	"#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ < 13",
	"#warning \"gopari instrumented the variants of this file's metadirectives, which this compiler ignores: the program runs them, the original did not\"",
	"#endif",
}

// rowChunks is the number of chunks of a large region table rendered
// beside the sort of the edits, and rowsAhead the number of regions from
// which it is.
const (
	rowChunks = 4
	rowsAhead = 16384
)

// renderRows renders the rows of a large region table in chunks, beside
// work (the sort of the edits) on two threads (package par); a small
// table is rendered as it is written.
func (g *gen) renderRows(work func()) {
	n := len(g.regions)
	if n < rowsAhead || !par.Useful() {
		work()
		return
	}
	rows := make([][][]byte, rowChunks)
	par.Do(rowChunks+1, func(c int) {
		if c == rowChunks {
			work()
			return
		}
		// Pieces of about headerChunk bytes, as writeHeader writes them:
		// a buffer sized ahead would be as large as the longest rows.
		var tmp []byte
		for lo, hi := n*c/rowChunks, n*(c+1)/rowChunks; lo < hi; {
			b := make([]byte, 0, headerChunk+4096)
			k := lo
			b = g.appendRows(b, lo, hi, &tmp, &k)
			rows[c] = append(rows[c], b)
			lo = k
		}
	})
	for _, r := range rows {
		g.rows = append(g.rows, r...)
	}
}

// appendRows renders regions lo to hi-1 of the table, or from lo until
// b holds headerChunk bytes when next is not nil, which is then set to the
// first region not rendered; tmp is scratch.
func (g *gen) appendRows(b []byte, lo, hi int, tmp *[]byte, next *int) []byte {
	var lastFile string
	var quotedFile []byte
	if lo > 0 { // as if the rows before had been rendered
		lastFile = g.regions[lo-1].file
		quotedFile = appendQuoted(nil, lastFile)
	}
	for i := lo; i < hi; i++ {
		r := &g.regions[i]
		if r.file != lastFile {
			lastFile, quotedFile = r.file, appendQuoted(quotedFile[:0], r.file)
		}
		b = g.appendRegion(b, i, r, quotedFile, tmp)
		if next != nil {
			if *next = i + 1; len(b) >= headerChunk {
				break
			}
		}
	}
	return b
}

// appendRegion renders region i of the table; file is its file name,
// quoted, and tmp scratch.
func (g *gen) appendRegion(b []byte, i int, r *region, file []byte, tmp *[]byte) []byte {
	b = append(b, "\t/* "...)
	b = itoa(b, i)
	b = append(b, " */ {0, "...)
	b = append(b, r.kind...)
	b = append(b, ", "...)
	b = r.flags.append(b)
	b = append(b, ", "...)
	b = itoa(b, r.begin)
	b = append(b, ", "...)
	b = itoa(b, r.end)
	b = append(b, ", "...)
	b = append(b, file...)
	b = append(b, ", "...)
	b = appendQuoted(b, r.name)
	b = append(b, ", "...)
	if r.sub == "" {
		b = append(b, '0')
	} else {
		b = appendQuoted(b, r.sub)
	}
	b = append(b, ", "...)
	t := (*tmp)[:0]
	if r.hasArg {
		t = append(t, '(')
		t = append(t, r.arg...)
		t = append(t, ')')
	}
	t = appendClauses(t, r.clauses, r.hasArg)
	*tmp = t
	b = appendQuoted(b, t)
	return append(append(b, "},"...), g.nl...)
}

// appendClauses renders clauses, blank-separated, with a leading blank if
// lead is set.
func appendClauses(b []byte, cs []parser.Clause, lead bool) []byte {
	for i, c := range cs {
		if i > 0 || lead {
			b = append(b, ' ')
		}
		b = append(b, c.Name...)
		if c.HasArgs {
			b = append(b, '(')
			b = append(b, c.Args...)
			b = append(b, ')')
		}
	}
	return b
}

// Outline describes what the instrumentation does, a line per region:
// its kind, flags, lines, names, the names of its clauses and the shape
// of its code, without the text of clause arguments. Two instrumentations
// of one file with equal outlines differ only in text that the same
// preprocessing turns into the same tokens: gopari cc compares the
// instrumentation of a preprocessed source with that of its text.
func (r *Result) Outline() string {
	var b []byte
	for i := range r.g.regions {
		x := &r.g.regions[i]
		b = append(b, x.kind...)
		b = append(b, ' ')
		b = x.flags.append(b)
		b = append(b, ' ')
		b = appendQuoted(b, x.file)
		b = append(b, ':')
		b = itoa(b, x.begin)
		b = append(b, '-')
		b = itoa(b, x.end)
		b = append(b, ' ')
		b = appendQuoted(b, x.name)
		b = append(b, ' ')
		b = appendQuoted(b, x.sub)
		for _, c := range x.clauses {
			b = append(b, ' ')
			b = append(b, c.Name...)
		}
		b = append(b, " ["...)
		b = append(b, x.shape...)
		b = append(b, "]\n"...)
	}
	return string(b)
}

// Changed reports whether the instrumentation changes the file at all.
func (r *Result) Changed() bool { return len(r.edits.edits) > 0 }
