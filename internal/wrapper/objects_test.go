package wrapper

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestOwnRuntimeNamed: a link that names gopari's libpomp.a itself, as
// CMake does when gopari-gfortran is the compiler (it takes libpomp.a
// for one of the compiler's implicit libraries), gets no warning that
// the runtime uses OpenMP uncompiled through gopari; a copy of it under
// another name does, since it is then a user's archive.
func TestOwnRuntimeNamed(t *testing.T) {
	t.Parallel()
	_, lib, err := RuntimePaths()
	if err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	src, obj := filepath.Join(dir, "m.c"), filepath.Join(dir, "m.o")
	os.WriteFile(src, []byte("int main(void) { return 0; }\n"), 0o666)
	if out, err := exec.Command("gcc", "-c", src, "-o", obj).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	b, err := os.ReadFile(lib)
	if err != nil {
		t.Fatal(err)
	}
	copied := filepath.Join(dir, "libother.a")
	if err := os.WriteFile(copied, b, 0o666); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		archive string
		warned  bool
	}{{lib, false}, {copied, true}} {
		var stderr bytes.Buffer
		argv := []string{"gcc", obj, c.archive, "-o", filepath.Join(dir, "prog")}
		if err := Run(argv, Options{DryRun: true, PrintDiags: nopDiags}, nil, io.Discard, &stderr); err != nil {
			t.Fatalf("gopari cc %q: %v\n%s", argv, err, stderr.String())
		}
		if got := strings.Contains(stderr.String(), c.archive+"("); got != c.warned {
			t.Errorf("linking %s: warned %v, want %v:\n%s", c.archive, got, c.warned, stderr.String())
		}
	}
}
