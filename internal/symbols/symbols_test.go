package symbols_test

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gopari/internal/symbols"
	"gopari/internal/symbols/symtest"
)

func need(t *testing.T, tools ...string) {
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s", tool)
		}
	}
}

// TestResolveC resolves the functions a C program printed the addresses
// of, built PIE and not, at -O0 and -O2, one of them in a shared library.
func TestResolveC(t *testing.T) {
	t.Parallel()
	need(t, "gcc")
	for _, c := range []struct {
		name, cc string
		flags    []string
	}{
		{"O0-nopie", "gcc", []string{"-O0", "-no-pie", "-fno-pie"}},
		{"O2-pie", "gcc", []string{"-O2", "-fPIE", "-pie"}},
		{"O0-pie", "gcc", []string{"-O0", "-fPIE", "-pie"}},
		{"clang-O2-pie", "clang-14", []string{"-O2", "-fPIE", "-pie"}},
		{"clang-O0-nopie", "clang-14", []string{"-O0", "-no-pie", "-fno-pie"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			need(t, c.cc)
			dir := t.TempDir()
			symtest.Copy(t, dir, "prog.c", "lib.c")
			symtest.Compile(t, dir, c.cc, "-g", "-O2", "-fPIC", "-shared", "-o", "libcp.so", "lib.c")
			symtest.Compile(t, dir, c.cc, append([]string{"-g", "-DWITH_LIB", "-o", "prog", "prog.c", "-L.", "-lcp"}, c.flags...)...)
			addrs, maps := symtest.Run(t, filepath.Join(dir, "prog"), "LD_LIBRARY_PATH="+dir)
			r := symbols.New(maps)
			got := r.Resolve([]uint64{addrs["compute"], addrs["helper"], addrs["main"], addrs["lib_fn"]})
			for _, w := range []struct{ name, src string }{{"compute", "prog.c"}, {"helper", "prog.c"}, {"main", "prog.c"}, {"lib_fn", "lib.c"}} {
				f := got[addrs[w.name]]
				line := symtest.Line(t, filepath.Join(dir, w.src), w.name)
				if !f.Known || (f.Func != w.name && !strings.HasPrefix(f.Func, w.name+".")) || filepath.Base(f.File) != w.src || f.Line != line {
					t.Errorf("%s at %#x: got %+v, want %s at %s:%d", w.name, addrs[w.name], f, w.name, w.src, line)
				}
			}
			if w := r.Warnings(); len(w) > 0 {
				t.Errorf("warnings: %q", w)
			}
		})
	}
}

// TestResolveCXX demangles templates, a static member in a namespace
// and a lambda, and finds their lines.
func TestResolveCXX(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		cxx, opt, lambda string
	}{
		{"g++", "-O0", "main::{lambda(int)#1}::_FUN(int)"},
		{"g++", "-O2", "main::{lambda(int)#1}::_FUN(int)"},
		{"clang++-14", "-O0", "main::$_0::__invoke(int)"},
		{"clang++-14", "-O2", "main::$_0::__invoke(int)"},
	} {
		t.Run(c.cxx+c.opt, func(t *testing.T) {
			t.Parallel()
			need(t, c.cxx)
			dir := t.TempDir()
			symtest.Copy(t, dir, "prog.cpp")
			symtest.Compile(t, dir, c.cxx, "-g", c.opt, "-o", "prog", "prog.cpp")
			addrs, maps := symtest.Run(t, filepath.Join(dir, "prog"))
			r := symbols.New(maps)
			src := filepath.Join(dir, "prog.cpp")
			for _, w := range []struct{ key, fn, marker string }{
				{"twice", "int geo::twice<int>(int)", "twice"},
				{"twiced", "double geo::twice<double>(double)", "twice"},
				{"make", "geo::Widget::make(int)", "make"},
				{"lambda", c.lambda, "lambda"},
			} {
				f := r.Frame(addrs[w.key])
				line := symtest.Line(t, src, w.marker)
				if f.Func != w.fn || filepath.Base(f.File) != "prog.cpp" || f.Line != line || !strings.HasPrefix(f.Mangled, "_Z") {
					t.Errorf("%s at %#x: got %+v, want %s at prog.cpp:%d", w.key, addrs[w.key], f, w.fn, line)
				}
			}
		})
	}
}

