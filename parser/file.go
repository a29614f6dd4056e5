package parser

import (
	"bytes"
	"sort"
)

// A File is one source file: its bytes, its line table and the #line
// directives (or GCC line markers) that change its presumed positions.
type File struct {
	Name string // as the user gave it
	Src  []byte

	lines   []int    // offset of the first byte of every physical line; built when needed
	markers []marker // sorted by offset
	steps   int      // lines, markers and bytes looked at by lookups, for tests of linear time

	// The last line lookup made without the table: its offset, line and
	// line start, and the bytes such lookups have looked at (lineOf).
	curOff, curLine, curStart, counted int
}

// A marker is a #line directive or a GCC line marker: from the start of the
// physical line after Off, lines count from Line in file Name.
type marker struct {
	Off    int // first byte of the line the marker applies to
	Line   int
	Name   string
	System bool // GCC flag 3: a system header
}

// NewFile makes a File.
func NewFile(name string, src []byte) *File {
	return &File{Name: name, Src: src}
}

// Fork returns a File of the same name, bytes and line markers whose
// line lookups keep their own cursor: the fork and f may then look up
// positions on two threads at once, as long as neither adds markers.
func (f *File) Fork() *File {
	return &File{Name: f.Name, Src: f.Src, lines: f.lines, markers: f.markers}
}

// ForkAt is Fork, for lookups from offset off on: it tells the fork that
// off is on physical line line, which starts at offset start, so that its
// first lookup counts lines from there.
func (f *File) ForkAt(off, line, start int) *File {
	g := f.Fork()
	g.curOff, g.curLine, g.curStart = off, line, start
	return g
}

// table returns the line table, building it on first use: instrumenting
// a file needs line numbers only where directives are, and counts them
// from one directive to the next.
func (f *File) table() []int {
	if f.lines == nil {
		n := bytes.Count(f.Src, []byte{'\n'})
		lines := make([]int, 1, n+1)
		for i := 0; ; {
			k := bytes.IndexByte(f.Src[i:], '\n')
			if k < 0 {
				break
			}
			i += k + 1
			lines = append(lines, i)
		}
		f.lines = lines
		f.steps += len(lines)
	}
	return f.lines
}

// Steps returns how many lines and line markers the lookups of
// positions have looked at: tests check that it grows linearly.
func (f *File) Steps() int { return f.steps }

// Renumbered reports whether f has #line directives or GCC line markers,
// which renumber the lines after them: those its parse has recorded.
func (f *File) Renumbered() bool { return len(f.markers) > 0 }

// LineCount is the number of physical lines (a final line without a
// newline counts).
func (f *File) LineCount() int {
	lines := f.table()
	n := len(lines)
	if n > 0 && lines[n-1] == len(f.Src) {
		n--
	}
	return n
}

// Line returns the 1-based physical line of offset off.
func (f *File) Line(off int) int {
	l, _ := f.lineOf(off)
	return l
}

// lineOf returns the 1-based physical line of offset off and the offset
// of its first byte. A file with a few diagnostics needs a few lookups:
// until they have looked at twice the file's bytes, each counts the
// newlines from the previous one instead of building the line table.
func (f *File) lineOf(off int) (line, start int) {
	if f.lines == nil && f.counted <= 2*len(f.Src) {
		if f.curLine == 0 {
			f.curLine = 1
		}
		if off >= f.curOff {
			seg := f.Src[f.curOff:off]
			line, start = f.curLine, f.curStart
			if n := bytes.Count(seg, []byte{'\n'}); n > 0 {
				line += n
				start = f.curOff + bytes.LastIndexByte(seg, '\n') + 1
			}
			f.steps += 2 * len(seg)
			f.counted += 2 * len(seg)
		} else {
			seg := f.Src[off:f.curOff]
			line = f.curLine - bytes.Count(seg, []byte{'\n'})
			start = bytes.LastIndexByte(f.Src[:off], '\n') + 1
			f.steps += len(seg) + off - start
			f.counted += len(seg) + off - start
		}
		f.curOff, f.curLine, f.curStart = off, line, start
		return line, start
	}
	lines := f.table()
	l := sort.Search(len(lines), func(i int) bool { f.steps++; return lines[i] > off })
	return l, lines[l-1]
}

// LineStart returns the offset of the first byte of physical line line.
func (f *File) LineStart(line int) int {
	lines := f.table()
	if line < 1 {
		return 0
	}
	if line > len(lines) {
		return len(f.Src)
	}
	return lines[line-1]
}

// LineEnd returns the offset of the newline that ends the physical line
// holding off, or len(Src).
func (f *File) LineEnd(off int) int {
	l := f.Line(off)
	if lines := f.table(); l < len(lines) {
		return lines[l] - 1
	}
	return len(f.Src)
}

// addMarker records a #line directive or line marker whose own line ends at
// the newline at offset nl.
func (f *File) addMarker(nl int, line int, name string, system bool) {
	if name == "" {
		name = f.Name
		if len(f.markers) > 0 {
			name = f.markers[len(f.markers)-1].Name
		}
	}
	f.markers = append(f.markers, marker{Off: nl + 1, Line: line, Name: name, System: system})
}

// Position returns the presumed position of offset off.
func (f *File) Position(off int) Position {
	l, start := f.lineOf(off)
	col := off - start + 1
	p := Position{Filename: f.Name, Line: l, Col: col, Offset: off}
	if m := f.markerAt(off); m != nil {
		p.Filename = m.Name
		p.Line = m.Line + (l - f.Line(m.Off))
	}
	return p
}

// PhysPosition returns the physical position of off in this file.
func (f *File) PhysPosition(off int) Position {
	l, start := f.lineOf(off)
	return Position{Filename: f.Name, Line: l, Col: off - start + 1, Offset: off}
}

func (f *File) markerAt(off int) *marker {
	i := sort.Search(len(f.markers), func(i int) bool { f.steps++; return f.markers[i].Off > off })
	if i == 0 {
		return nil
	}
	return &f.markers[i-1]
}

// InSystemHeader reports whether off lies in text that GCC line markers
// attribute to a system header.
func (f *File) InSystemHeader(off int) bool {
	m := f.markerAt(off)
	return m != nil && m.System
}

// PresumedName returns the file name in effect at off.
func (f *File) PresumedName(off int) string {
	if m := f.markerAt(off); m != nil {
		return m.Name
	}
	return f.Name
}

// HasMarkers reports whether the file contains #line directives or line
// markers.
func (f *File) HasMarkers() bool { return len(f.markers) > 0 }
