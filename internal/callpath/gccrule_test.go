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
	if got := gccRules(fns, program); !reflect.DeepEqual(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	// Leaving getX measured takes *geo::Mesh::get* from get.
	if got := gccRules(fns[:2], program); got[0] != "" || got[1] != "" {
		t.Errorf("with getX measured: %q, want exact names", got)
	}
	// A run whose files are gone: exact names only.
	p := &profile.Profile{Mappings: []profile.Mapping{{File: "/nonexistent/prog"}}}
	if _, why := programNames([]*profile.Profile{p}); why != "/nonexistent/prog cannot be read" {
		t.Errorf("programNames of a gone file: %q", why)
	}
}
