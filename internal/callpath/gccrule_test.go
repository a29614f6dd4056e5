package callpath

import (
	"debug/elf"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gopari/internal/profile"
	"gopari/internal/symbols"
	"gopari/internal/symbols/symtest"
)

// TestGCCRules: a function gets GCC's name as its rule when no measured
// function of the program holds that name, in its demangled name or in
// GCC's; overloads excluded together share it; names GCC spells its own
// way (templates, operators, the anonymous namespace, lambdas) keep
// their exact names.
func TestGCCRules(t *testing.T) {
	t.Parallel()
	program := []string{"main", "geo::Mesh::get(int) const", "geo::Mesh::get(long) const", "geo::Mesh::getX(int) const",
		"geo::Mesh::size() const", "geo::Mesh::sizes() const", "geo::Mesh::~Mesh()", "int geo::tmax<int>(int, int)",
		"(anonymous namespace)::anon(int)", "geo::Mesh::operator[](int) const", "cfun", "cfun2", "plain(int)",
		"main::{lambda(int)#1}::operator()(int) const", "geo::Mesh::get(int) const [clone .constprop.0]", "keep(Wrap<plain_t>)"}
	excl := []string{"geo::Mesh::get(int) const", "geo::Mesh::get(long) const", "geo::Mesh::getX(int) const",
		"geo::Mesh::size() const", "geo::Mesh::~Mesh()", "int geo::tmax<int>(int, int)", "(anonymous namespace)::anon(int)",
		"geo::Mesh::operator[](int) const", "cfun", "plain(int)", "main::{lambda(int)#1}::operator()(int) const"}
	want := []string{"geo::Mesh::get", "geo::Mesh::get", "geo::Mesh::getX",
		"",                                 // sizes() holds geo::Mesh::size
		"geo::Mesh::~Mesh", "", "", "", "", // cfun2 holds cfun
		"", // keep(Wrap<plain_t>) holds plain
		""}
	fns := make([]Function, len(excl))
	for i, n := range excl {
		fns[i].Name = n
	}
	// Every function of the program ran for a tenth of the time: none
	// is expendable.
	var ran []Function
	for _, n := range program {
		ran = append(ran, Function{Name: n, Visits: 10, ExclNs: 100})
	}
	got, also := gccRules(fns, program, nil, ran, 1000)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	for i, a := range also {
		if len(a) > 0 {
			t.Errorf("%s also leaves out %q", excl[i], a)
		}
	}
	// Leaving getX measured takes *geo::Mesh::get* from get.
	if got, _ := gccRules(fns[:2], program, nil, ran, 1000); got[0] != "" || got[1] != "" {
		t.Errorf("with getX measured: %q, want exact names", got)
	}
	// getX measured but brief (0.1% of the time), or never run: *geo::Mesh::get*
	// leaves it out too; with a construct below it, or longer, it stays.
	for _, c := range []struct {
		getX *Function
		lit  string
	}{
		{&Function{Name: "geo::Mesh::getX(int) const", Visits: 3, ExclNs: 1000}, "geo::Mesh::get"},
		{nil, "geo::Mesh::get"},
		{&Function{Name: "geo::Mesh::getX(int) const", Visits: 3, ExclNs: 1000, Constructs: true}, ""},
		{&Function{Name: "geo::Mesh::getX(int) const", Visits: 3, ExclNs: 1001}, ""},
	} {
		var r []Function
		for _, f := range ran {
			if f.Name != "geo::Mesh::getX(int) const" {
				r = append(r, f)
			} else if c.getX != nil {
				r = append(r, *c.getX)
			}
		}
		got, also := gccRules(fns[:2], program, nil, r, 1_000_000)
		if got[0] != c.lit || (c.lit != "" && !reflect.DeepEqual(also[0], []string{"geo::Mesh::getX(int) const"})) {
			t.Errorf("getX %+v: %q, also %q; want %q, also getX", c.getX, got[0], also[0], c.lit)
		}
	}
	// A run whose files are gone: exact names only.
	p := &profile.Profile{Mappings: []profile.Mapping{{File: "/nonexistent/prog"}}}
	if _, _, why := programNames([]*profile.Profile{p}); why != "/nonexistent/prog cannot be read" {
		t.Errorf("programNames of a gone file: %q", why)
	}
}

