package fortran

import (
	"fmt"
	"hash/fnv"
	"strings"

	"gopari/internal/constructs"
)

// Options control the instrumentation of one Fortran file.
type Options struct {
	Name       string // the file's name as recorded in regions and line markers
	Form       Form   // free or fixed form
	KeepUntied bool   // keep untied tasks untied (else untied is removed)
	Chunks     bool   // record the chunks of do loops (--chunks)
	// Salt tells apart the unit modules of one text compiled twice into
	// one program: the object's path, say.
	Salt        string
	Disable     map[string]bool // --disable groups (rewrite.ParseDisable)
	SkipModules bool            // leave the unit module out (tests of the table)
}

// A Diag is a message about a line of the source.
type Diag struct {
	File    string
	Line    int
	Warning bool
	Msg     string
}

func (d Diag) String() string {
	sev := "error"
	if d.Warning {
		sev = "warning"
	}
	return fmt.Sprintf("%s:%d:1: %s: %s", d.File, d.Line, sev, d.Msg)
}

// Errors are the errors of a file that cannot be instrumented.
type Errors []Diag

func (e Errors) Error() string {
	var s []string
	for _, d := range e {
		s = append(s, d.String())
	}
	return strings.Join(s, "\n")
}

// Result is one instrumented file.
type Result struct {
	Fortran  []byte // the instrumented source; the input when Regions is 0
	Table    []byte // the C source of its region table; nil when Regions is 0
	Regions  int
	Unit     string // the name of the file's unit module: pomp_unit_ + Unit
	Warnings []Diag
}

// A region is one row of the region table.
type region struct {
	kind               constructs.ID
	flags              []string
	begin, end         int
	file, name, sub, c string
}

// rw is the state of one instrumentation.
type rw struct {
	o       Options
	lines   []line
	its     []item
	before  map[int][]string // generated lines before a line
	after   map[int][]string // and after it
	replace map[int][]string // a directive's lines: its first line's replacement
	drop    map[int]bool     // the other lines of replaced directives
	done    map[int]bool     // end directives and statements handled by an earlier item
	regions []region
	diags   []Diag
	errs    Errors
	skip    int    // items up to this index are inside a simd loop
	body    [2]int // the items of the construct whose block is being opened (ompnames.go)
	unit    string
}

// Instrument rewrites the OpenMP directives of one Fortran file.
func Instrument(src []byte, o Options) (*Result, error) {
	r := &rw{o: o, before: map[int][]string{}, after: map[int][]string{}, replace: map[int][]string{},
		drop: map[int]bool{}, done: map[int]bool{}, skip: -1}
	r.lines = splitLines(src, o.Name)
	if o.Form == Fixed {
		classifyFixed(r.lines)
	} else {
		classifyFree(r.lines)
	}
	r.its = items(r.lines)
	r.unit = r.unitName(src)
	r.walk()
	if len(r.errs) > 0 {
		return nil, r.errs
	}
	res := &Result{Fortran: src, Regions: len(r.regions), Unit: r.unit, Warnings: r.diags}
	if len(r.regions) == 0 {
		return res, nil
	}
	res.Fortran = r.emit()
	res.Table = r.table()
	return res, nil
}

// unitName names the file's module and table: a hash of its name and text.
func (r *rw) unitName(src []byte) string {
	h := fnv.New32a()
	h.Write([]byte(r.o.Name))
	h.Write([]byte{0})
	h.Write([]byte(r.o.Salt))
	h.Write([]byte{0})
	h.Write(src)
	return fmt.Sprintf("%08x", h.Sum32())
}

func (r *rw) warn(it int, format string, args ...any) {
	l := r.lines[r.its[it].first]
	r.diags = append(r.diags, Diag{File: l.file, Line: l.num, Warning: true, Msg: fmt.Sprintf(format, args...)})
}

func (r *rw) fail(it int, format string, args ...any) {
	l := r.lines[r.its[it].first]
	r.errs = append(r.errs, Diag{File: l.file, Line: l.num, Msg: fmt.Sprintf(format, args...)})
}

