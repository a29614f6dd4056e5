package symbols

// What a running program reads of itself: its mappings with their build
// IDs (written into the profile at exit) and its function symbols (for
// the run-time filter of call paths). The readers of a finished run use
// the rest of the package.

import (
	"bufio"
	"bytes"
	"debug/dwarf"
	"debug/elf"
	"encoding/binary"
	"encoding/hex"
	"os"
	"strconv"
	"strings"

	"gopari/internal/profile"
)

// ReadMappings returns the file mappings of a /proc/PID/maps file that
// hold code, each with its file's build ID: the one known gives (a
// running program reads its own objects' from memory), or "" and false
// for one read from the file. known may be nil.
func ReadMappings(path string, known func(m profile.Mapping) (string, bool)) []profile.Mapping {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	ids := map[string]string{}
	var out []profile.Mapping
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		m, ok := parseMapsLine(sc.Text())
		if !ok {
			continue
		}
		id, seen := ids[m.File]
		if !seen {
			if known != nil {
				id, seen = known(m)
			}
			if !seen {
				id = FileBuildID(m.File)
			}
			ids[m.File] = id
		}
		m.BuildID = id
		out = append(out, m)
	}
	return out
}

// parseMapsLine reads one line of /proc/PID/maps: an executable mapping
// of a file, or ok false.
func parseMapsLine(line string) (m profile.Mapping, ok bool) {
	fields := strings.Fields(line)
	if len(fields) < 6 || !strings.HasPrefix(fields[5], "/") || !strings.Contains(fields[1], "x") {
		return m, false
	}
	lo, hi, found := strings.Cut(fields[0], "-")
	if !found {
		return m, false
	}
	start, err1 := strconv.ParseUint(lo, 16, 64)
	limit, err2 := strconv.ParseUint(hi, 16, 64)
	off, err3 := strconv.ParseUint(fields[2], 16, 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return m, false
	}
	file := strings.Join(fields[5:], " ")
	if strings.HasPrefix(file, "/dev/") || strings.HasSuffix(file, " (deleted)") {
		return m, false
	}
	return profile.Mapping{Start: start, Limit: limit, Offset: off, File: file}, true
}

// FileBuildID returns the GNU build ID of ELF file name, in hex, or "".
func FileBuildID(name string) string {
	f, err := elf.Open(name)
	if err != nil {
		return ""
	}
	defer f.Close()
	return buildID(f)
}

// buildID is the GNU build ID of f in hex, from whichever note section
// holds it; "" without one.
func buildID(f *elf.File) string {
	for _, s := range f.Sections {
		if s.Type != elf.SHT_NOTE {
			continue
		}
		data, err := s.Data()
		if err != nil {
			continue
		}
		if id := noteBuildID(data, f.ByteOrder); id != "" {
			return id
		}
	}
	return ""
}

// noteBuildID finds the NT_GNU_BUILD_ID note in a note section's data.
func noteBuildID(data []byte, bo binary.ByteOrder) string {
	for len(data) >= 12 {
		namesz, descsz, typ := bo.Uint32(data), bo.Uint32(data[4:]), bo.Uint32(data[8:])
		nameEnd := 12 + (uint64(namesz)+3)&^3
		descEnd := nameEnd + (uint64(descsz)+3)&^3
		if descEnd > uint64(len(data)) {
			return ""
		}
		if typ == 3 && namesz == 4 && string(data[12:15]) == "GNU" {
			return hex.EncodeToString(data[nameEnd : nameEnd+uint64(descsz)])
		}
		data = data[descEnd:]
	}
	return ""
}

// A Func is a function of an executable: its entry address in the file,
// its name as the user reads it (demangled) and its mangled name, and its
// source file where DWARF says.
type Func struct {
	Addr                uint64
	Name, Mangled, File string
}

// Functions reads the function symbols of ELF file exe (FileFunctions),
// and the load bias of the executable mapped as the /proc/PID/maps file
// maps shows: what a running program (the runtime's filter) reads of
// itself.
func Functions(exe, maps string, withFiles bool) ([]Func, uint64, error) {
	f, err := elf.Open(exe)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	fns, err := FileFunctions(f, withFiles)
	if err != nil {
		return nil, 0, err
	}
	return fns, loadBias(f, exe, maps), nil
}

// FileFunctions reads the functions of f that a compiler may have
// instrumented, from its symbol table (its dynamic one if it has none):
// all but Go's, named as every view names them (funcName). Source files
// come from DWARF only withFiles: reading them takes tens of
// milliseconds.
func FileFunctions(f *elf.File, withFiles bool) ([]Func, error) {
	syms, err := f.Symbols()
	if err != nil || len(syms) == 0 {
		if syms, err = f.DynamicSymbols(); err != nil {
			return nil, err
		}
	}
	var files map[uint64]string
	if withFiles {
		files = dwarfFiles(f)
	}
	// Go's functions (the runtime's own Go, linked into the program) lie
	// between runtime.text and runtime.etext; no compiler instruments
	// them, and they are most of the symbols.
	var goText, goEnd uint64
	for _, s := range syms {
		switch s.Name {
		case "runtime.text":
			goText = s.Value
		case "runtime.etext":
			goEnd = s.Value
		}
	}
	nested := internalNames(f, syms)
	var out []Func
	for _, s := range syms {
		if elf.ST_TYPE(s.Info) != elf.STT_FUNC || s.Value == 0 || (s.Value >= goText && s.Value < goEnd) {
			continue
		}
		out = append(out, Func{Addr: s.Value, Name: funcName(s.Name, s.Value, nested), Mangled: s.Name, File: files[s.Value]})
	}
	return out, nil
}

