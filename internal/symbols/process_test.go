package symbols

import (
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"gopari/internal/symbols/symtest"
)

// TestHooked tells a library built with -finstrument-functions, which
// imports the hook, from one without it and from the C library, which
// defines a no-op hook of its own.
func TestHooked(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("no gcc")
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "l.c")
	os.WriteFile(src, []byte("int work(int x) { return x * 3; }\n"), 0o666)
	symtest.Compile(t, dir, "gcc", "-shared", "-fPIC", "-finstrument-functions", "-o", "hooked.so", "l.c")
	symtest.Compile(t, dir, "gcc", "-shared", "-fPIC", "-o", "plain.so", "l.c")
	for _, c := range []struct {
		file string
		want bool
	}{{filepath.Join(dir, "hooked.so"), true}, {filepath.Join(dir, "plain.so"), false}, {"/lib/x86_64-linux-gnu/libc.so.6", false}} {
		f, err := elf.Open(c.file)
		if err != nil {
			t.Logf("%s: %v", c.file, err)
			continue
		}
		if got := hooked(f); got != c.want {
			t.Errorf("%s: hooked %v, want %v", c.file, got, c.want)
		}
		f.Close()
	}
}
