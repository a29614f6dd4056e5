// Package symbols resolves the addresses of a run's call paths after the
// run: the mapping that held an address, the address in its ELF file
// (the PIE bias or a shared library's load offset undone through the
// program headers), and the function's name (demangled), file and line,
// from DWARF's line table and the ELF symbol table.
//
// It never fails: without DWARF a function has its symbol's name and no
// line, in a stripped file or one that cannot be read it is an address
// ("0x4011a6 (prog+0x11a6)"), and a file whose build ID is not the one
// the run recorded is not trusted (one warning) and gives addresses.
package symbols

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/ianlancetaylor/demangle"

	"gopari/internal/profile"
)

// A Frame is what an address resolved to. Func is the demangled name, or
// the address form when nothing better is known; File and Line are the
// source position of the address (0 without DWARF); Mangled is the
// symbol's name as the file spells it. Known says Func is a name.
type Frame struct {
	Func    string
	Mangled string
	File    string
	Line    int
	Known   bool
	// Entry is the function's entry address in the run's address space
	// when Known; Module the file mapped at the address ("" if none).
	Entry  uint64
	Module string
}

// A Resolver resolves the addresses of one run. It reads each file once.
type Resolver struct {
	maps     []profile.Mapping
	files    map[string]*elfFile
	warnings []string
	done     map[uint64]Frame
	noLines  bool
	mapped   bool // files read through a mapping (openELF)
}

// New returns a resolver of the addresses of a run with these mappings.
func New(maps []profile.Mapping) *Resolver {
	m := append([]profile.Mapping(nil), maps...)
	sort.Slice(m, func(i, j int) bool { return m[i].Start < m[j].Start })
	return &Resolver{maps: m, files: map[string]*elfFile{}, done: map[uint64]Frame{}}
}

// NewFuncs returns a resolver that resolves addresses to functions only,
// without reading DWARF's line tables (an instrumented program's holds
// the Go runtime's: reading it costs a tenth of a second): the sampler's,
// at the end of a run. Its files are the run's own, mapped by the loader,
// and their symbols are read from a mapping of each (openELF).
func NewFuncs(maps []profile.Mapping) *Resolver {
	r := New(maps)
	r.noLines, r.mapped = true, true
	return r
}

// Of returns a resolver of the addresses of the run whose profile is p
// (its Mappings); p may be nil, a run that left no profile, whose
// addresses then stay addresses.
func Of(p *profile.Profile) *Resolver {
	if p == nil {
		return New(nil)
	}
	return New(p.Mappings)
}

// Warnings are what the resolver could not trust or read, one line per
// file.
func (r *Resolver) Warnings() []string { return r.warnings }

// Resolve resolves a batch of addresses.
func (r *Resolver) Resolve(addrs []uint64) map[uint64]Frame {
	out := make(map[uint64]Frame, len(addrs))
	for _, a := range addrs {
		out[a] = r.Frame(a)
	}
	return out
}

// Frame resolves one address.
func (r *Resolver) Frame(addr uint64) Frame {
	if f, ok := r.done[addr]; ok {
		return f
	}
	f := r.resolve(addr)
	r.done[addr] = f
	return f
}

func (r *Resolver) resolve(addr uint64) Frame {
	m := r.mapping(addr)
	if m == nil {
		return Frame{Func: fmt.Sprintf("0x%x", addr)}
	}
	off := addr - m.Start + m.Offset
	addrForm := Frame{Func: fmt.Sprintf("0x%x (%s+0x%x)", addr, filepath.Base(m.File), off), Module: m.File}
	ef := r.file(m)
	if ef == nil {
		return addrForm
	}
	vaddr, ok := ef.vaddr(off)
	if !ok {
		return addrForm
	}
	f := ef.lookup(vaddr, !r.noLines)
	f.Module = m.File
	if !f.Known {
		f.Func = addrForm.Func
	} else {
		f.Entry = addr - (vaddr - f.Entry)
	}
	return f
}

// Module is the file whose mapping holds addr, "" if none: a frame's
// module, known without reading the file.
func (r *Resolver) Module(addr uint64) string {
	if m := r.mapping(addr); m != nil {
		return m.File
	}
	return ""
}

// mapping is the mapping that holds addr, nil if none.
func (r *Resolver) mapping(addr uint64) *profile.Mapping {
	i := sort.Search(len(r.maps), func(i int) bool { return r.maps[i].Start > addr }) - 1
	if i < 0 || addr >= r.maps[i].Limit {
		return nil
	}
	return &r.maps[i]
}

