package wrapper

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gopari/internal/filter"
)

// TestExcludeInIR takes the hooks' attributes off the functions the
// filter and the default exclusions leave out, in a module where two
// functions share a group, names are quoted and escaped, a parameter is a
// function pointer, and file rules need the debug information.
func TestExcludeInIR(t *testing.T) {
	ll := `define dso_local i32 @keep(i32 (i32)* %0) #0 !dbg !10 {
define internal i32 @_ZL4skipi(i32 noundef %0) #0 !dbg !11 {
define linkonce_odr void @_ZNSt6vectorIiSaIiEE4swapERS1_(i8* %0) #1 comdat align 2 {
define internal void @"\5Fskip\2Equoted"() #0 {
define internal void @inheader() #2 !dbg !12 {
attributes #0 = { nounwind "instrument-function-entry-inlined"="__cyg_profile_func_enter" "instrument-function-exit-inlined"="__cyg_profile_func_exit" "x"="y" }
attributes #1 = { "instrument-function-entry-inlined"="__cyg_profile_func_enter" "instrument-function-exit-inlined"="__cyg_profile_func_exit" }
attributes #2 = { "instrument-function-entry-inlined"="__cyg_profile_func_enter" "instrument-function-exit-inlined"="__cyg_profile_func_exit" }
!10 = distinct !DISubprogram(name: "keep", scope: !20, file: !20, line: 1)
!11 = distinct !DISubprogram(name: "skip", scope: !20, file: !20, line: 2)
!12 = distinct !DISubprogram(name: "inheader", scope: !21, file: !21, line: 3)
!20 = !DIFile(filename: "a.c", directory: "/src")
!21 = !DIFile(filename: "/opt/lib/h.h", directory: "/src")
`
	f, err := filter.Parse("f", []byte("SCOREP_REGION_NAMES_BEGIN EXCLUDE skip* _skip.* SCOREP_REGION_NAMES_END\n"+
		"SCOREP_FILE_NAMES_BEGIN EXCLUDE /opt/lib/* SCOREP_FILE_NAMES_END\n"))
	if err != nil {
		t.Fatal(err)
	}
	out, n := excludeInIR([]byte(ll), f)
	if n != 4 {
		t.Errorf("left out %d functions, want 4 (skip, std::vector<int>::swap, _skip.quoted, inheader)\n%s", n, out)
	}
	want := `define dso_local i32 @keep(i32 (i32)* %0) #0 !dbg !10 {
define internal i32 @_ZL4skipi(i32 noundef %0) #3 !dbg !11 {
define linkonce_odr void @_ZNSt6vectorIiSaIiEE4swapERS1_(i8* %0) #4 comdat align 2 {
define internal void @"\5Fskip\2Equoted"() #3 {
define internal void @inheader() #5 !dbg !12 {
`
	if !strings.HasPrefix(string(out), want) {
		t.Errorf("define lines:\n%s\nwant\n%s", out, want)
	}
	for _, g := range []string{"attributes #3 = { nounwind \"x\"=\"y\" }\n", "attributes #4 = { }\n", "attributes #5 = { }\n"} {
		if !bytes.Contains(out, []byte(g)) {
			t.Errorf("no %q in\n%s", g, out)
		}
	}
	if again, n := excludeInIR(out, f); n != 0 || !bytes.Equal(again, out) {
		t.Errorf("a second pass left out %d more", n)
	}
}

// TestFilterClang compiles C++ with clang through gopari cc --functions:
// the standard library's functions and those a --filter excludes, by
// demangled name and by file (with -g), have no hooks; the others keep
// theirs, and the program's code is otherwise what one compile makes.
func TestFilterClang(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("clang++-14"); err != nil {
		t.Skip("no clang++-14")
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "m.cc")
	hdr := filepath.Join(dir, "lib.h")
	os.WriteFile(hdr, []byte("__attribute__((noinline)) inline int fromlib(int x) { return x * 7; }\n"), 0o666)
	code := `#include <vector>
#include "lib.h"
namespace geo { struct Mesh { std::vector<double> v; __attribute__((noinline)) double at(int i) const { return v[i]; } }; }
template <typename T> __attribute__((noinline)) T tmax(T a, T b) { return a > b ? a : b; }
__attribute__((noinline)) int small(int x) { return x + 1; }
int main(int argc, char **) {
  geo::Mesh m; m.v.resize(argc + 3);
  auto f = [&](int i) __attribute__((noinline)) { return m.at(i) + small(i); };
  return (int)f(1) + tmax(argc, 2) + fromlib(argc);
}
`
	os.WriteFile(src, []byte(code), 0o666)
	all := []string{"main", "geo::Mesh::at(int) const", "int tmax<int>(int, int)", "small(int)", "main::$_0::operator()(int) const", "fromlib(int)"}
	for _, c := range []struct {
		rules string
		out   []string // the functions without hooks
	}{
		{"", nil},
		{"SCOREP_REGION_NAMES_BEGIN EXCLUDE *::at* small* SCOREP_REGION_NAMES_END", []string{"geo::Mesh::at(int) const", "small(int)"}},
		{"SCOREP_REGION_NAMES_BEGIN EXCLUDE * INCLUDE main* SCOREP_REGION_NAMES_END", []string{"geo::Mesh::at(int) const", "int tmax<int>(int, int)", "small(int)", "fromlib(int)"}},
		{"SCOREP_FILE_NAMES_BEGIN EXCLUDE */lib.h SCOREP_FILE_NAMES_END", []string{"fromlib(int)"}},
	} {
		f, err := filter.Parse("f", []byte(c.rules))
		if err != nil {
			t.Fatal(err)
		}
		if c.rules == "" {
			f = nil
		}
		obj := filepath.Join(dir, "m.o")
		var stderr bytes.Buffer
		if err := Run([]string{"clang++-14", "-O2", "-g", "-c", src, "-o", obj}, Options{Functions: true, Filter: f, PrintDiags: nopDiags}, nil, io.Discard, &stderr); err != nil {
			t.Fatalf("gopari cc: %v\n%s", err, stderr.String())
		}
		if stderr.Len() > 0 {
			t.Errorf("%s: messages: %s", c.rules, stderr.String())
		}
		got := map[string]bool{}
		for _, fn := range instrumentedFunctions(t, obj) {
			got[demangled(fn)] = true
		}
		for fn := range got {
			if strings.HasPrefix(fn, "std::") || strings.Contains(fn, " std::") {
				t.Errorf("%s: %s has hooks", c.rules, fn)
			}
		}
		for _, fn := range all {
			if want := !contains(c.out, fn); got[fn] != want {
				t.Errorf("%q: %s instrumented %v, want %v (instrumented: %v)", c.rules, fn, got[fn], want, got)
			}
		}
	}
}
