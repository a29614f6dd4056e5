package symbols

import (
	"debug/dwarf"
	"debug/elf"
	"strings"
)

// Internal procedures (those contained in another procedure) have no
// name of their own in gfortran's symbol tables: a local symbol, the
// procedure's name, a dot and a number (inner.0). Their hosts are in the
// debug information, and every view names them as flang's symbols do
// (Demangle): m::outer::inner. The run's filter matches the same names
// (FileFunctions), and GCC's printable name of one is its own (inner).

// funcName is the name of the function whose symbol is symbol, at
// address addr of its file: nested's name for an internal procedure of
// gfortran that nested names, otherwise the demangled symbol.
func funcName(symbol string, addr uint64, nested map[uint64]string) string {
	if n, ok := nested[addr]; ok && isInternalProc(symbol) {
		return n
	}
	return Demangle(symbol)
}

// internalNames reads, from f's debug information, the names of the
// internal procedures of its Fortran units (see funcName) by entry
// address; nil when syms, f's symbols, hold no symbol of gfortran's
// internal procedures, and then no debug information is read.
func internalNames(f *elf.File, syms []elf.Symbol) map[uint64]string {
	for _, s := range syms {
		if elf.ST_TYPE(s.Info) == elf.STT_FUNC && isInternalProc(s.Name) {
			return nestedNames(f)
		}
	}
	return nil
}

// isInternalProc reports whether name is gfortran's symbol of an
// internal procedure: a Fortran name, a dot and a number.
func isInternalProc(name string) bool {
	base, n, ok := strings.Cut(name, ".")
	if !ok || n == "" || !fortranIdent(base) {
		return false
	}
	for _, c := range n {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// fortranLangs are DWARF's language codes of Fortran: 77, 90, 95, 2003,
// 2008 and 2018.
var fortranLangs = map[int64]bool{0x07: true, 0x08: true, 0x0e: true, 0x22: true, 0x23: true, 0x2d: true}

// nestedNames reads every Fortran unit of f's debug information for the
// procedures nested in procedures; nil without any.
func nestedNames(f *elf.File) map[uint64]string {
	d, err := f.DWARF()
	if err != nil {
		return nil
	}
	names := map[uint64]string{}
	r := d.Reader()
	for {
		e, err := r.Next()
		if err != nil || e == nil {
			break
		}
		lang, _ := e.Val(dwarf.AttrLanguage).(int64)
		if e.Tag == dwarf.TagCompileUnit && fortranLangs[lang] && e.Children {
			fortranNested(r, names)
		} else {
			r.SkipChildren()
		}
	}
	return names
}

// fortranNested reads a Fortran unit's entries, r just past the unit's
// own, and adds to names, by entry address, the procedures nested in
// other procedures: module::host::name, the main program left out.
func fortranNested(r *dwarf.Reader, names map[uint64]string) {
	type scope struct {
		name string // a module's or a procedure's; "" for other entries and the main program
		proc bool
	}
	var stack []scope
	for {
		e, err := r.Next()
		if err != nil || e == nil {
			return
		}
		if e.Tag == 0 { // the end of an entry's children
			if len(stack) == 0 {
				return // the unit's
			}
			stack = stack[:len(stack)-1]
			continue
		}
		name, _ := e.Val(dwarf.AttrName).(string)
		if low, ok := e.Val(dwarf.AttrLowpc).(uint64); ok && e.Tag == dwarf.TagSubprogram && name != "" {
			var path []string
			hosted := false
			for _, s := range stack {
				hosted = hosted || s.proc
				if s.name != "" {
					path = append(path, s.name)
				}
			}
			if hosted {
				names[low] = strings.Join(append(path, name), "::")
			}
		}
		if e.Children {
			s := scope{proc: e.Tag == dwarf.TagSubprogram}
			if e.Tag == dwarf.TagModule || s.proc && e.Val(dwarf.AttrMainSubprogram) == nil {
				s.name = name
			}
			stack = append(stack, s)
		}
	}
}