// lineOf returns the user's line number of an item's first (or last) line.
func (r *rw) lineOf(it int, last bool) int {
	if last {
		return r.lines[r.its[it].last].num
	}
	return r.lines[r.its[it].first].num
}

// disabled reports whether --disable turns a kind off.
func (r *rw) disabled(k constructs.ID) bool {
	return r.o.Disable[constructs.Get(k).Group]
}

// addRegion appends a region and returns the expression that names it.
func (r *rw) addRegion(reg region) string {
	r.regions = append(r.regions, reg)
	return fmt.Sprintf("pomp_r(%d)", len(r.regions)-1)
}

// code indents generated statements for the file's form, continued over
// lines that stay within the form's line length (a user's expression in
// a generated statement may be long).
func (r *rw) code(s ...string) []string {
	var out []string
	width := 100
	if r.o.Form == Fixed {
		width = 66
	}
	for _, x := range s {
		for i, piece := range cutLine(x, width) {
			switch {
			case r.o.Form == Fixed && i == 0:
				out = append(out, "      "+piece)
			case r.o.Form == Fixed:
				out = append(out, "     &"+piece)
			case i == 0:
				out = append(out, piece)
			default:
				out = append(out, "&"+piece)
			}
		}
	}
	if r.o.Form == Free {
		for i := range out[:max(len(out)-1, 0)] {
			if strings.HasPrefix(out[i+1], "&") {
				out[i] += "&"
			}
		}
	}
	return out
}

// cutLine cuts a statement into pieces of at most width bytes, after a
// comma where there is one; the pieces join without blanks.
func cutLine(s string, width int) []string {
	var out []string
	for len(s) > width {
		i := strings.LastIndex(s[:width], ", ")
		if i <= 0 {
			i = width - 1
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return append(out, s)
}

func (r *rw) addBefore(line int, s []string) { r.before[line] = append(r.before[line], s...) }

// addAfter puts lines after a line, before those an enclosing construct
// put there earlier.
func (r *rw) addAfter(line int, s []string) {
	r.after[line] = append(append([]string(nil), s...), r.after[line]...)
}

// setDirective replaces the lines of item it with a directive.
func (r *rw) setDirective(it int, name string, cs []clause) {
	f, l := r.its[it].first, r.its[it].last
	r.replace[f] = r.dirLines(name, cs)
	for i := f + 1; i <= l; i++ {
		r.drop[i] = true
	}
}

// dirLines writes a directive, continued over lines that stay short.
func (r *rw) dirLines(name string, cs []clause) []string {
	parts := []string{name}
	for _, c := range cs {
		parts = append(parts, c.String())
	}
	width := 100
	if r.o.Form == Fixed {
		width = 60
	}
	var out []string
	cur := ""
	for _, p := range parts {
		for _, piece := range breakLong(p, width) {
			if cur != "" && len(cur)+1+len(piece) > width {
				out = append(out, cur)
				cur = piece
			} else if cur == "" {
				cur = piece
			} else {
				cur += " " + piece
			}
		}
	}
	out = append(out, cur)
	for i := range out {
		switch {
		case r.o.Form == Fixed && i == 0:
			out[i] = "!$omp " + out[i]
		case r.o.Form == Fixed:
			out[i] = "!$omp+" + out[i]
		case i == 0:
			out[i] = "!$omp " + out[i]
		default:
			out[i] = "!$omp& " + out[i]
		}
		if r.o.Form == Free && i < len(out)-1 {
			out[i] += " &"
		}
	}
	return out
}

// breakLong cuts a clause longer than width after commas.
func breakLong(s string, width int) []string {
	var out []string
	for len(s) > width {
		i := strings.LastIndex(s[:width], ",")
		if i <= 0 {
			break
		}
		out = append(out, s[:i+1])
		s = strings.TrimLeft(s[i+1:], " ")
	}
	return append(out, s)
}

// clauseText renders clauses for the region table.
func clauseText(cs []clause) string {
	var s []string
	for _, c := range cs {
		s = append(s, c.String())
	}
	return strings.Join(s, " ")
}