// TestGCCRulesFortran: a Fortran procedure's literal is its own name,
// which is GCC's printable name for it (ns of fcp::ns); the main program,
// which GCC calls by its name in the source and the run MAIN__, is never
// left out with it, and where that name is not known every rule stays
// exact. What a wider rule also leaves out lists the measured functions
// first.
func TestGCCRulesFortran(t *testing.T) {
	t.Parallel()
	program := []string{"main", "MAIN__", "fcp::ns", "fcp::spin", "runtime.transfer", "fcp::nsum"}
	ran := []Function{{Name: "main", Visits: 1, ExclNs: 100}, {Name: "MAIN__", Visits: 1, ExclNs: 100},
		{Name: "fcp::ns", Visits: 32, ExclNs: 300}, {Name: "fcp::spin", Visits: 24, ExclNs: 1_000_000}, {Name: "fcp::nsum", Visits: 1, ExclNs: 1}}
	excl := []Function{{Name: "fcp::ns"}}
	for _, c := range []struct {
		main string // the main program's name in the source; "?" for no MAIN__ entry
		lit  string
		also []string
	}{
		{"fortran_cpdeep", "ns", []string{"fcp::nsum", "runtime.transfer"}},
		{"transport", "", nil}, // MAIN__ would go with ns: exact
		{"", "", nil},          // no debug information: exact
	} {
		printable := map[string]string{"fcp::ns": "ns", "fcp::spin": "spin", "fcp::nsum": "nsum", "MAIN__": c.main}
		lits, also := gccRules(excl, program, printable, ran, 1_000_000_000)
		if lits[0] != c.lit || !reflect.DeepEqual(also[0], c.also) {
			t.Errorf("main program %q: literal %q, also %q; want %q, %q", c.main, lits[0], also[0], c.lit, c.also)
		}
	}
	if got := alsoList([]string{"a", "b", "c", "d", "e", "f", "g", "h"}); got != "a, b, c, d, e, f and 2 more" {
		t.Errorf("alsoList: %q", got)
	}
}

// TestGCCRulesInternal reads GCC's printable names of gfortran's
// internal procedures from a program (testdata/internal.f90 of
// internal/symbols): their own names, as GCC tests them (inner), under
// the names the views give them (m::outer::inner with -g, inner.0
// without); the rule that leaves out inner is *inner*, which leaves out
// pinner too.
func TestGCCRulesInternal(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("gfortran"); err != nil {
		t.Skip("no gfortran")
	}
	dir := t.TempDir()
	symtest.Copy(t, dir, "internal.f90")
	for _, c := range []struct{ flag, inner, pinner, main string }{
		{"-g", "m::outer::inner", "pinner", "prog"},
		{"-g0", "inner.0", "pinner.1", ""},
	} {
		symtest.Compile(t, dir, "gfortran", c.flag, "-O0", "-o", "prog"+c.flag, "internal.f90")
		f, err := elf.Open(filepath.Join(dir, "prog"+c.flag))
		if err != nil {
			t.Fatal(err)
		}
		fns, err := symbols.FileFunctions(f, false)
		if err != nil {
			t.Fatal(err)
		}
		printable := map[string]string{}
		fortranPrintables(f, fns, printable)
		f.Close()
		if c.flag == "-g0" { // gfortran numbers internal procedures in its own order
			for name := range printable {
				if strings.HasPrefix(name, "inner.") {
					c.inner = name
				} else if strings.HasPrefix(name, "pinner.") {
					c.pinner = name
				}
			}
		}
		want := map[string]string{c.inner: "inner", c.pinner: "pinner", "m::outer": "outer", "MAIN__": c.main}
		if !reflect.DeepEqual(printable, want) {
			t.Errorf("%s: printable names %v, want %v", c.flag, printable, want)
		}
		if c.main == "" {
			continue // no main program's name: every rule stays exact
		}
		ran := []Function{{Name: "main", Visits: 1, ExclNs: 100}, {Name: "MAIN__", Visits: 1, ExclNs: 100},
			{Name: "m::outer", Visits: 1, ExclNs: 1_000_000}, {Name: c.inner, Visits: 1, ExclNs: 10}, {Name: c.pinner, Visits: 1, ExclNs: 10}}
		program := []string{"main", "MAIN__", "m::outer", c.inner, c.pinner}
		lits, also := gccRules([]Function{{Name: c.inner}}, program, printable, ran, 1_000_000_000)
		if lits[0] != "inner" || !reflect.DeepEqual(also[0], []string{c.pinner}) {
			t.Errorf("%s: the rule for %s is %q, also %q; want \"inner\", [%s]", c.flag, c.inner, lits[0], also[0], c.pinner)
		}
	}
}