// TestDegrade: without DWARF a function keeps its symbol's name; a
// stripped program gives addresses; a rebuilt file is not trusted.
func TestDegrade(t *testing.T) {
	t.Parallel()
	need(t, "gcc", "strip", "readelf")
	dir := t.TempDir()
	symtest.Copy(t, dir, "prog.c")
	symtest.Compile(t, dir, "gcc", "-O0", "-o", "nodebug", "prog.c")
	symtest.Compile(t, dir, "strip", "-o", "stripped", "nodebug")

	addrs, maps := symtest.Run(t, filepath.Join(dir, "nodebug"))
	out, err := exec.Command("readelf", "-n", filepath.Join(dir, "nodebug")).Output()
	_, id, ok := strings.Cut(string(out), "Build ID: ")
	if err != nil || !ok {
		t.Fatalf("readelf -n: %v %s", err, out)
	}
	for i := range maps {
		if maps[i].File == filepath.Join(dir, "nodebug") {
			maps[i].BuildID = strings.Fields(id)[0]
		}
	}
	f := symbols.New(maps).Frame(addrs["compute"])
	if f.Func != "compute" || !f.Known || f.File != "" || f.Line != 0 {
		t.Errorf("no DWARF: got %+v, want compute without a line", f)
	}

	addrs, maps = symtest.Run(t, filepath.Join(dir, "stripped"))
	f = symbols.New(maps).Frame(addrs["compute"])
	if f.Known || !strings.HasPrefix(f.Func, "0x") || !strings.Contains(f.Func, "(stripped+0x") {
		t.Errorf("stripped: got %+v, want an address", f)
	}

	for i := range maps {
		maps[i].BuildID = "0123"
	}
	r := symbols.New(maps)
	if f := r.Frame(addrs["compute"]); f.Known {
		t.Errorf("rebuilt file trusted: %+v", f)
	}
	r.Frame(addrs["main"])
	if w := r.Warnings(); len(w) != 1 || !strings.Contains(w[0], "build ID") {
		t.Errorf("warnings %q, want one about the build ID", w)
	}
	if f := r.Frame(0x10); f.Func != "0x10" {
		t.Errorf("unmapped: %+v", f)
	}
}

func TestIsOutlined(t *testing.T) {
	for name, want := range map[string]bool{
		"main._omp_fn.0": true, ".omp_outlined.": true, ".omp_outlined._debug__": true, ".omp_outlined..3": true,
		".omp_task_entry.": true, "__omp_offloading_10303_4e8f_main_l5": true, "compute._omp_fn.12": true,
		"_QQmain..omp_par": true, "_QMfortran_fib_modPfib..omp_par.1": true, "fortran_fib_mod::fib..omp_par.1": true,
		"main": false, "omp_get_thread_num": false, "geo::twice<int>(int)": false, "omp_par_sum": false,
	} {
		if got := symbols.IsOutlined(name); got != want {
			t.Errorf("IsOutlined(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestDemangle: C++ names demangled, Fortran module procedures as
// gfortran and flang spell them made mod::name (an outlined function's
// suffix kept), and every other name, look-alikes included, unchanged.
func TestDemangle(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"_Z3sumi", "sum(int)"},
		{"__work_mod_MOD_spin", "work_mod::spin"},
		{"__work_mod_MOD_top._omp_fn.0", "work_mod::top._omp_fn.0"},
		{"__m2_MOD_solve_2d", "m2::solve_2d"},
		{"_QMwork_modPspin", "work_mod::spin"},
		{"_QPspin", "spin"},
		{"_QPfib._omp_fn.1", "fib._omp_fn.1"},
		{"MAIN__", "MAIN__"},
		{"_QQmain", "_QQmain"},
		{"__libc_start_main", "__libc_start_main"},
		{"__MOD_x", "__MOD_x"},
		{"__m_MOD_", "__m_MOD_"},
		{"__1m_MOD_x", "__1m_MOD_x"},
		{"_QMWorkPspin", "_QMWorkPspin"},
		{"_QP", "_QP"},
		{"spin_", "spin_"},
		{"_QMmFouterPinner", "m::outer::inner"},
		{"_QMmFouterPinner..omp_par", "m::outer::inner..omp_par"},
		{"_QFPpinner", "pinner"},
		{"_QFsubPfun", "sub::fun"},
		{"_QMmodSs1modSs2modFsubPfun", "mod::s1mod::s2mod::sub::fun"},
		{"_QBvariables", "_QBvariables"},
		{"_QMmodEintvar", "_QMmodEintvar"},
		{"_QMmPaPb", "_QMmPaPb"},
		{"_QMPspin", "_QMPspin"},
		{"_QFPP", "_QFPP"},
		{"_QM1Px", "_QM1Px"},
		{"main", "main"},
	} {
		if got := symbols.Demangle(c.in); got != c.want {
			t.Errorf("symbols.Demangle(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
