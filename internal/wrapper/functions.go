package wrapper

import (
	"bytes"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"gopari/internal/atomicfile"
	"gopari/internal/filter"
	"gopari/rewrite"
)

// Function instrumentation (gopari cc --functions, issue 25). Every C,
// C++ and Fortran source that the command compiles gets the compiler's function
// instrumentation, with or without OpenMP, as Score-P instruments every
// file it compiles: the functions outside OpenMP files are most of the
// call path. The flags depend on the compiler, which gopari asks
// (compilerInfo):
//
//   - GCC: -finstrument-functions, and -finstrument-functions-exclude-
//     file-list= with the compiler's system include directories, in its
//     search order, and gopari's own (pomp.h); gopari's generated
//     functions (pomp_register, pomp_r) by name. A --filter's rules that
//     GCC can apply exactly (filter.CompilerExclusions) follow as a
//     second file list and a function list.
//   - clang: -finstrument-functions-after-inlining, so that inlined
//     functions cost nothing. Clang has no exclusion lists: the compile
//     goes through IR in two steps instead (irfilter.go), which leave out
//     the C++ standard library's functions and what the filter excludes
//     by name.
//   - any other compiler: -finstrument-functions.
//   - Fortran: gfortran's, as GCC's; flang has none (a warning says
//     that its Fortran sources' functions are not measured).
//
// The run applies the whole filter (linkFilter embeds it in the program);
// what the compiler left out never reaches it.

// gccOwnFunctions are the functions gopari generates in every instrumented
// file (rewrite/region.go): never measured. GCC tests substrings, so
// "pomp_r" names both; gopari owns the pomp_ prefix.
const gccOwnFunctions = "pomp_r"

// A compilerKind is what compilerInfo found: "gcc", "clang" or "".
type compilerInfo struct {
	kind string
	dirs []string // system include directories, in search order
}

// FunctionCFlags returns the flags that add function instrumentation to
// compiles by compiler (its argv, with a launcher if any; target, the
// command's targetFlags) of the languages langs ("c", "c++"), with the
// compile-time part of f (nil for none); includeDir is gopari's (pomp.h).
// When the compiler cannot be asked, the error says why, and the flags
// are -finstrument-functions alone: system headers are measured too.
func FunctionCFlags(compiler, target []string, langs []string, includeDir string, f *filter.Filter) ([]string, error) {
	var info compilerInfo
	seen := map[string]bool{}
	for _, lang := range langs {
		li, err := askCompiler(compiler, target, lang)
		if err != nil && lang == FortranLang {
			return nil, noFortranFunctions(compiler)
		}
		if err != nil {
			return []string{"-finstrument-functions"}, fmt.Errorf("cannot ask %s for its system include directories: %v; functions in system headers are measured", strings.Join(compiler, " "), err)
		}
		if info.kind == "" {
			info.kind = li.kind
		}
		for _, d := range li.dirs {
			if !seen[d] {
				seen[d] = true
				info.dirs = append(info.dirs, d)
			}
		}
	}
	switch {
	case info.kind != "gcc" && slices.Contains(langs, FortranLang):
		return nil, noFortranFunctions(compiler)
	case info.kind == "clang":
		return []string{clangFunctionsFlag}, nil
	case info.kind == "gcc":
		return gccFunctionFlags(info.dirs, includeDir, f), nil
	}
	return []string{"-finstrument-functions"}, nil
}

// CompilerLangs returns the language a compiler compiles by its name,
// as FunctionCFlags takes it: C++ for g++, clang++, mpicxx; Fortran for
// gfortran, flang, mpif90; else C.
func CompilerLangs(cc string) []string {
	b := filepath.Base(cc)
	switch {
	case fortranDriver.MatchString(b):
		return []string{FortranLang}
	case strings.Contains(b, "++") || strings.Contains(b, "cxx") || b == "CC":
		return []string{"c++"}
	}
	return []string{"c"}
}

// FortranLang is the language a Fortran compiler is asked about: GCC's
// driver preprocesses nothing as Fortran without -cpp.
const FortranLang = "f95-cpp-input"

