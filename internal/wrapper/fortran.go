package wrapper

// Fortran sources: instrumented by rewrite/fortran, compiled with the
// module pomp_lib built for the compiler at hand, and linked with their
// region table, a small C object, into the object the user asked for.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"gopari/internal/atomicfile"
	"gopari/rewrite"
	"gopari/rewrite/fortran"
)

// fortranForm returns the form of a Fortran input: its suffix's, unless
// the command says -ffree-form or -ffixed-form; and whether the compiler
// preprocesses it (an upper-case suffix, or -cpp).
func (p *plan) fortranForm(src input) (fortran.Form, bool) {
	form, pre, _ := fortran.FormOf(src.path)
	switch src.xlang {
	case "f77", "f77-cpp-input":
		form = fortran.Fixed
	case "f95", "f95-cpp-input":
		form = fortran.Free
	}
	pre = pre || strings.HasSuffix(src.xlang, "-cpp-input")
	for _, a := range p.line.args {
		switch a {
		case "-ffree-form":
			form = fortran.Free
		case "-ffixed-form":
			form = fortran.Fixed
		case "-cpp":
			pre = true
		case "-nocpp":
			pre = false
		}
	}
	return form, pre
}

// compileFortran instruments and compiles one Fortran source.
func (p *plan) compileFortran(src input) error {
	l := p.line
	if l.mode == 'S' {
		fmt.Fprintf(p.stderr, "gopari: warning: %s: -S of a Fortran source is compiled without instrumentation\n", src.path)
		return p.fortranAsWritten(src)
	}
	obj := p.objectOf(src)
	stem := p.stem(src, obj)
	form, pre := p.fortranForm(src)
	text, err := p.fortranText(src, stem, form, pre)
	if err != nil {
		return err
	}
	res, err := fortran.Instrument(text, fortran.Options{Name: src.path, Form: form,
		KeepUntied: p.o.Rewrite.Untied == rewrite.UntiedKeep, Disable: p.o.Rewrite.Disable, Chunks: p.o.Rewrite.Chunks, Salt: objAbs(obj)})
	if err != nil {
		fmt.Fprintln(p.stderr, err)
		return &instrumentError{err: fmt.Errorf("cannot instrument %s", src.path)}
	}
	for _, d := range res.Warnings {
		fmt.Fprintln(p.stderr, d)
	}
	if res.Regions == 0 {
		return p.fortranAsWritten(src)
	}
	ext := ".f90"
	if form == fortran.Fixed {
		ext = ".f"
	}
	inst := p.temp(stem + ".pomp" + ext)
	table := p.temp(stem + ".pomp_regions.c")
	for _, f := range []struct {
		name string
		data []byte
	}{{inst, res.Fortran}, {table, res.Table}} {
		if err := p.writeFile(f.name, f.data); err != nil {
			return err
		}
	}
	modDir, err := p.fortranModule(stem)
	if err != nil {
		return err
	}
	fobj, tobj := p.temp(stem+".pomp_f.o"), p.temp(stem+".pomp_regions.o")
	argv := append(append([]string(nil), p.compiler...), p.functionFlags(FortranLang)...)
	for _, a := range p.flags(keepAll, preprocess) {
		if !pre || a != "-cpp" {
			argv = append(argv, a)
		}
	}
	if m := fortranDriver.FindStringSubmatch(filepath.Base(p.compiler[len(p.compiler)-1])); m != nil && m[2] == "gfortran" {
		// The object's records of the file compiled name the source.
		argv = append(argv, "-ffile-prefix-map="+inst+"="+src.path)
	}
	argv = append(argv, "-I", modDir, "-I", filepath.Dir(src.path), inst, "-c", "-o", fobj)
	err = p.exec(argv)
	p.removeUnitModule(res.Unit)
	if err != nil {
		return err
	}
	if err := p.joinFortran(table, fobj, tobj, obj); err != nil {
		return err
	}
	if l.mode == 'l' {
		p.objects[src.index] = obj
	}
	return nil
}

// joinFortran compiles a Fortran source's region table into tobj and
// joins it with the compiled source fobj into obj.
func (p *plan) joinFortran(table, fobj, tobj, obj string) error {
	cc := []string{onPath(tableCompiler(p.compiler))}
	cc = append(cc, codeModelFlags(p.line.args)...)
	if err := p.exec(append(cc, "-I", p.includeDir, "-c", table, "-o", tobj)); err != nil {
		return err
	}
	if err := p.exec([]string{"ld", "-r", fobj, tobj, "-o", obj}); err != nil {
		return err
	}
	if largeData(p.line.args) {
		// ld -r leaves an empty section LARGE_COMMON beside the large
		// common blocks of -mcmodel=medium, which the final link then
		// takes for their definition: two such objects that share a
		// common block would define it twice.
		if err := p.exec([]string{"objcopy", "--rename-section", "LARGE_COMMON=.lbss.gopari", obj}); err != nil {
			return err
		}
	}
	return nil
}

// objAbs returns the absolute path of an object, which tells apart two
// compiles of one source into one program.
func objAbs(obj string) string {
	if abs, err := filepath.Abs(obj); err == nil {
		return abs
	}
	return obj
}

