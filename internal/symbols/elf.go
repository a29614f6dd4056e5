package symbols

import (
	"bytes"
	"debug/dwarf"
	"debug/elf"
	"encoding/binary"
	"os"
	"sort"
	"syscall"
)

// An elfFile is what one file tells about its addresses: its loadable
// segments, its functions by address, and DWARF's line table, read on
// first use.
type elfFile struct {
	f       *elf.File
	buildID string
	loads   []*elf.Prog
	funcs   []funcSym // by Value, then by order in the table
	strtab  []byte    // the names of funcs
	rows    []lineRow // by address; nil until read
	read    bool
	// nested names gfortran's internal procedures by their entry
	// address (internalNames), read at the first lookup of one.
	nested     map[uint64]string
	nestedRead bool
}

// A funcSym is a function's symbol: its address and size, its name's
// offset in the file's string table, and its place in the symbol table,
// which keeps equal addresses in the table's order. No pointer: sorting
// moves no string, and no name is made until a lookup needs it.
type funcSym struct {
	Value, Size uint64
	name        uint32
	order       int32
}

// A lineRow is a row of the line table; an end row closes a sequence.
type lineRow struct {
	addr uint64
	file string
	line int
	end  bool
}

// openELF reads path's loadable segments and function symbols; mapped,
// from a read-only mapping of the file, whose symbol and string tables
// are used where they lie: no copy, no fresh pages to fill. Only a
// running program's own objects are read so (the file can then not
// change under the mapping without the program failing first).
func openELF(path string, mapped bool) (*elfFile, error) {
	var f *elf.File
	var data []byte
	var err error
	if mapped {
		f, data = mapELF(path)
	}
	if f == nil {
		if f, err = elf.Open(path); err != nil {
			return nil, err
		}
	}
	ef := &elfFile{f: f, buildID: buildID(f)}
	for _, p := range f.Progs {
		if p.Type == elf.PT_LOAD {
			ef.loads = append(ef.loads, p)
		}
	}
	ef.funcs, ef.strtab = funcSymbols(f, data)
	ef.funcs = sortByValue(ef.funcs)
	return ef, nil
}