// noFortranFunctions is the error of a compiler that cannot instrument
// the functions of Fortran sources: flang has no -finstrument-functions.
func noFortranFunctions(compiler []string) error {
	return fmt.Errorf("%s cannot instrument the functions of Fortran sources (gfortran can): their functions are not measured", strings.Join(compiler, " "))
}

// gccFunctionFlags returns GCC's flags: instrumentation and its exclusions.
func gccFunctionFlags(dirs []string, includeDir string, f *filter.Filter) []string {
	var sys []string
	for _, d := range dirs {
		sys = append(sys, strings.TrimSuffix(d, "/")+"/")
	}
	if includeDir != "" {
		sys = append(sys, strings.TrimSuffix(includeDir, "/")+"/")
	}
	out := []string{"-finstrument-functions"}
	if len(sys) > 0 {
		out = append(out, "-finstrument-functions-exclude-file-list="+gccList(sys))
	}
	files, fns := f.CompilerExclusions()
	if len(files) > 0 {
		out = append(out, "-finstrument-functions-exclude-file-list="+gccList(files))
	}
	return append(out, "-finstrument-functions-exclude-function-list="+gccList(append([]string{gccOwnFunctions}, fns...)))
}

// gccList joins items into GCC's comma-separated list, where "\," is a
// comma within an item.
func gccList(items []string) string {
	q := make([]string, len(items))
	for i, s := range items {
		q[i] = strings.ReplaceAll(s, ",", `\,`)
	}
	return strings.Join(q, ",")
}

// askCompiler asks the compiler, preprocessing nothing as lang with
// -Wp,-v, which kind it is and where its system headers are: the
// directories between "#include <...> search starts here:" and "End of
// search list.", as it searches them.
func askCompiler(compiler, target []string, lang string) (compilerInfo, error) {
	argv := append(append(append([]string(nil), compiler...), target...), "-E", "-Wp,-v", "-x", lang, "/dev/null", "-o", "/dev/null")
	var stderr bytes.Buffer
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return compilerInfo{}, err
	}
	return parseSearchList(stderr.String()), nil
}

// parseSearchList reads what a compiler prints under -Wp,-v.
func parseSearchList(out string) compilerInfo {
	var info compilerInfo
	in := false
	for _, line := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(line, "clang -cc1 version") || strings.Contains(line, "clang version"):
			info.kind = "clang"
		case strings.HasPrefix(line, "#include <...> search starts here:"):
			in = true
			if info.kind == "" {
				info.kind = "gcc"
			}
		case strings.HasPrefix(line, "End of search list."):
			in = false
		case in && strings.HasPrefix(line, " "):
			dir := strings.TrimSuffix(strings.TrimSpace(line), " (framework directory)")
			info.dirs = append(info.dirs, filepath.Clean(dir))
		}
	}
	return info
}

// targetFlags returns the options of the command that decide the target
// and its headers: those the compiler's search list and the filter's
// object are made with.
func targetFlags(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--sysroot" || a == "-isysroot" || a == "-target" || a == "-gcc-toolchain" || a == "-B":
			if i+1 < len(args) {
				out = append(out, a, args[i+1])
				i++
			}
		case a == "-nostdinc" || a == "-nostdinc++" || a == "-nostdlibinc" || a == "-m32" || a == "-m64" || a == "-mx32",
			strings.HasPrefix(a, "--sysroot="), strings.HasPrefix(a, "--target="), strings.HasPrefix(a, "--gcc-toolchain="),
			strings.HasPrefix(a, "-stdlib="), strings.HasPrefix(a, "-B"):
			out = append(out, a)
		}
	}
	return out
}

// functionFlags returns the flags --functions adds to a compile of
// sources in the languages langs, asking the compiler once per set of
// languages.
func (p *plan) functionFlags(langs ...string) []string {
	if !p.o.Functions || len(langs) == 0 {
		return nil
	}
	key := strings.Join(langs, ",")
	if fl, ok := p.fnFlags[key]; ok {
		return fl
	}
	if p.includeDir == "" { // a command gopari passes through: pomp.h is not needed to compile
		p.includeDir, _, _ = RuntimePaths()
	}
	fl, err := FunctionCFlags(p.compiler, targetFlags(p.line.args), langs, p.includeDir, p.o.Filter)
	if err != nil {
		fmt.Fprintf(p.stderr, "gopari: warning: %v\n", err)
	}
	if p.fnFlags == nil {
		p.fnFlags = make(map[string][]string)
	}
	p.fnFlags[key] = fl
	return fl
}

