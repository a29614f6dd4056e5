package wrapper

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gopari/internal/filter"
	"gopari/internal/runtest"
	"gopari/parser"
)

func TestParseSearchList(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, out, kind string
		dirs            []string
	}{
		{"gcc", `ignoring nonexistent directory "/usr/local/include/x86_64-linux-gnu"
#include "..." search starts here:
#include <...> search starts here:
 /usr/lib/gcc/x86_64-linux-gnu/12/include
 /usr/local/include
 /usr/include
End of search list.
`, "gcc", []string{"/usr/lib/gcc/x86_64-linux-gnu/12/include", "/usr/local/include", "/usr/include"}},
		{"clang", `clang -cc1 version 14.0.6 based upon LLVM 14.0.6 default target x86_64-pc-linux-gnu
#include "..." search starts here:
#include <...> search starts here:
 /usr/lib/llvm-14/lib/clang/14.0.6/include
 /usr/include
End of search list.
`, "clang", []string{"/usr/lib/llvm-14/lib/clang/14.0.6/include", "/usr/include"}},
		{"apple clang", `clang -cc1 version 15.0.0 (clang-1500.0.40.1) default target arm64-apple-darwin23.0.0
#include <...> search starts here:
 /Library/Developer/CommandLineTools/usr/include
 /Library/Developer/CommandLineTools/SDKs/MacOSX.sdk/System/Library/Frameworks (framework directory)
End of search list.
`, "clang", []string{"/Library/Developer/CommandLineTools/usr/include", "/Library/Developer/CommandLineTools/SDKs/MacOSX.sdk/System/Library/Frameworks"}},
		{"other", "cc: no such option\n", "", nil},
	} {
		info := parseSearchList(c.out)
		if info.kind != c.kind || strings.Join(info.dirs, "|") != strings.Join(c.dirs, "|") {
			t.Errorf("%s: kind %q dirs %q, want %q %q", c.name, info.kind, info.dirs, c.kind, c.dirs)
		}
	}
}

func TestTargetFlags(t *testing.T) {
	t.Parallel()
	args := strings.Fields("-O2 -m32 -I inc --sysroot /sr -DX=1 -target aarch64-linux-gnu -c a.c -nostdinc -stdlib=libc++ --gcc-toolchain=/gt -Bprefix -o a.o -std=c++17")
	want := "-m32 --sysroot /sr -target aarch64-linux-gnu -nostdinc -stdlib=libc++ --gcc-toolchain=/gt -Bprefix"
	if got := strings.Join(targetFlags(args), " "); got != want {
		t.Errorf("targetFlags = %q, want %q", got, want)
	}
}

func TestGCCFunctionFlags(t *testing.T) {
	t.Parallel()
	f, err := filter.Parse("f", []byte("SCOREP_FILE_NAMES_BEGIN EXCLUDE *third,party* SCOREP_FILE_NAMES_END\n"+
		"SCOREP_REGION_NAMES_BEGIN EXCLUDE *get* ns::* SCOREP_REGION_NAMES_END\n"))
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(gccFunctionFlags([]string{"/usr/inc,lude", "/usr/include/"}, "/opt/gopari/include", f), " ")
	want := `-finstrument-functions -finstrument-functions-exclude-file-list=/usr/inc\,lude/,/usr/include/,/opt/gopari/include/ ` +
		`-finstrument-functions-exclude-file-list=third\,party -finstrument-functions-exclude-function-list=pomp_r,get`
	if got != want {
		t.Errorf("gccFunctionFlags:\n got %s\nwant %s", got, want)
	}
}

