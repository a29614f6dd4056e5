package symbols

import (
	"cmp"
	"debug/elf"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gopari/internal/symbols/symtest"
)

// TestFuncSymbols reads the function symbols of a C program (its symbol
// table) and of the C library (its dynamic one) in place, read and from
// a mapping of the file, and finds exactly what debug/elf's readers
// find.
func TestFuncSymbols(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("no gcc")
	}
	dir := t.TempDir()
	symtest.Copy(t, dir, "prog.c", "lib.c")
	symtest.Compile(t, dir, "gcc", "-g", "-O2", "-o", "prog", "prog.c", "lib.c")
	for _, path := range []string{filepath.Join(dir, "prog"), "/lib/x86_64-linux-gnu/libc.so.6"} {
		f, err := elf.Open(path)
		if err != nil {
			t.Logf("%s: %v (skipped)", path, err)
			continue
		}
		defer f.Close()
		syms, err := f.Symbols()
		if err != nil || len(syms) == 0 {
			syms, _ = f.DynamicSymbols()
		}
		var want []string
		for _, s := range syms {
			if elf.ST_TYPE(s.Info) == elf.STT_FUNC && s.Value != 0 && s.Section != elf.SHN_UNDEF {
				want = append(want, fmt.Sprintf("%x %d %s", s.Value, s.Size, s.Name))
			}
		}
		mf, data := mapELF(path)
		if mf == nil {
			t.Fatalf("%s: cannot be mapped", path)
		}
		for _, file := range [][]byte{nil, data} {
			ef := f
			if file != nil {
				ef = mf
			}
			fs, str := funcSymbols(ef, file)
			var got []string
			for i, s := range fs {
				if int(s.order) != i {
					t.Fatalf("%s: symbol %d has order %d", path, i, s.order)
				}
				got = append(got, fmt.Sprintf("%x %d %s", s.Value, s.Size, nameAt(str, s.name)))
			}
			if len(want) < 3 || !slices.Equal(got, want) {
				t.Errorf("%s (mapped: %v): %d function symbols read in place, %d by debug/elf (or fewer than 3)", path, file != nil, len(got), len(want))
			}
		}
	}
}

// TestSortByValue sorts random symbols, many at equal addresses, as a
// stable sort by address does.
func TestSortByValue(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 2, 3, 100, 5000} {
		fs := make([]funcSym, n)
		for i := range fs {
			v := 0x400000 + rng.Uint64N(2000)*16
			if i%7 == 0 {
				v = rng.Uint64() // other bytes differ too
			}
			fs[i] = funcSym{Value: v, Size: uint64(i), order: int32(i)}
		}
		want := slices.Clone(fs)
		slices.SortStableFunc(want, func(a, b funcSym) int { return cmp.Compare(a.Value, b.Value) })
		if got := sortByValue(fs); !slices.Equal(got, want) {
			t.Errorf("%d symbols: sorted differently from a stable sort by address", n)
		}
	}
}

// TestFortranInternalNames names gfortran's internal procedures (local
// symbols such as inner.0) with their hosts, from the debug information,
// as flang's names read: m::outer::inner, and pinner of the main
// program; built without -g they keep their symbols' names. The views
// (a Resolver's lookup) and the run's filter (Functions) name every
// function of the program alike.
func TestFortranInternalNames(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("gfortran"); err != nil {
		t.Skip("no gfortran")
	}
	dir := t.TempDir()
	symtest.Copy(t, dir, "internal.f90")
	for _, debug := range []bool{true, false} {
		flag := map[bool]string{true: "-g", false: "-g0"}[debug]
		symtest.Compile(t, dir, "gfortran", flag, "-O0", "-o", "prog"+flag, "internal.f90")
		ef, err := openELF(filepath.Join(dir, "prog"+flag), false)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, s := range ef.funcs {
			name := nameAt(ef.strtab, s.name)
			if base, _, _ := strings.Cut(name, "."); base == "inner" || base == "pinner" || name == "__m_MOD_outer" {
				got[base] = name + " -> " + ef.lookup(s.Value, true).Func
			}
		}
		// The run's filter names every function as the views do.
		fs, _, err := Functions(filepath.Join(dir, "prog"+flag), "", false)
		if err != nil || len(fs) == 0 {
			t.Fatalf("%s: %d functions: %v", flag, len(fs), err)
		}
		for _, f := range fs {
			if v := ef.lookup(f.Addr, true).Func; v != f.Name {
				t.Errorf("%s: %s is %q to the run's filter, %q to the views", flag, f.Mangled, f.Name, v)
			}
		}
		for base, want := range map[string]string{"inner": "m::outer::inner", "pinner": "pinner", "__m_MOD_outer": "m::outer"} {
			g, ok := got[base]
			if !ok {
				t.Fatalf("%s: no symbol of %s: %v", flag, base, got)
			}
			name, fn, _ := strings.Cut(g, " -> ")
			if !debug && base != "__m_MOD_outer" {
				want = name
			}
			if fn != want {
				t.Errorf("%s: %s is named %q, want %q", flag, name, fn, want)
			}
		}
	}
}