// sourceLangs returns the languages of the C, C++ and Fortran sources
// that the command compiles itself (not replaced by gopari's objects),
// each once: "c", "c++" or FortranLang.
func (p *plan) sourceLangs() []string {
	var out []string
	seen := map[string]bool{}
	for _, in := range p.line.inputs {
		if in.lang == "" && !in.fortran || in.path == "-" {
			continue
		}
		if _, replaced := p.objects[in.index]; replaced {
			continue
		}
		lang := "c"
		switch {
		case in.fortran:
			lang = FortranLang
		case strings.HasPrefix(in.lang, "c++"):
			lang = "c++"
		}
		if !seen[lang] {
			seen[lang] = true
			out = append(out, lang)
		}
	}
	return out
}

// withFunctionFlags returns argv, a command of the compiler, with the
// flags of --functions for langs right after the compiler's name, so
// that the user's own options come after them and win.
func (p *plan) withFunctionFlags(argv []string, langs ...string) []string {
	fl := p.functionFlags(langs...)
	if len(fl) == 0 {
		return argv
	}
	n := len(p.compiler)
	return append(append(append([]string(nil), argv[:n]...), fl...), argv[n:]...)
}

// langOf returns "c++" for a C++ source, else "c".
func langOf(src input) string {
	if strings.HasPrefix(src.lang, "c++") {
		return "c++"
	}
	return "c"
}

// filterObject compiles the C file that carries the --filter file into
// the program, for the run: pomp_callpath_filter holds the file's bytes,
// pomp_callpath_filter_name its name as the user gave it. It returns the
// object, "" without a filter.
func (p *plan) filterObject() (string, error) {
	if p.o.Filter == nil {
		return "", nil
	}
	out := p.line.output
	if out == "" {
		out = "a.out"
	}
	// Hidden names even under -save-temps, which keeps the compiler's
	// files, not this one: no user's file is ever in the way.
	stem := filepath.Join(p.outDir(), ".gopari-"+filepath.Base(out)+".filter")
	src, obj := stem+".c", stem+".o"
	p.temps = append(p.temps, src, obj)
	if !p.o.DryRun {
		if err := p.writeFile(src, filterSource(p.o.FilterText, p.o.Filter.Name)); err != nil {
			return "", fmt.Errorf("cannot write beside %s: %v", p.userOutput(), atomicfile.Cause(err))
		}
	}
	argv := append(append([]string(nil), p.compiler...), targetFlags(p.line.args)...)
	argv = append(argv, "-x", "c", src, "-x", "none", "-c", "-o", obj)
	if err := p.exec(argv); err != nil {
		return "", err
	}
	return obj, nil
}

// filterSource returns the C file that defines the filter for the run.
func filterSource(text []byte, name string) []byte {
	var b bytes.Buffer
	b.WriteString("/* Code generated by gopari; DO NOT EDIT. */\n")
	b.WriteString("/* The --filter file of gopari cc --functions, read by the runtime at start. */\n")
	b.WriteString("extern const char pomp_callpath_filter[];\nextern const char pomp_callpath_filter_name[];\n")
	b.WriteString("__attribute__((__used__)) const char pomp_callpath_filter[] =")
	lines := bytes.SplitAfter(text, []byte("\n"))
	if len(text) == 0 {
		lines = [][]byte{nil}
	}
	for _, l := range lines {
		if len(l) > 0 || len(lines) == 1 {
			b.WriteString("\n\t" + rewrite.QuoteC(string(l)))
		}
	}
	b.WriteString(";\n__attribute__((__used__)) const char pomp_callpath_filter_name[] = " + rewrite.QuoteC(name) + ";\n")
	return b.Bytes()
}