// TestFunctionFlagsGCC asks gcc and g++ as the wrapper does and checks the
// exclusion list against what gcc says by other means: its own header
// directory (-print-file-name=include) and the directories of the headers
// a C and a C++ program include (from -H).
func TestFunctionFlagsGCC(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ cc, lang, header string }{{"gcc", "c", "stdio.h"}, {"g++", "c++", "vector"}} {
		fl, err := FunctionCFlags([]string{c.cc}, nil, []string{c.lang}, "/gopari/include", nil)
		if err != nil {
			t.Fatal(err)
		}
		list := ""
		for _, f := range fl {
			if l, ok := strings.CutPrefix(f, "-finstrument-functions-exclude-file-list="); ok {
				list = l
				break
			}
		}
		if fl[0] != "-finstrument-functions" || list == "" {
			t.Fatalf("%s: flags %q", c.cc, fl)
		}
		own, err := exec.Command(c.cc, "-print-file-name=include").Output()
		if err != nil {
			t.Fatal(err)
		}
		dirs := strings.Split(list, ",")
		if !contains(dirs, filepath.Clean(strings.TrimSpace(string(own)))+"/") || dirs[len(dirs)-1] != "/gopari/include/" {
			t.Errorf("%s: exclusions %q lack %s or end other than with gopari's", c.cc, dirs, own)
		}
		cmd := exec.Command(c.cc, "-H", "-E", "-x", c.lang, "-", "-o", os.DevNull)
		cmd.Stdin = strings.NewReader("#include <" + c.header + ">\n")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s -H: %v\n%s", c.cc, err, out)
		}
		for _, m := range regexp.MustCompile(`(?m)^\.+ (\S+)$`).FindAllStringSubmatch(string(out), -1) {
			if !excludedBy(dirs, m[1]) {
				t.Errorf("%s: header %s is not excluded by %q", c.cc, m[1], dirs)
			}
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// excludedBy reports whether GCC's substring test excludes file.
func excludedBy(list []string, file string) bool {
	for _, s := range list {
		if strings.Contains(file, s) {
			return true
		}
	}
	return false
}

// TestFunctionsExcludeSystemHeaders compiles C++ whose std::vector code
// is emitted out of line (-O0) through gopari cc --functions, and reads
// the object: the user's functions call __cyg_profile_func_enter, the
// library's (and gopari's) do not; a --filter's *literal* rule leaves a
// user function out too. Then the same with clang, which has no
// exclusion lists: the library's functions are instrumented unless
// inlined, and left to the run.
func TestFunctionsExcludeSystemHeaders(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	src := filepath.Join(dir, "v.cc")
	code := "#include <vector>\nstatic int tiny(int x) { return x + 1; }\nint sum(int n) {\n  std::vector<int> v(n, 1);\n  int s = 0;\n" +
		"#pragma omp parallel for reduction(+:s)\n  for (int i = 0; i < n; i++) s += v[i];\n  return tiny(s);\n}\n"
	if err := os.WriteFile(src, []byte(code), 0o666); err != nil {
		t.Fatal(err)
	}
	f, err := filter.Parse("f", []byte("SCOREP_REGION_NAMES_BEGIN EXCLUDE *tiny* SCOREP_REGION_NAMES_END"))
	if err != nil {
		t.Fatal(err)
	}
	obj := filepath.Join(dir, "v.o")
	o := Options{Functions: true, Filter: f, PrintDiags: nopDiags}
	var stderr bytes.Buffer
	if err := Run([]string{"g++", "-fopenmp", "-O0", "-c", src, "-o", obj}, o, nil, io.Discard, &stderr); err != nil {
		t.Fatalf("gopari cc: %v\n%s", err, stderr.String())
	}
	// Only sum: not tiny (the filter), not std::vector's or
	// std::allocator's members (system headers), not pomp_r or
	// pomp_register (gopari's), and GCC does not instrument the function
	// it outlines the loop into.
	if got := instrumentedFunctions(t, obj); strings.Join(got, " ") != "_Z3sumi" {
		t.Errorf("gcc: instrumented %q, want _Z3sumi alone", got)
	}
	if !runtest.ClangWorks() {
		return
	}
	o.Filter = nil
	if err := Run([]string{"clang++-14", "-fopenmp=libomp", "-O2", "-c", src, "-o", obj}, o, nil, io.Discard, &stderr); err != nil {
		t.Fatalf("gopari cc clang: %v\n%s", err, stderr.String())
	}
	got := instrumentedFunctions(t, obj)
	if !contains(got, "_Z3sumi") || contains(got, "_ZL4tinyi") {
		t.Errorf("clang -O2: instrumented %q: want _Z3sumi, and the static tiny inlined, without hooks", got)
	}
}

func nopDiags(io.Writer, parser.DiagnosticList) {}

// instrumentedFunctions returns the functions of an object that call
// __cyg_profile_func_enter, by their symbols.
func instrumentedFunctions(t *testing.T, obj string) []string {
	t.Helper()
	out, err := exec.Command("objdump", "-dr", obj).Output()
	if err != nil {
		t.Skipf("objdump: %v", err)
	}
	var fns []string
	fn := ""
	for _, line := range strings.Split(string(out), "\n") {
		if strings.HasSuffix(line, ">:") {
			fn = line[strings.Index(line, "<")+1 : len(line)-2]
		}
		if strings.Contains(line, "__cyg_profile_func_enter") && !contains(fns, fn) {
			fns = append(fns, fn)
		}
	}
	return fns
}

// TestFilterSource compiles the C file that carries a filter into the
// program and reads the bytes back through the runtime's weak
// declarations: every byte a filter file may hold comes back.
func TestFilterSource(t *testing.T) {
	t.Parallel()
	text := "# \"q\" \\b\\ ??= ??/ é\r\n\tSCOREP_REGION_NAMES_BEGIN\n\x01\x7f\xff end without newline"
	dir := t.TempDir()
	src, prog := filepath.Join(dir, "filter.c"), filepath.Join(dir, "prog")
	main := filepath.Join(dir, "main.c")
	os.WriteFile(src, filterSource([]byte(text), `dir/my "f".filter`), 0o666)
	os.WriteFile(main, []byte("#include <stdio.h>\nextern const char pomp_callpath_filter[] __attribute__((weak));\n"+
		"extern const char pomp_callpath_filter_name[] __attribute__((weak));\n"+
		"int main(void) { fputs(pomp_callpath_filter, stdout); putchar(0); fputs(pomp_callpath_filter_name, stdout); return 0; }\n"), 0o666)
	if out, err := exec.Command("cc", "-Wall", "-Werror", "-trigraphs", "-x", "c", src, main, "-o", prog).CombinedOutput(); err != nil {
		t.Fatalf("cc: %v\n%s", err, out)
	}
	out, err := exec.Command(prog).Output()
	if err != nil {
		t.Fatal(err)
	}
	if want := text + "\x00" + `dir/my "f".filter`; string(out) != want {
		t.Errorf("read back %q, want %q", out, want)
	}
	if empty := string(filterSource(nil, "e")); !strings.Contains(empty, "pomp_callpath_filter[] =\n\t\"\";") {
		t.Errorf("empty filter:\n%s", empty)
	}
}

// TestFilterScopedNamesGCC compiles C++ with members, nested namespaces,
// a destructor, an overload, a class template and a function template
// through gopari cc --functions --filter, at -O0 (no inlined copies: a
// function's hook calls are in its own body), and reads the object: the
// rules GCC can apply exactly (scoped literals) leave their functions
// without a __cyg_profile_func_enter call, and only those; the rules it
// cannot (template arguments, a comma, a space) leave every function
// instrumented, for the run to filter.
func TestFilterScopedNamesGCC(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	src := filepath.Join(dir, "m.cc")
	code := `namespace geo { namespace inner {
struct Mesh { int n; Mesh(); ~Mesh(); int get(int i) const; int get(long i) const; int getX(int i) const; };
Mesh::Mesh() : n(3) {}
Mesh::~Mesh() { n = 0; }
int Mesh::get(int i) const { return n + i; }
int Mesh::get(long i) const { return n + (int)i; }
int Mesh::getX(int i) const { return n - i; }
}}
template <typename T, typename U> struct Box { T t; T val() const { return t; } };
template <typename T> T tmax(T a, T b) { return a > b ? a : b; }
int plain(int x) { return x + 1; }
int main() {
  geo::inner::Mesh m;
  Box<int, float> b{1};
  Box<long, int> c{2};
  return m.get(1) + m.get(2L) + m.getX(1) + b.val() + (int)c.val() + tmax(1, 2) + (int)tmax(1L, 2L) + plain(0);
}
`
	if err := os.WriteFile(src, []byte(code), 0o666); err != nil {
		t.Fatal(err)
	}
	all := []string{"main", "geo::inner::Mesh::Mesh()", "geo::inner::Mesh::~Mesh()", "geo::inner::Mesh::get(int) const",
		"geo::inner::Mesh::get(long) const", "geo::inner::Mesh::getX(int) const", "Box<int, float>::val() const",
		"Box<long, int>::val() const", "int tmax<int>(int, int)", "long tmax<long>(long, long)", "plain(int)"}
	for _, c := range []struct {
		rules string
		out   []string // the functions without hooks
	}{
		{"*Mesh::get* *Mesh::~Mesh*", []string{"geo::inner::Mesh::~Mesh()", "geo::inner::Mesh::get(int) const",
			"geo::inner::Mesh::get(long) const", "geo::inner::Mesh::getX(int) const"}},
		{"*inner::Mesh::getX* *plain*", []string{"geo::inner::Mesh::getX(int) const", "plain(int)"}},
		{"*Mesh::Mesh* *tmax*", []string{"geo::inner::Mesh::Mesh()", "int tmax<int>(int, int)", "long tmax<long>(long, long)"}},
		// GCC's names are "Box<int, float>::val", "tmax<long int>": run time only.
		{"*Box<int* *float>::val* *tmax<long>* *int* *Mesh::get(int)*", nil},
		// The last INCLUDE takes some back: run time only.
		{"*Mesh::get* INCLUDE *Mesh::getX*", nil},
	} {
		f, err := filter.Parse("f", []byte("SCOREP_REGION_NAMES_BEGIN EXCLUDE "+c.rules+" SCOREP_REGION_NAMES_END"))
		if err != nil {
			t.Fatal(err)
		}
		obj := filepath.Join(dir, "m.o")
		var stderr bytes.Buffer
		if err := Run([]string{"g++", "-O0", "-c", src, "-o", obj}, Options{Functions: true, Filter: f, PrintDiags: nopDiags}, nil, io.Discard, &stderr); err != nil {
			t.Fatalf("gopari cc: %v\n%s", err, stderr.String())
		}
		got := map[string]bool{}
		for _, fn := range instrumentedFunctions(t, obj) {
			got[demangled(fn)] = true
		}
		for _, fn := range all {
			if want := !contains(c.out, fn); got[fn] != want {
				t.Errorf("%s: %s instrumented %v, want %v", c.rules, fn, got[fn], want)
			}
		}
	}
}

// demangled is a symbol's demangled name, as the run's filter reads it.
func demangled(sym string) string {
	out, err := exec.Command("c++filt", sym).Output()
	if err != nil {
		return sym
	}
	return strings.TrimSpace(string(out))
}

// TestFunctionFlagsFortran: a Fortran source gets gfortran's function
// instrumentation through gopari cc --functions, whether the command
// instruments it (-fopenmp) or passes it through, with GCC's exclusions;
// a compiler that cannot instrument Fortran functions (flang, or one
// that cannot be asked) gets no flag, and an error that says so.
func TestFunctionFlagsFortran(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("gfortran"); err != nil {
		t.Skip("gfortran not installed")
	}
	fl, err := FunctionCFlags([]string{"gfortran"}, nil, []string{FortranLang}, "/gopari/include", nil)
	if err != nil || len(fl) < 3 || fl[0] != "-finstrument-functions" || !strings.HasSuffix(fl[1], ",/gopari/include/") ||
		fl[len(fl)-1] != "-finstrument-functions-exclude-function-list="+gccOwnFunctions {
		t.Errorf("gfortran: flags %q, error %v", fl, err)
	}
	for _, cc := range []string{"false", "flang-new-19"} {
		if _, err := exec.LookPath(cc); err != nil {
			continue
		}
		fl, err := FunctionCFlags([]string{cc}, nil, []string{FortranLang}, "/gopari/include", nil)
		if fl != nil || err == nil || !strings.Contains(err.Error(), cc+" cannot instrument the functions of Fortran sources") {
			t.Errorf("%s: flags %q, error %v", cc, fl, err)
		}
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "x.f90")
	code := "subroutine work(n)\n  integer :: n, i\n  !$omp parallel do\n  do i = 1, n\n  end do\nend subroutine\n"
	if err := os.WriteFile(src, []byte(code), 0o666); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"gfortran", "-fopenmp", "-c", src, "-o", filepath.Join(dir, "x.o")}, {"gfortran", "-c", src}} {
		var stderr bytes.Buffer
		if err := Run(args, Options{Functions: true, DryRun: true, PrintDiags: nopDiags}, nil, io.Discard, &stderr); err != nil {
			t.Fatalf("gopari cc %q: %v\n%s", args, err, stderr.String())
		}
		n := 0
		for _, line := range strings.Split(stderr.String(), "\n") {
			if strings.HasPrefix(line, "gfortran -finstrument-functions ") && strings.Contains(line, ".f90") {
				n++
			}
		}
		if n != 1 {
			t.Errorf("gopari cc --functions %q compiles its source %d times with the flags, want once:\n%s", args, n, stderr.String())
		}
	}
}

// TestCompilerLangs: gopari config --functions-cflags asks a compiler
// about the language its name says it compiles.
func TestCompilerLangs(t *testing.T) {
	for cc, want := range map[string]string{"gcc": "c", "/usr/bin/clang-14": "c", "g++": "c++", "clang++-14": "c++", "mpicxx": "c++",
		"gfortran": FortranLang, "gfortran-12": FortranLang, "/opt/bin/flang-new-19": FortranLang, "mpif90": FortranLang, "mpicc": "c"} {
		if got := CompilerLangs(cc); len(got) != 1 || got[0] != want {
			t.Errorf("CompilerLangs(%q) = %q, want %q", cc, got, want)
		}
	}
}
