package callpath

import (
	"reflect"
	"testing"

	"gopari/internal/profile"
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
	got, also := gccRules(fns, program, ran, 1000)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	for i, a := range also {
		if len(a) > 0 {
			t.Errorf("%s also leaves out %q", excl[i], a)
		}
	}
	// Leaving getX measured takes *geo::Mesh::get* from get.
	if got, _ := gccRules(fns[:2], program, ran, 1000); got[0] != "" || got[1] != "" {
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
		got, also := gccRules(fns[:2], program, r, 1_000_000)
		if got[0] != c.lit || (c.lit != "" && !reflect.DeepEqual(also[0], []string{"geo::Mesh::getX(int) const"})) {
			t.Errorf("getX %+v: %q, also %q; want %q, also getX", c.getX, got[0], also[0], c.lit)
		}
	}
	// A run whose files are gone: exact names only.
	p := &profile.Profile{Mappings: []profile.Mapping{{File: "/nonexistent/prog"}}}
	if _, why := programNames([]*profile.Profile{p}); why != "/nonexistent/prog cannot be read" {
		t.Errorf("programNames of a gone file: %q", why)
	}
}