// file opens m's file once; nil (and one warning) if it cannot be read
// or is not the file that ran.
func (r *Resolver) file(m *profile.Mapping) *elfFile {
	if ef, ok := r.files[m.File]; ok {
		return ef
	}
	ef, err := openELF(m.File, r.mapped)
	switch {
	case err != nil:
		r.warnings = append(r.warnings, fmt.Sprintf("%s: %v; its functions are shown as addresses", m.File, err))
		ef = nil
	case m.BuildID != "" && ef.buildID != m.BuildID:
		r.warnings = append(r.warnings, fmt.Sprintf("%s: build ID %s is not the run's %s (rebuilt since?); its functions are shown as addresses", m.File, orNone(ef.buildID), m.BuildID))
		ef = nil
	}
	r.files[m.File] = ef
	return ef
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// IsOutlined reports whether name is a function the compiler outlined
// for an OpenMP construct (gcc's main._omp_fn.0, clang's .omp_outlined.,
// .omp_outlined._debug__, .omp_task_entry., __omp_offloading_…, and
// flang's and LLVM's OpenMPIRBuilder's _QQmain..omp_par.1): views
// splice such functions out, as the construct's frame already says where
// the code is.
func IsOutlined(name string) bool {
	for _, s := range []string{"._omp_fn.", "._omp_cpyfn.", ".omp_outlined.", "omp_outlined", ".omp_task_entry.", ".omp_task_privates_map.", "..omp_par"} {
		if strings.Contains(name, s) {
			return true
		}
	}
	return strings.HasPrefix(name, "__omp_offloading_")
}

// Demangle demangles a C++ name, and the name of a Fortran module
// procedure as gfortran (__work_mod_MOD_spin) and flang (_QMwork_modPspin)
// spell it: work_mod::spin, with what follows a dot kept (an OpenMP
// outlined function's suffix); flang's external procedures (_QPspin)
// lose their prefix, and its internal procedures are named with their
// hosts (_QMmFouterPinner: m::outer::inner). Others come back unchanged.
func Demangle(name string) string {
	if mod, proc, rest, ok := fortranName(name); ok && mod != "" {
		return mod + "::" + proc + rest
	} else if ok {
		return proc + rest
	}
	return demangle.Filter(name, demangle.NoClones)
}

// FortranProcedure returns the procedure's own name of a Fortran
// module procedure's symbol (spin of __work_mod_MOD_spin, as gfortran
// names it to -finstrument-functions-exclude-function-list), of a
// gfortran internal procedure's (inner of inner.0, see funcName), or of
// a flang procedure's, or reports false for any other symbol.
func FortranProcedure(symbol string) (string, bool) {
	if _, proc, rest, ok := fortranName(symbol); ok {
		return proc + rest, true
	}
	if isInternalProc(symbol) {
		base, _, _ := strings.Cut(symbol, ".")
		return base, true
	}
	return "", false
}

// fortranName splits the symbol of a Fortran module procedure or flang
// external procedure into its module ("" for the latter), procedure and
// what follows a dot, or reports false.
func fortranName(name string) (mod, proc, rest string, ok bool) {
	base := name
	if i := strings.IndexByte(name, '.'); i >= 0 {
		base, rest = name[:i], name[i:]
	}
	if q, found := strings.CutPrefix(base, "_Q"); found {
		mod, proc, ok = flangName(q)
		return mod, proc, rest, ok
	}
	if m, found := strings.CutPrefix(base, "__"); found {
		mod, proc, ok = strings.Cut(m, "_MOD_")
	}
	if !ok || !fortranIdent(proc) || !fortranIdent(mod) {
		return "", "", "", false
	}
	return mod, proc, rest, true
}

// flangName splits the name of a procedure as flang uniques it, less
// its _Q, into its scopes joined by "::" and its own name: tags in upper
// case, each followed by a name in lower case, outermost first
// (M module, S submodule, F host procedure; an F with no name is the
// main program's), then P and the procedure's name, as in
// mFouterPinner (m::outer, inner). It reports false for anything else
// (common blocks, variables, types, the main program _QQmain).
func flangName(q string) (scopes, proc string, ok bool) {
	var names []string
	for q != "" {
		tag := q[0]
		end := 1
		for end < len(q) && (q[end] < 'A' || q[end] > 'Z') {
			end++
		}
		name := q[1:end]
		q = q[end:]
		switch {
		case name != "" && (!fortranIdent(name) || lower(name) != name):
			return "", "", false
		case tag == 'P' && q == "" && name != "":
			return strings.Join(names, "::"), name, true
		case tag == 'M' || tag == 'S' || tag == 'F':
			if name != "" {
				names = append(names, name)
			} else if tag != 'F' {
				return "", "", false
			}
		default:
			return "", "", false
		}
	}
	return "", "", false
}

// fortranIdent reports whether s is a Fortran name as compilers emit it:
// a letter, then letters, digits and underscores.
func fortranIdent(s string) bool {
	for i, c := range s {
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !letter && (i == 0 || c != '_' && (c < '0' || c > '9')) {
			return false
		}
	}
	return s != ""
}

func lower(s string) string { return strings.ToLower(s) }
