package callpath

// Rules GCC applies too. gopari cc --functions --filter hands GCC the
// *literal* EXCLUDE rules whose literal both names spell alike
// (filter.SharedNameLiteral), and GCC leaves out, at compile time, every
// function whose printable name holds it: no hook call, no lookup, and
// no instrumented inlined copy. GCC's printable name is the scoped name
// without parameters or return type ("geo::Mesh::get" for
// "geo::Mesh::get(int) const"), so an exact name cannot reach GCC, but
// *geo::Mesh::get* can: it leaves out, at both times, every function whose
// name holds that literal (gccRule). It means exactly what the exact name
// means for this program when no function of it that is measured holds
// the literal: not in its demangled name, which the run tests, nor in its
// printable name, which GCC tests. The program's functions are those of
// every instrumented file the run mapped (the executable, and shared
// libraries built with --functions), read from their symbol tables; the
// others call no hook, which is all the run's filter decides on. A file
// that is gone or was rebuilt leaves every rule exact.

import (
	"debug/dwarf"
	"debug/elf"
	"fmt"
	"os"
	"strings"

	"gopari/internal/filter"
	"gopari/internal/profile"
	"gopari/internal/symbols"
)

// programNames returns the demangled names of the functions of every
// instrumented ELF file the runs ps mapped, with GCC's printable names
// where their demangled names do not tell them (fortranPrintables), or
// why they cannot all be read.
func programNames(ps []*profile.Profile) (names []string, printable map[string]string, why string) {
	printable = map[string]string{}
	seen := map[string]bool{}
	for _, p := range ps {
		for _, m := range p.Mappings {
			if seen[m.File] || !strings.HasPrefix(m.File, "/") {
				continue
			}
			seen[m.File] = true
			if _, err := os.Stat(m.File); err != nil {
				return nil, nil, fmt.Sprintf("%s cannot be read", m.File)
			}
			if m.BuildID != "" && symbols.FileBuildID(m.File) != m.BuildID {
				return nil, nil, fmt.Sprintf("%s was rebuilt since the run", m.File)
			}
			names = append(names, instrumentedFunctions(m.File, printable)...)
		}
	}
	if len(seen) == 0 {
		return nil, nil, "the run recorded no mapped files"
	}
	return names, printable, ""
}

// fortranPrintables adds to printable GCC's printable names of the
// Fortran procedures among fns, the functions of f: a module procedure's
// or an internal procedure's own name (spin for work_mod::spin, inner
// for m::outer::inner), and the main program's name in its source for
// gfortran's MAIN__, from the debug information, or "" where there is
// none.
func fortranPrintables(f *elf.File, fns []symbols.Func, printable map[string]string) {
	for _, fn := range fns {
		if proc, ok := symbols.FortranProcedure(fn.Mangled); ok {
			printable[fn.Name] = proc
		} else if fn.Mangled == "MAIN__" {
			printable["MAIN__"] = mainProgramName(f, fn.Addr)
		}
	}
}

// mainProgramName returns the name of the subprogram at addr that the
// debug information of f gives, or "".
func mainProgramName(f *elf.File, addr uint64) string {
	d, err := f.DWARF()
	if err != nil {
		return ""
	}
	r := d.Reader()
	for {
		e, err := r.Next()
		if err != nil || e == nil {
			return ""
		}
		if e.Tag != dwarf.TagSubprogram {
			continue
		}
		if pc, ok := e.Val(dwarf.AttrLowpc).(uint64); ok && pc == addr {
			name, _ := e.Val(dwarf.AttrName).(string)
			return name
		}
		r.SkipChildren() // its variables, blocks and contained procedures
	}
}

// instrumentedFunctions returns the names of the functions of ELF file
// name that a compiler may have instrumented (symbols.FileFunctions: not
// Go's), as every view names them, if it may call the hooks: it calls
// them defined elsewhere (a shared library built with --functions), or it holds
// gopari's runtime (the program). The functions of another file (the C
// library, which defines no-op hooks of its own, a file that is not ELF)
// never reach the run's filter, and GCC does not compile them.
func instrumentedFunctions(name string, printable map[string]string) []string {
	f, err := elf.Open(name)
	if err != nil {
		return nil
	}
	defer f.Close()
	syms, _ := f.Symbols()
	dyn, _ := f.DynamicSymbols()
	hooked := false
	for _, s := range append(syms, dyn...) {
		undef := s.Section == elf.SHN_UNDEF
		hooked = hooked || s.Name == "__cyg_profile_func_enter" && undef || s.Name == "pomp_cp_embedded_filter" && !undef
	}
	if !hooked {
		return nil
	}
	fns, _ := symbols.FileFunctions(f, false)
	out := make([]string, len(fns))
	for i, fn := range fns {
		out[i] = fn.Name
	}
	fortranPrintables(f, fns, printable)
	return out
}

