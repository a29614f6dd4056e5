package e2e

import (
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"gopari/internal/filter"
	"gopari/internal/symbols"
)

// TestCallPathProposedFilter: gopari filter's proposal for a program of
// tiny accessors (testdata/cpaccess.cpp), and the program rebuilt with
// it through gcc. The functions called often are proposed; those whose
// GCC name no other function holds get *GCC's name*, which GCC applies:
// their bodies call no hook in the rebuilt program. Every function
// proposed, however written, has no node in the rebuilt run's profile,
// and the others keep theirs. --max-mean is wide so that the choice is
// by visits alone, which the program fixes.
func TestCallPathProposedFilter(t *testing.T) {
	needTools(t)
	c := compilers[0]
	if c.name != "gcc" {
		t.Skip("needs gcc, whose exclusion list the filter feeds")
	}
	t.Parallel()
	const printedWant = "840200.000000 2.0\n"
	exe := buildCC(t, c, "cpaccess.cpp", "--functions")
	r := run(t, exe, []string{"OMP_NUM_THREADS=1"})
	if r.stdout != printedWant {
		t.Fatalf("printed %q, want %q", r.stdout, printedWant)
	}
	flt := filepath.Join(t.TempDir(), "proposed.filt")
	if out, err := exec.Command(gopariCommand(t), "filter", "--min-visits", "10000", "--max-mean", "1ms", "-o", flt, r.dir).CombinedOutput(); err != nil {
		t.Fatalf("gopari filter: %v\n%s", err, out)
	}
	f, text, err := filter.ReadFile(flt)
	if err != nil {
		t.Fatal(err)
	}
	var patterns []string
	for _, rule := range f.Regions {
		patterns = append(patterns, rule.Pattern)
	}
	sort.Strings(patterns)
	want := []string{"*mesh::Domain::size*", "*mesh::Domain::volume*", "*mesh::Domain::x*", "*mesh::Domain::xd*", "mesh::Domain::e(int)"}
	if strings.Join(patterns, " ") != strings.Join(want, " ") {
		t.Fatalf("proposed %q, want %q:\n%s", patterns, want, text)
	}

	rebuilt := buildCC(t, c, "cpaccess.cpp", "--functions", "--filter", flt)
	r = run(t, rebuilt, []string{"OMP_NUM_THREADS=1"})
	if r.stdout != printedWant {
		t.Fatalf("rebuilt: printed %q, want %q", r.stdout, printedWant)
	}
	v := newCPView(t, readProfile(t, r), rebuilt)
	checkCallPaths(t, v)
	measured := map[string]bool{}
	for i, n := range v.cp.Nodes {
		if n.Kind != "function" {
			continue
		}
		name := symbols.Demangle(v.names[i])
		measured[name] = true
		if !f.Function(name, v.names[i], "") {
			t.Errorf("rebuilt: %s, which the filter leaves out, has a node", name)
		}
	}
	calls := hookCalls(t, rebuilt)
	for _, k := range []struct {
		name           string
		hooks, measure bool
	}{
		{"mesh::Domain::x(int)", false, false},
		{"mesh::Domain::xd(int)", false, false},
		{"mesh::Domain::size() const", false, false},
		{"mesh::Domain::volume(int) const", false, false},
		{"mesh::Domain::e(int)", true, false}, // its exact name: at run time
		{"mesh::Domain::ex(int)", true, true},
		{"mesh::advance(mesh::Domain&, double)", true, true},
		{"mesh::energy(mesh::Domain&)", true, true},
	} {
		if hooked := calls[k.name] > 0; hooked != k.hooks || measured[k.name] != k.measure {
			t.Errorf("rebuilt: %s calls the hooks %v, measured %v; want %v, %v", k.name, hooked, measured[k.name], k.hooks, k.measure)
		}
	}
}

// hookCalls counts, per function of exe (C++ names demangled by
// objdump), the calls of the entry hook in its body.
func hookCalls(t *testing.T, exe string) map[string]int {
	t.Helper()
	out, err := exec.Command("objdump", "-d", "-C", "--no-show-raw-insn", exe).Output()
	if err != nil {
		t.Skipf("objdump: %v", err)
	}
	n := map[string]int{}
	fn := ""
	for _, line := range strings.Split(string(out), "\n") {
		if strings.HasSuffix(line, ">:") {
			fn = line[strings.Index(line, "<")+1 : len(line)-2]
		} else if strings.Contains(line, "call") && strings.Contains(line, "<__cyg_profile_func_enter>") {
			n[fn]++
		}
	}
	return n
}
