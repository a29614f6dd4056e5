// Package symtest builds and runs test programs that print the addresses
// of their functions and their /proc/self/maps, for the tests of
// internal/symbols and of the views that resolve call paths.
package symtest

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"gopari/internal/profile"
)

// Compile runs a compiler (cc: "gcc", "g++") with args in dir, and fails
// the test on error.
func Compile(t testing.TB, dir, cc string, args ...string) {
	t.Helper()
	cmd := exec.Command(cc, args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", cc, strings.Join(args, " "), err, out)
	}
}

// Run runs exe, which prints lines "NAME ADDRESS", then "maps" and its
// /proc/self/maps, and returns the addresses by name and the file
// mappings as the runtime records them.
func Run(t testing.TB, exe string, env ...string) (map[string]uint64, []profile.Mapping) {
	t.Helper()
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v", exe, err)
	}
	addrs := map[string]uint64{}
	var maps []profile.Mapping
	inMaps := false
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) == 1 && f[0] == "maps":
			inMaps = true
		case !inMaps && len(f) == 2:
			a, err := strconv.ParseUint(strings.TrimPrefix(f[1], "0x"), 16, 64)
			if err != nil {
				t.Fatalf("%s: bad line %q", exe, sc.Text())
			}
			addrs[f[0]] = a
		case inMaps && len(f) >= 6 && strings.HasPrefix(f[5], "/"):
			se := strings.SplitN(f[0], "-", 2)
			s, _ := strconv.ParseUint(se[0], 16, 64)
			l, _ := strconv.ParseUint(se[1], 16, 64)
			o, _ := strconv.ParseUint(f[2], 16, 64)
			maps = append(maps, profile.Mapping{Start: s, Limit: l, Offset: o, File: f[5]})
		}
	}
	return addrs, maps
}

// Line is the line of src (a file in dir) that holds the marker
// "/* @name */"; it fails the test without one.
func Line(t testing.TB, src, name string) int {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, "/* @"+name+" */") {
			return i + 1
		}
	}
	t.Fatalf("%s: no marker @%s", src, name)
	return 0
}

// Copy copies the files of internal/symbols/testdata named into dir.
func Copy(t testing.TB, dir string, names ...string) {
	t.Helper()
	_, self, _, _ := runtimeCaller()
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(filepath.Dir(self), "..", "testdata", n))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, n), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func runtimeCaller() (uintptr, string, int, bool) { return runtime.Caller(0) }
