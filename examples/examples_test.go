// Package examples holds small programs that build through gopari's
// compiler wrapper. The test builds each one uninstrumented and through
// the wrapper, runs both and compares what they print.
package examples

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gopari/internal/profile"
)

// tools returns the gopari binary and the runtime's build directory,
// which make fills before it runs the tests.
func tools(t *testing.T) (string, string) {
	t.Helper()
	bin, _ := filepath.Abs("../bin/gopari")
	prefix, _ := filepath.Abs("../build")
	for _, f := range []string{bin, filepath.Join(prefix, "lib", "libpomp.a")} {
		if _, err := os.Stat(f); err != nil {
			t.Fatalf("%v (run make build first)", err)
		}
	}
	return bin, prefix
}

// copyDir copies an example and common.mk into a temporary directory.
func copyDir(t *testing.T, name string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), name)
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	ents, err := os.ReadDir(name)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		switch filepath.Ext(e.Name()) {
		case ".c", ".cpp", ".h", ".hpp":
		default:
			if e.Name() != "Makefile" && e.Name() != "CMakeLists.txt" {
				continue // build products of a make demo in the tree
			}
		}
		b, err := os.ReadFile(filepath.Join(name, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644)
	}
	b, _ := os.ReadFile("common.mk")
	os.WriteFile(filepath.Join(filepath.Dir(dst), "common.mk"), b, 0o644)
	return dst
}

func run(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// onlyProfile returns the single experiment directory in dir.
func onlyProfile(t *testing.T, dir string) *profile.Profile {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(dir, "gopari-*", "profile.json"))
	if len(m) != 1 {
		t.Fatalf("want one profile in %s, found %v", dir, m)
	}
	p, err := profile.Read(m[0])
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestMakeExamples(t *testing.T) {
	bin, prefix := tools(t)
	for _, ex := range []string{"nqueens", "heat", "nested", "particles"} {
		ex := ex
		t.Run(ex, func(t *testing.T) {
			t.Parallel()
			dir := copyDir(t, ex)
			env := []string{"GOPARI=" + bin, "GOPARI_PREFIX=" + prefix, "OMP_NUM_THREADS=2"}
			run(t, dir, env, "make", "-s", "WRAP=")
			want := run(t, dir, env, "make", "-s", "run")
			run(t, dir, env, "make", "-s", "clean")
			run(t, dir, env, "make", "-s", "-j4")
			got := run(t, dir, env, "make", "-s", "run")
			if got != want {
				t.Errorf("instrumented build printed\n%s\nuninstrumented\n%s", got, want)
			}
			p := onlyProfile(t, dir)
			if len(p.Regions) == 0 || p.UnmatchedEvents != 0 {
				t.Errorf("profile: %d regions, %d unmatched events", len(p.Regions), p.UnmatchedEvents)
			}
		})
	}
}

func TestCMakeExample(t *testing.T) {
	bin, prefix := tools(t)
	if _, err := exec.LookPath("cmake"); err != nil {
		t.Skip("cmake not installed")
	}
	dir := copyDir(t, "cmake")
	env := []string{"GOPARI_PREFIX=" + prefix, "OMP_NUM_THREADS=2", "PATH=" + filepath.Dir(bin) + ":" + os.Getenv("PATH")}
	run(t, dir, env, "cmake", "-S", ".", "-B", "plain")
	run(t, dir, env, "cmake", "--build", "plain")
	want := run(t, dir, env, "plain/histogram")
	run(t, dir, env, "cmake", "-S", ".", "-B", "inst", "-DCMAKE_C_COMPILER_LAUNCHER=gopari;cc", "-DCMAKE_C_LINKER_LAUNCHER=gopari;cc")
	build := run(t, dir, env, "cmake", "--build", "inst", "-v")
	if !strings.Contains(build, "gopari cc") {
		t.Errorf("the build did not go through gopari:\n%s", build)
	}
	got := run(t, dir, env, "inst/histogram")
	if got != want {
		t.Errorf("instrumented build printed\n%s\nuninstrumented\n%s", got, want)
	}
	p := onlyProfile(t, dir)
	var tasks uint64
	for _, ts := range p.Tasks {
		tasks += ts.Created
	}
	if tasks != 64 {
		t.Errorf("%d tasks in the profile, want 64", tasks)
	}
}
