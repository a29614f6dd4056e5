package wrapper

import (
	"bytes"
	"debug/elf"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// The objects and archives on a link line: which hold instrumented code
// (they register POMP regions), and which use OpenMP but were compiled
// without gopari, so that their constructs go unmeasured. Makefiles that
// hard-code the compiler build such objects silently; the link says so.

// objectUse is what one object file references.
type objectUse struct {
	openmp string // the first OpenMP runtime entry (GOMP_*, __kmpc_*) it calls, or ""
	pomp   bool   // it registers POMP regions: compiled through gopari
}

// scanObject reads the symbol table of an ELF object. Anything else (LLVM
// bitcode of LTO builds, other formats) says nothing.
func scanObject(r io.ReaderAt) objectUse {
	var u objectUse
	f, err := elf.NewFile(r)
	if err != nil {
		return u
	}
	syms, err := f.Symbols()
	if err != nil {
		return u
	}
	for _, s := range syms {
		switch {
		case s.Name == "POMP_Register_unit":
			u.pomp = true
		case u.openmp == "" && s.Section == elf.SHN_UNDEF && (strings.HasPrefix(s.Name, "GOMP_") || strings.HasPrefix(s.Name, "__kmpc_")):
			u.openmp = s.Name
		}
	}
	return u
}

// scanArchive calls visit for every member of a System V (GNU) or BSD
// ar archive. Thin archives, whose members are files of their own, and
// anything that is not an archive are skipped.
func scanArchive(r io.ReaderAt, size int64, visit func(name string, member io.ReaderAt)) {
	var magic [8]byte
	if _, err := r.ReadAt(magic[:], 0); err != nil || string(magic[:]) != "!<arch>\n" {
		return
	}
	var longNames []byte
	for off := int64(8); off+60 <= size; {
		var h [60]byte
		if _, err := r.ReadAt(h[:], off); err != nil {
			return
		}
		n, err := strconv.ParseInt(strings.TrimSpace(string(h[48:58])), 10, 64)
		if err != nil || n < 0 || off+60+n > size {
			return
		}
		data := io.NewSectionReader(r, off+60, n)
		name := strings.TrimSpace(string(h[:16]))
		off += 60 + n + n%2
		switch {
		case name == "/" || name == "/SYM64/" || name == "__.SYMDEF" || name == "__.SYMDEF SORTED":
			continue // symbol index
		case name == "//":
			longNames = make([]byte, n)
			data.ReadAt(longNames, 0)
			continue
		case strings.HasPrefix(name, "/"):
			if i, err := strconv.Atoi(name[1:]); err == nil && i < len(longNames) {
				name = string(longNames[i:])
				if e := strings.Index(name, "/\n"); e >= 0 {
					name = name[:e]
				}
			}
		case strings.HasPrefix(name, "#1/"):
			// BSD: the name leads the data.
			if k, err := strconv.Atoi(name[3:]); err == nil && int64(k) <= n {
				b := make([]byte, k)
				data.ReadAt(b, 0)
				name = string(bytes.TrimRight(b, "\x00"))
				data = io.NewSectionReader(data, int64(k), n-int64(k))
			}
		default:
			name = strings.TrimSuffix(name, "/")
		}
		visit(name, data)
	}
}

// linkObjects looks at the objects and archives the link command names.
// It reports whether any holds instrumented code, and keeps a warning,
// which the link prints, about each that uses OpenMP but was compiled
// without gopari.
func (p *plan) linkObjects() (instrumented bool) {
	own := ownRuntime()
	for _, in := range p.line.inputs {
		ext := filepath.Ext(in.path)
		if in.lang != "" || ext != ".o" && ext != ".a" && ext != ".lo" && ext != ".obj" || own(in.path) {
			continue
		}
		b, err := os.ReadFile(in.path)
		if err != nil {
			continue // the linker will say so
		}
		// LTO objects keep their symbols in sections of their own, where
		// the registration's name still shows.
		instrumented = instrumented || bytes.Contains(b, []byte("POMP_Register_unit"))
		warn := func(name string, u objectUse) {
			if u.openmp != "" && !u.pomp {
				p.warnings = append(p.warnings, fmt.Sprintf("gopari: warning: %s uses OpenMP (it calls %s) but was not compiled through gopari: its OpenMP constructs are not measured; rebuild it with gopari cc (does a Makefile name the compiler itself?)", name, u.openmp))
			}
		}
		r := bytes.NewReader(b)
		if ext == ".a" {
			scanArchive(r, int64(len(b)), func(member string, m io.ReaderAt) {
				warn(in.path+"("+member+")", scanObject(m))
			})
		} else {
			warn(in.path, scanObject(r))
		}
	}
	return instrumented
}

// ownRuntime returns a test of whether a path names gopari's runtime,
// libpomp.a or libpomp_mpi.a beside it: CMake, when the compiler is
// gopari-gfortran, takes the link's implicit libraries from what gopari
// cc links and names libpomp.a in every link. It calls OpenMP and is no
// user's object to warn about.
func ownRuntime() func(path string) bool {
	var own []os.FileInfo
	if _, lib, err := RuntimePaths(); err == nil {
		for _, f := range []string{lib, filepath.Join(filepath.Dir(lib), "libpomp_mpi.a")} {
			if st, err := os.Stat(f); err == nil {
				own = append(own, st)
			}
		}
	}
	return func(path string) bool {
		st, err := os.Stat(path)
		return err == nil && slices.ContainsFunc(own, func(o os.FileInfo) bool { return os.SameFile(st, o) })
	}
}