// mapELF maps path read-only and parses its headers from the mapping;
// nil if it cannot (then the file is read instead). The mapping stays
// for the life of the process, as the resolver's files do.
func mapELF(path string) (*elf.File, []byte) {
	fd, err := os.Open(path)
	if err != nil {
		return nil, nil
	}
	defer fd.Close()
	st, err := fd.Stat()
	if err != nil || st.Size() <= 0 || st.Size() != int64(int(st.Size())) {
		return nil, nil
	}
	data, err := syscall.Mmap(int(fd.Fd()), 0, int(st.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil
	}
	f, err := elf.NewFile(bytes.NewReader(data))
	if err != nil {
		syscall.Munmap(data)
		return nil, nil
	}
	return f, data
}

// sectionData is sec's contents: in place in data (the whole file,
// mapped) when they lie there uncompressed, else read.
func sectionData(sec *elf.Section, data []byte) ([]byte, error) {
	if data != nil && sec.Type != elf.SHT_NOBITS && sec.Flags&elf.SHF_COMPRESSED == 0 &&
		sec.Offset <= uint64(len(data)) && sec.Size <= uint64(len(data))-sec.Offset {
		return data[sec.Offset : sec.Offset+sec.Size : sec.Offset+sec.Size], nil
	}
	return sec.Data()
}

// sortByValue sorts symbols by address, equal addresses in table order:
// a radix sort, a byte of the address per pass, passes whose byte all
// symbols share skipped (an executable's text spans few of its 8
// bytes), the counts of all eight bytes made in one pass over the
// symbols. A comparison sort of an executable's 4,200 functions took 6M
// instructions of every sampled run's exit; this takes about a tenth.
func sortByValue(fs []funcSym) []funcSym {
	if len(fs) < 2 {
		return fs
	}
	var count [8][257]int32
	for i := range fs {
		v := fs[i].Value
		count[0][int(byte(v))+1]++ // at most 256: no bounds check
		count[1][int(byte(v>>8))+1]++
		count[2][int(byte(v>>16))+1]++
		count[3][int(byte(v>>24))+1]++
		count[4][int(byte(v>>32))+1]++
		count[5][int(byte(v>>40))+1]++
		count[6][int(byte(v>>48))+1]++
		count[7][int(byte(v>>56))+1]++
	}
	var tmp []funcSym
	for b := range count {
		shift := uint(8 * b)
		c := &count[b]
		if int(c[int(byte(fs[0].Value>>shift))+1]) == len(fs) {
			continue // every symbol has this byte
		}
		if tmp == nil {
			tmp = make([]funcSym, len(fs))
		}
		for d := 1; d < 257; d++ {
			c[d] += c[d-1]
		}
		for i := range fs {
			d := byte(fs[i].Value >> shift)
			tmp[c[d]] = fs[i]
			c[d]++
		}
		fs, tmp = tmp, fs
	}
	return fs
}

// funcSymbols returns the function symbols of f's symbol table (its
// dynamic one if it has none) and their string table; data is the
// whole file mapped, or nil. A 64-bit little-endian table is read in
// place: debug/elf's Symbols makes a string of every symbol's name, a
// millisecond and more for an executable with Go's runtime in it, at a
// sampled run's exit.
func funcSymbols(f *elf.File, data []byte) ([]funcSym, []byte) {
	if f.Class == elf.ELFCLASS64 && f.Data == elf.ELFDATA2LSB {
		for _, typ := range []elf.SectionType{elf.SHT_SYMTAB, elf.SHT_DYNSYM} {
			if fs, str, ok := funcSymbols64(f, typ, data); ok {
				return fs, str
			}
		}
		return nil, nil
	}
	syms, err := f.Symbols()
	if err != nil || len(syms) == 0 {
		syms, _ = f.DynamicSymbols()
	}
	var fs []funcSym
	var str []byte
	for _, s := range syms {
		if elf.ST_TYPE(s.Info) == elf.STT_FUNC && s.Value != 0 && s.Section != elf.SHN_UNDEF {
			fs = append(fs, funcSym{s.Value, s.Size, uint32(len(str)), int32(len(fs))})
			str = append(append(str, s.Name...), 0)
		}
	}
	return fs, str
}

// funcSymbols64 reads the function symbols of f's first section of type
// typ (from file, the whole file mapped, if not nil); ok is false if it
// has none or cannot be read.
func funcSymbols64(f *elf.File, typ elf.SectionType, file []byte) (fs []funcSym, str []byte, ok bool) {
	for _, sec := range f.Sections {
		if sec.Type != typ || int(sec.Link) >= len(f.Sections) {
			continue
		}
		data, err := sectionData(sec, file)
		if err != nil || len(data) < elf.Sym64Size {
			return nil, nil, false
		}
		if str, err = sectionData(f.Sections[sec.Link], file); err != nil {
			return nil, nil, false
		}
		fs = make([]funcSym, 0, len(data)/elf.Sym64Size)
		for off := elf.Sym64Size; off+elf.Sym64Size <= len(data); off += elf.Sym64Size { // entry 0 is null
			e := data[off : off+elf.Sym64Size]
			name := binary.LittleEndian.Uint32(e[0:])
			info, shndx := e[4], elf.SectionIndex(binary.LittleEndian.Uint16(e[6:]))
			value, size := binary.LittleEndian.Uint64(e[8:]), binary.LittleEndian.Uint64(e[16:])
			if elf.ST_TYPE(info) == elf.STT_FUNC && value != 0 && shndx != elf.SHN_UNDEF && int(name) < len(str) {
				fs = append(fs, funcSym{value, size, name, int32(len(fs))})
			}
		}
		return fs, str, len(fs) > 0
	}
	return nil, nil, false
}

// nameAt is the NUL-terminated string at off of a string table.
func nameAt(str []byte, off uint32) string {
	b := str[off:]
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	return string(b)
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
			name := nameAt(ef.strtab, s.name)
			if isInternalProc(name) && !ef.nestedRead {
				ef.nestedRead, ef.nested = true, nestedNames(ef.f)
			}
			fr = Frame{Func: funcName(name, s.Value, ef.nested), Mangled: name, Known: true, Entry: s.Value} // a file address: resolve makes it the run's
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