// gccLiteral returns GCC's printable name of the function with demangled
// name name, when it is a scoped name that a literal GCC applies can hold
// (filter.SharedNameLiteral): what comes before the parameters, with no
// return type, template arguments, operator or anonymous namespace.
func gccLiteral(name string) (string, bool) {
	lit, _, _ := strings.Cut(name, "(")
	if !filter.SharedNameLiteral(lit) || strings.Contains(lit, "operator") || strings.HasPrefix(lit, ":") || strings.HasSuffix(lit, ":") {
		return "", false
	}
	return lit, true
}

// printableName is GCC's printable name of the function with demangled
// name name, as far as the demangled name tells it: without a clone
// suffix, a return type or parameters, the anonymous namespace spelt as
// GCC does. What it cannot tell, GCC's own spelling of template
// arguments, a literal that filter.SharedNameLiteral accepts never
// falls in.
func printableName(name string) string {
	name, _, _ = strings.Cut(name, " [clone ")
	name = strings.ReplaceAll(name, "(anonymous namespace)", "{anonymous}")
	depth, start := 0, 0
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case strings.HasPrefix(name[i:], "operator"):
			i += len("operator") // and its symbol, which is no bracket
			if strings.HasPrefix(name[i:], "()") {
				i += 2
			}
			for i < len(name) && strings.IndexByte("<>=!+-*/%^&|~[],", name[i]) >= 0 {
				i++
			}
			if i < len(name) && name[i] == ' ' { // operator new, operator<< <T>
				for i++; i < len(name) && (name[i] == '_' || name[i] >= 'a' && name[i] <= 'z'); i++ {
				}
			}
			i--
		case c == '<' || c == '[' || c == '{':
			depth++
		case c == '>' || c == ']' || c == '}':
			depth--
		case c == ' ' && depth == 0:
			start = i + 1 // what came before is the return type
		case c == '(' && depth == 0:
			return name[start:i]
		}
	}
	return name[start:]
}

// gccRules chooses, for each function of excl, the *literal* rule that
// GCC applies too: lits[i] is function i's literal, or "" to keep its
// exact name (at run time only), and also[i] the other functions of the
// program the literal leaves out with it. A literal may leave out a
// function that was measured only where losing it costs nothing worth
// its node: it never ran (in the runs of fns), or it ran for at most
// expendableShare of the runs' time (totalNs), without an OpenMP
// construct below it, and is not main. An exact name that GCC cannot
// apply leaves the function's hook calls in the program, and in every
// copy inlined into a caller, where they keep loops from vectorising:
// on LULESH (g++ -O3) the accessors Domain::q, p, e, v and ss, exact names
// because rarely called members (Domain::qlc_monoq, ...) share their
// literals, kept the filtered build 60% over uninstrumented in
// instructions.
//
// printable holds GCC's printable names that the demangled ones do not
// tell (programNames): a Fortran procedure's literal is its own name, and
// a gfortran main program whose name in the source is not known ("")
// leaves every name exact, as any literal might be part of it.
func gccRules(excl []Function, program []string, printable map[string]string, fns []Function, totalNs uint64) (lits []string, also [][]string) {
	out := map[string]bool{}
	for _, f := range excl {
		out[f.Name] = true
	}
	ran := map[string]*Function{}
	for i := range fns {
		ran[fns[i].Name] = &fns[i]
	}
	type keptFn struct {
		name, printable string
		expendable      bool
	}
	var kept []keptFn // the measured functions: their names and GCC's
	seen := map[string]bool{}
	for _, g := range program {
		base, _, _ := strings.Cut(g, " [clone ")
		if out[base] || seen[g] {
			continue
		}
		seen[g] = true
		f := ran[base]
		exp := base != "main" && base != "MAIN__" && (f == nil || !f.Constructs && float64(f.ExclNs) <= expendableShare*float64(totalNs))
		pn, known := printable[base]
		if !known {
			pn = printableName(g)
		}
		kept = append(kept, keptFn{g, pn, exp})
	}
	lits = make([]string, len(excl))
	also = make([][]string, len(excl))
	if p, ok := printable["MAIN__"]; ok && p == "" {
		return lits, also
	}
	for i, f := range excl {
		lit, ok := gccLiteral(f.Name)
		if p, fortran := printable[f.Name]; fortran {
			lit, ok = p, filter.SharedNameLiteral(p)
		}
		var with, never []string // measured first: the rest never called a hook
		for _, g := range kept {
			if !ok {
				break
			}
			if strings.Contains(g.name, lit) || strings.Contains(g.printable, lit) {
				ok = g.expendable
				if base, _, _ := strings.Cut(g.name, " [clone "); ran[base] != nil {
					with = append(with, g.name)
				} else {
					never = append(never, g.name)
				}
			}
		}
		if ok {
			lits[i], also[i] = lit, append(with, never...)
		}
	}
	return lits, also
}

// expendableShare: a measured function that ran for at most this share
// of the run's time may be left out with a function a literal leaves out
// (gccRules).
const expendableShare = 0.001
