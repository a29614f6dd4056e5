package symbols

import (
	"cmp"
	"debug/dwarf"
	"debug/elf"
	"slices"
	"sort"
)

// An elfFile is what one file tells about its addresses: its loadable
// segments, its functions by address, and DWARF's line table, read on
// first use.
type elfFile struct {
	f       *elf.File
	buildID string
	loads   []*elf.Prog
	funcs   []funcSym // by Value, then by order in the table
	names   []string  // by funcSym.order
	rows    []lineRow // by address; nil until read
	read    bool
}

// A funcSym is a function's symbol: its address and size, and its
// place among the file's functions (names), which also keeps equal
// addresses in the table's order. No pointer: sorting moves no string.
type funcSym struct {
	Value, Size uint64
	order       int
}

// A lineRow is a row of the line table; an end row closes a sequence.
type lineRow struct {
	addr uint64
	file string
	line int
	end  bool
}

func openELF(path string) (*elfFile, error) {
	f, err := elf.Open(path)
	if err != nil {
		return nil, err
	}
	ef := &elfFile{f: f, buildID: buildID(f)}
	for _, p := range f.Progs {
		if p.Type == elf.PT_LOAD {
			ef.loads = append(ef.loads, p)
		}
	}
	syms, err := f.Symbols()
	if err != nil || len(syms) == 0 {
		syms, _ = f.DynamicSymbols()
	}
	ef.funcs = make([]funcSym, 0, len(syms))
	ef.names = make([]string, 0, len(syms))
	for _, s := range syms {
		if elf.ST_TYPE(s.Info) == elf.STT_FUNC && s.Value != 0 && s.Section != elf.SHN_UNDEF {
			ef.funcs = append(ef.funcs, funcSym{s.Value, s.Size, len(ef.funcs)})
			ef.names = append(ef.names, s.Name)
		}
	}
	// A stable merge sort of a large table took milliseconds of every
	// sampled run's exit; the order makes an unstable sort stable.
	slices.SortFunc(ef.funcs, func(a, b funcSym) int {
		if c := cmp.Compare(a.Value, b.Value); c != 0 {
			return c
		}
		return cmp.Compare(a.order, b.order)
	})
	return ef, nil
}

// vaddr turns an offset in the file into the virtual address the file's
// symbols and DWARF use, through the loadable segment that holds it.
func (ef *elfFile) vaddr(off uint64) (uint64, bool) {
	for _, p := range ef.loads {
		if off >= p.Off && off < p.Off+p.Filesz {
			return off - p.Off + p.Vaddr, true
		}
	}
	return 0, false
}

// lookup resolves a virtual address of the file, its line too if lines.
func (ef *elfFile) lookup(v uint64, lines bool) Frame {
	var fr Frame
	i := sort.Search(len(ef.funcs), func(i int) bool { return ef.funcs[i].Value > v }) - 1
	if i >= 0 {
		s := ef.funcs[i]
		if v < s.Value+s.Size || (s.Size == 0 && v == s.Value) {
			name := ef.names[s.order]
			fr = Frame{Func: Demangle(name), Mangled: name, Known: true, Entry: s.Value} // a file address: resolve makes it the run's
		}
	}
	if !fr.Known || !lines {
		return fr
	}
	if r, ok := ef.line(v); ok {
		fr.File, fr.Line = r.file, r.line
	}
	return fr
}

// line is the line table's row for v: the first row at the greatest
// address not above v, if v is inside a sequence.
func (ef *elfFile) line(v uint64) (lineRow, bool) {
	if !ef.read {
		ef.read = true
		ef.rows = readLines(ef.f)
	}
	rows := ef.rows
	i := sort.Search(len(rows), func(i int) bool { return rows[i].addr > v }) - 1
	if i < 0 || rows[i].end {
		return lineRow{}, false
	}
	for i > 0 && rows[i-1].addr == rows[i].addr && !rows[i-1].end {
		i--
	}
	return rows[i], true
}

// readLines reads every compilation unit's line table; nil without
// DWARF.
func readLines(f *elf.File) []lineRow {
	d, err := f.DWARF()
	if err != nil {
		return nil
	}
	var rows []lineRow
	r := d.Reader()
	for {
		e, err := r.Next()
		if err != nil || e == nil {
			break
		}
		if e.Tag != dwarf.TagCompileUnit {
			r.SkipChildren()
			continue
		}
		lr, err := d.LineReader(e)
		if err == nil && lr != nil {
			rows = appendRows(rows, lr)
		}
		r.SkipChildren()
	}
	sort.SliceStable(rows, func(i, j int) bool {
		if rows[i].addr != rows[j].addr {
			return rows[i].addr < rows[j].addr
		}
		return rows[i].end && !rows[j].end
	})
	return rows
}

func appendRows(rows []lineRow, lr *dwarf.LineReader) []lineRow {
	var le dwarf.LineEntry
	for {
		if err := lr.Next(&le); err != nil {
			return rows
		}
		row := lineRow{addr: le.Address, line: le.Line, end: le.EndSequence}
		if le.File != nil {
			row.file = le.File.Name
		}
		rows = append(rows, row)
	}
}
