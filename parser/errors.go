package parser

import (
	"fmt"
	"sort"
)

// Severity tells how serious a Diagnostic is. Only errors make a run fail.
type Severity uint8

const (
	Error Severity = iota
	Warning
	Note
)

// Position is a presumed source position: the file and line as the user
// sees them, honouring #line directives and GCC line markers. Offset is the
// byte offset in the physical input.
type Position struct {
	Filename string
	Line     int // 1-based
	Col      int // 1-based, in bytes
	Offset   int
}

func (p Position) String() string {
	if p.Line == 0 {
		return p.Filename
	}
	return fmt.Sprintf("%s:%d:%d", p.Filename, p.Line, p.Col)
}

// A Diagnostic is an error, warning or note attached to a position.
type Diagnostic struct {
	Pos      Position
	Severity Severity
	Msg      string
}

func (d *Diagnostic) Error() string {
	switch d.Severity {
	case Warning:
		return d.Pos.String() + ": warning: " + d.Msg
	case Note:
		return d.Pos.String() + ": note: " + d.Msg
	}
	return d.Pos.String() + ": " + d.Msg
}

// Report adds a diagnostic at offset off of f. Every diagnostic of the
// parser and of the rewrite goes through it.
func (l *DiagnosticList) Report(f *File, off int, sev Severity, format string, args ...any) {
	*l = append(*l, &Diagnostic{Pos: f.Position(off), Severity: sev, Msg: fmt.Sprintf(format, args...)})
}

// DiagnosticList collects diagnostics; it is sorted by position before it
// is printed.
type DiagnosticList []*Diagnostic

func (l DiagnosticList) Len() int      { return len(l) }
func (l DiagnosticList) Swap(i, j int) { l[i], l[j] = l[j], l[i] }
func (l DiagnosticList) Less(i, j int) bool {
	a, b := l[i].Pos, l[j].Pos
	if a.Filename != b.Filename {
		return a.Filename < b.Filename
	}
	if a.Offset != b.Offset {
		return a.Offset < b.Offset
	}
	if l[i].Severity != l[j].Severity {
		return l[i].Severity < l[j].Severity
	}
	return l[i].Msg < l[j].Msg
}

// Sort sorts the list by position and removes exact duplicates.
func (l *DiagnosticList) Sort() {
	sort.Stable(*l)
	out := (*l)[:0]
	for i, d := range *l {
		if i > 0 {
			p := out[len(out)-1]
			if p.Pos.Offset == d.Pos.Offset && p.Pos.Filename == d.Pos.Filename && p.Msg == d.Msg && p.Severity == d.Severity {
				continue
			}
		}
		out = append(out, d)
	}
	*l = out
}

// HasErrors reports whether any diagnostic is an error.
func (l DiagnosticList) HasErrors() bool {
	for _, d := range l {
		if d.Severity == Error {
			return true
		}
	}
	return false
}

// Err returns the list as an error if it holds at least one error.
func (l DiagnosticList) Err() error {
	if l.HasErrors() {
		return l
	}
	return nil
}

// Error prints the first error and how many more there are.
func (l DiagnosticList) Error() string {
	var first *Diagnostic
	n := 0
	for _, d := range l {
		if d.Severity == Error {
			if first == nil {
				first = d
			}
			n++
		}
	}
	switch n {
	case 0:
		return "no errors"
	case 1:
		return first.Error()
	}
	return fmt.Sprintf("%s (and %d more errors)", first.Error(), n-1)
}
