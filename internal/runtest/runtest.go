// Package runtest builds C programs through the repository's gopari
// (bin/gopari cc, which make builds before it runs the tests), runs them
// and returns their experiment directories: what tests of the analysis
// commands need from real runs with known values.
package runtest

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// Tools returns the repository's bin/gopari and its build directory
// (GOPARI_PREFIX), failing the test when make has not built them.
func Tools(t testing.TB) (gopari, prefix string) {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	gopari, prefix = filepath.Join(root, "bin", "gopari"), filepath.Join(root, "build")
	for _, f := range []string{gopari, filepath.Join(prefix, "lib", "libpomp.a")} {
		if _, err := os.Stat(f); err != nil {
			t.Fatalf("%v (run make build first)", err)
		}
	}
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("no gcc")
	}
	return gopari, prefix
}

// Build compiles the C sources with gopari cc COMPILER -O2 -fopenmp
// into dir/name and returns the executable's path.
func Build(t testing.TB, dir, compiler, name string, srcs ...string) string {
	t.Helper()
	gopari, prefix := Tools(t)
	exe := filepath.Join(dir, name)
	args := append([]string{"cc", compiler, "-O2", "-fopenmp", "-o", exe}, srcs...)
	cmd := exec.Command(gopari, args...)
	cmd.Env = append(os.Environ(), "GOPARI_PREFIX="+prefix)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gopari %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return exe
}

// Timeout bounds every run.
const Timeout = 120 * time.Second

// Run runs argv in dir with env added, its experiment directory set to
// dir/exp, and returns that directory. A failing run fails the test.
func Run(t testing.TB, dir string, env []string, argv ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	exp := filepath.Join(dir, "exp")
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "GOPARI_EXPERIMENT_DIRECTORY="+exp, "OMP_WAIT_POLICY=passive"), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(argv, " "), err, out.Bytes())
	}
	return exp
}

// ClangWorks reports whether clang-14 and clang++-14 build and run an
// OpenMP program with libomp.
var ClangWorks = sync.OnceValue(func() bool {
	dir, err := os.MkdirTemp("", "gopari-clang-")
	if err != nil {
		return false
	}
	defer os.RemoveAll(dir)
	src, exe := filepath.Join(dir, "p.cpp"), filepath.Join(dir, "p")
	os.WriteFile(src, []byte("int main() { int n = 0;\n#pragma omp parallel\n{\n#pragma omp atomic\nn++;\n}\nreturn n > 0 ? 0 : 1; }\n"), 0o644)
	if exec.Command("clang++-14", "-fopenmp=libomp", src, "-o", exe).Run() != nil {
		return false
	}
	_, err = exec.LookPath("clang-14")
	return err == nil && exec.Command(exe).Run() == nil
})