// dwarfFiles maps the entry addresses of the functions that DWARF
// describes to their source files; empty without DWARF.
func dwarfFiles(f *elf.File) map[uint64]string {
	out := map[uint64]string{}
	d, err := f.DWARF()
	if err != nil {
		return out
	}
	r := d.Reader()
	var lines []*dwarf.LineFile
	for {
		e, err := r.Next()
		if err != nil || e == nil {
			return out
		}
		switch e.Tag {
		case dwarf.TagCompileUnit:
			lines = nil
			if lr, err := d.LineReader(e); err == nil && lr != nil {
				lines = lr.Files()
			}
		case dwarf.TagSubprogram:
			lo, ok := e.Val(dwarf.AttrLowpc).(uint64)
			fi, ok2 := e.Val(dwarf.AttrDeclFile).(int64)
			if ok && ok2 && fi >= 0 && int(fi) < len(lines) && lines[fi] != nil {
				out[lo] = lines[fi].Name
			}
		}
	}
}

// loadBias returns where the executable f was loaded relative to its
// link addresses: 0 unless it is position-independent.
func loadBias(f *elf.File, exe, maps string) uint64 {
	if f.Type != elf.ET_DYN {
		return 0
	}
	target, err := os.Readlink(exe)
	if err != nil {
		target = exe
	}
	var low uint64 = ^uint64(0)
	for _, p := range f.Progs {
		if p.Type == elf.PT_LOAD && p.Off == 0 && p.Vaddr < low {
			low = p.Vaddr
		}
	}
	if low == ^uint64(0) {
		low = 0
	}
	mf, err := os.Open(maps)
	if err != nil {
		return 0
	}
	defer mf.Close()
	sc := bufio.NewScanner(mf)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 6 || strings.Join(fields[5:], " ") != target || fields[2] != "00000000" {
			continue
		}
		lo, _, _ := strings.Cut(fields[0], "-")
		start, err := strconv.ParseUint(lo, 16, 64)
		if err == nil {
			return start - low&^0xfff
		}
	}
	return 0
}

// HookedLibraries returns the files mapped as the /proc/PID/maps file
// maps shows, but for exe's, that call the compiler's function hooks
// defined elsewhere (__cyg_profile_func_enter undefined in their dynamic
// symbols) or hold gopari's runtime (a shared library linked by gopari
// cc holds it, and the program may take the hooks from there): the
// shared libraries built with gopari cc --functions, whose functions the
// run's filter decides on too. The C library, which defines no-op hooks
// of its own, is not one of them.
func HookedLibraries(exe, maps string) []string {
	self, err := os.Readlink(exe)
	if err != nil {
		self = exe
	}
	mf, err := os.Open(maps)
	if err != nil {
		return nil
	}
	defer mf.Close()
	var out []string
	seen := map[string]bool{self: true}
	sc := bufio.NewScanner(mf)
	for sc.Scan() {
		m, ok := parseMapsLine(sc.Text())
		if !ok || seen[m.File] {
			continue
		}
		seen[m.File] = true
		f, err := elf.Open(m.File)
		if err != nil {
			continue
		}
		if hooked(f) {
			out = append(out, m.File)
		}
		f.Close()
	}
	return out
}

// hooked reports whether ELF file f imports __cyg_profile_func_enter or
// defines pomp_cp_embedded_filter (HookedLibraries). Most libraries do
// not name the hook at all, which their string table tells; the rest
// have their dynamic symbols read in place, without making a string of
// each: the C library has thousands.
func hooked(f *elf.File) bool {
	str, sym := f.Section(".dynstr"), f.Section(".dynsym")
	if str == nil || sym == nil {
		return false
	}
	names, err := str.Data()
	if err != nil || !bytes.Contains(names, []byte("__cyg_profile_func_enter")) {
		return false
	}
	data, err := sym.Data()
	if err != nil || f.Class != elf.ELFCLASS64 {
		return false
	}
	const entry = 24 // Elf64_Sym: name, info, other, section index, value, size
	for i := entry; i+entry <= len(data); i += entry {
		off := int(f.ByteOrder.Uint32(data[i:]))
		shndx := elf.SectionIndex(f.ByteOrder.Uint16(data[i+6:]))
		if off >= len(names) {
			continue
		}
		name := names[off:]
		if end := bytes.IndexByte(name, 0); end >= 0 {
			name = name[:end]
		}
		switch string(name) {
		case "__cyg_profile_func_enter":
			if shndx == elf.SHN_UNDEF {
				return true
			}
		case "pomp_cp_embedded_filter":
			if shndx != elf.SHN_UNDEF {
				return true
			}
		}
	}
	return false
}