// fortranText returns a Fortran source's text, preprocessed when the
// compiler would preprocess it.
func (p *plan) fortranText(src input, stem string, form fortran.Form, pre bool) ([]byte, error) {
	text, err := os.ReadFile(src.path)
	if pre && err == nil {
		cpp := p.temp(stem + ".pre" + map[fortran.Form]string{fortran.Free: ".f90", fortran.Fixed: ".f"}[form])
		argv := append(append([]string(nil), p.compiler...), p.flags(keepAll, preprocess)...)
		argv = append(argv, "-E", "-cpp", src.path, "-o", cpp)
		if err := p.exec(argv); err != nil {
			return nil, err
		}
		if !p.o.DryRun {
			text, err = os.ReadFile(cpp)
		}
	}
	if err != nil {
		return nil, &instrumentError{err: err}
	}
	return text, nil
}

// fortranAsWritten compiles a Fortran source that has nothing to
// instrument as the user wrote it.
func (p *plan) fortranAsWritten(src input) error {
	obj := p.objectOf(src)
	argv := append(append(append([]string(nil), p.compiler...), p.functionFlags(FortranLang)...), p.flags(keepAll, preprocess)...)
	argv = append(argv, src.path, p.modeFlag(), "-o", obj)
	if err := p.exec(argv); err != nil {
		return err
	}
	if p.line.mode == 'l' {
		p.objects[src.index] = obj
	}
	return nil
}

// fortranModule compiles pomp_lib.f90 into a directory of its own with
// the command's compiler: a .mod file is the compiler's, of its version.
func (p *plan) fortranModule(stem string) (string, error) {
	dir := p.temp(stem + ".pomp_mod")
	if !p.o.DryRun {
		if err := os.Mkdir(dir, 0o777); err != nil && !os.IsExist(err) {
			return "", fmt.Errorf("cannot write beside %s: %v", p.userOutput(), atomicfile.Cause(err))
		}
	}
	src := filepath.Join(p.includeDir, "pomp_lib.f90")
	if _, err := os.Stat(src); err != nil {
		return "", fmt.Errorf("cc: cannot find %s: build it with make, or set GOPARI_PREFIX", src)
	}
	mod, o := filepath.Join(dir, "pomp_lib.mod"), filepath.Join(dir, "pomp_lib.o")
	p.temps = append(p.temps, mod, o)
	argv := append(append([]string(nil), p.compiler...), "-c", src, "-J", dir, "-o", o)
	return dir, p.exec(argv)
}

// removeUnitModule removes the .mod file of the unit module that the
// compile of an instrumented file left where the user's modules go.
func (p *plan) removeUnitModule(unit string) {
	dir := "."
	args := p.line.args
	for i, a := range args {
		switch {
		case a == "-J" && i+1 < len(args):
			dir = args[i+1]
		case strings.HasPrefix(a, "-J") && len(a) > 2:
			dir = a[2:]
		}
	}
	if !p.o.Keep {
		os.Remove(filepath.Join(dir, "pomp_unit_"+unit+".mod"))
	}
}

var fortranDriver = regexp.MustCompile(`^(.*?)(gfortran|flang-new|flang|mpif90|mpif77|mpifort)(-[0-9.]+)?$`)

// tableCompiler names the C compiler of a Fortran compiler's family:
// gcc for gfortran (of the same version suffix), clang for flang, mpicc
// for the MPI wrappers; cc otherwise.
func tableCompiler(compiler []string) string {
	m := fortranDriver.FindStringSubmatch(filepath.Base(compiler[len(compiler)-1]))
	if m == nil {
		return "cc"
	}
	c := map[string]string{"gfortran": "gcc", "flang": "clang", "flang-new": "clang", "mpif90": "mpicc", "mpif77": "mpicc", "mpifort": "mpicc"}[m[2]]
	return m[1] + c + m[3]
}

// onPath returns the C compiler c if it is on the PATH; else the same
// family without its version suffix (flang-new-19 with clang-14
// installed: clang), or cc. The table is plain C data: any C compiler of
// the machine makes an object that links with the Fortran one.
var versioned = regexp.MustCompile(`^(.*[a-z+])-[0-9.]+$`)

func onPath(c string) string {
	names := []string{c}
	if m := versioned.FindStringSubmatch(c); m != nil {
		names = append(names, m[1])
	}
	for _, n := range append(names, "cc") {
		if _, err := exec.LookPath(n); err == nil {
			return n
		}
	}
	return c // not found: the error names the family's compiler
}

// codeModelFlags are the options of a command that the region table's
// object must share to link with the rest.
func codeModelFlags(args []string) []string {
	var out []string
	for _, a := range args {
		switch {
		case a == "-fPIC", a == "-fpic", a == "-fPIE", a == "-fpie", a == "-m32", a == "-m64",
			strings.HasPrefix(a, "-march="), strings.HasPrefix(a, "-mcmodel="):
			out = append(out, a)
		}
	}
	return out
}

// largeData reports whether a command compiles for a code model with
// large data sections.
func largeData(args []string) bool {
	for _, a := range args {
		if a == "-mcmodel=medium" || a == "-mcmodel=large" {
			return true
		}
	}
	return false
}

// passedOver lists input files that gopari neither instruments nor
// knows to hold no OpenMP: with -fopenmp they get a warning.
func passedOver(in input) bool {
	if in.lang != "" || in.fortran || in.path == "-" || LanguageOf(in.path).Name != "" {
		return false
	}
	switch filepath.Ext(in.path) {
	case ".o", ".a", ".so", ".lo", ".obj", ".la", ".s", ".S", ".sx", ".ld", ".lds", ".def", ".res", ".mod":
		return false
	}
	return !regexp.MustCompile(`\.so(\.[0-9]+)+$`).MatchString(in.path)
}
