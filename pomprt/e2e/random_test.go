package e2e

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gopari/internal/randprog"
	"gopari/parser"
	"gopari/rewrite"
)

var (
	randProgs = flag.Int("randprogs", 200, "random programs for TestRandomPrograms")
	randSeed  = flag.Uint64("randseed", 1, "seed of the first random program")
)

// programsPerFile random programs share one source file and executable:
// compiling and linking, not running, is what costs.
const programsPerFile = 10

// randomEnvs are the runs of each random program: 1, 2 and 3 threads,
// with cancellation enabled (the programs' cancels never fire, but the
// runtime takes other paths) and with nested teams.
var randomEnvs = [][]string{
	{"OMP_NUM_THREADS=1"},
	{"OMP_NUM_THREADS=2", "OMP_CANCELLATION=true"},
	{"OMP_NUM_THREADS=3", "OMP_MAX_ACTIVE_LEVELS=3", "OMP_WAIT_POLICY=passive"},
}

// TestRandomPrograms generates random OpenMP programs (internal/randprog),
// builds each uninstrumented and instrumented, runs both at 1, 2 and 3
// threads and checks that every run prints what the uninstrumented
// program printed on one thread, and that every profile is consistent.
//
// go test ./pomprt/e2e -run TestRandomPrograms -args -randprogs 5000
// runs more; -randseed picks others.
func TestRandomPrograms(t *testing.T) {
	needTools(t)
	for first := 0; first < *randProgs; first += programsPerFile {
		c := compilers[(first/programsPerFile)%len(compilers)]
		lo := *randSeed + uint64(first)
		n := min(programsPerFile, *randProgs-first)
		t.Run(fmt.Sprintf("%s/seeds-%d-%d", c.name, lo, lo+uint64(n)-1), func(t *testing.T) {
			t.Parallel()
			testRandomFile(t, c, lo, n, rewrite.Options{})
		})
	}
}

// testRandomFile tests the n programs from seed lo in one file,
// instrumented with opts; extra is added to the environment of every
// instrumented run.
func testRandomFile(t *testing.T, c compiler, lo uint64, n int, opts rewrite.Options, extra ...string) {
	clang := strings.Contains(c.name, "clang")
	var src strings.Builder
	src.WriteString("#include <stdio.h>\n#include <omp.h>\n")
	for s := lo; s < lo+uint64(n); s++ {
		src.Write(randprog.Generate(randprog.Config{Seed: s, Name: fmt.Sprintf("prog%d", s), Clang: clang, Size: 12 + int(s%4)*12}))
	}
	src.WriteString("int main(void)\n{\n")
	for s := lo; s < lo+uint64(n); s++ {
		fmt.Fprintf(&src, "  printf(\"seed %d: \");\n  fflush(stdout);\n  prog%d();\n", s, s)
	}
	src.WriteString("  return 0;\n}\n")

	dir := t.TempDir()
	name := fmt.Sprintf("random%d.c", lo)
	orig := filepath.Join(dir, name)
	if err := os.WriteFile(orig, []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	res, diags := rewrite.Source(name, []byte(src.String()), parser.Config{}, opts)
	if res == nil || diags.HasErrors() {
		t.Fatalf("instrumenting: %v", diags.Err())
	}
	inst := filepath.Join(dir, "random.pomp.c")
	if err := os.WriteFile(inst, res.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	opt := append([]string{"-O1", "-w"}, c.openmp...)
	origExe, instExe := filepath.Join(dir, "orig"), filepath.Join(dir, "inst")
	compileOrFail(t, c.cc, append(opt, orig, "-o", origExe)...)
	compileOrFail(t, c.cc, append(append(opt, "-I", incDir, inst, "-o", instExe, filepath.Join(libDir, "libpomp.a")), c.linkLibs...)...)

	var want string
	for i, env := range randomEnvs {
		o := run(t, origExe, env)
		if o.code != 0 {
			t.Fatalf("%v: the uninstrumented programs exited with %d\n%s%s", env, o.code, o.stdout, o.stderr)
		}
		if i == 0 {
			want = o.stdout
		} else if o.stdout != want {
			// A generator bug, or one in the compiler's OpenMP.
			t.Errorf("%v: the uninstrumented programs printed\n%s\nand on one thread\n%s", env, o.stdout, want)
		}
		got := run(t, instExe, append(env[:len(env):len(env)], extra...))
		if got.code != 0 || got.stdout != o.stdout {
			t.Errorf("%v: instrumented, the programs printed (exit %d)\n%s\nuninstrumented\n%s\nstderr: %s",
				env, got.code, got.stdout, o.stdout, got.stderr)
			continue
		}
		prof := readProfile(t, got)
		if prof.UnmatchedEvents != 0 {
			t.Errorf("%v: %d unmatched events", env, prof.UnmatchedEvents)
		}
		checkInvariants(t, prof)
	}
}

func compileOrFail(t *testing.T, cc string, args ...string) {
	t.Helper()
	if out, err := exec.Command(cc, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", cc, strings.Join(args, " "), err, out)
	}
}
