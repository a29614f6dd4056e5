package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"gopari/internal/runtest"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"gopari":     func() { os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr)) },
		"gopari-gcc": func() { os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr)) }, // a one-word wrapper
	})
}

// TestScripts runs the command-line scripts in testdata/script. Scripts
// that compile find the runtime through GOPARI_PREFIX, the build
// directory that make fills.
func TestScripts(t *testing.T) {
	prefix, err := filepath.Abs("../../build")
	if err != nil {
		t.Fatal(err)
	}
	_, errLib := os.Stat(filepath.Join(prefix, "lib", "libpomp.a"))
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(e *testscript.Env) error {
			e.Setenv("GOPARI_PREFIX", prefix)
			e.Setenv("OMP_NUM_THREADS", "2")
			return nil
		},
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "runtime":
				return errLib == nil, nil
			case "cmake":
				_, err := exec.LookPath("cmake")
				return err == nil, nil
			case "unwritable":
				return canDropPrivileges(), nil
			case "clang":
				return runtest.ClangWorks(), nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"unpriv": unpriv,
		},
	})
	if errLib != nil {
		t.Errorf("scripts that build programs were skipped: %v (run make build)", errLib)
	}
}

// dropDAC is the setpriv command that runs a program as root without the
// capabilities that let root write into any directory.
var dropDAC = []string{"setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner,-linux_immutable", "--"}

// canDropPrivileges reports whether unpriv can run a program for which a
// directory of mode 0555 is unwritable: any user but root, or root
// through setpriv.
func canDropPrivileges() bool {
	if os.Geteuid() != 0 {
		return true
	}
	return exec.Command(dropDAC[0], append(dropDAC[1:], "true")...).Run() == nil
}

// unpriv runs a command for which directories of mode 0555 are not
// writable, even as root: "unpriv gopari instrument x.c -o ro/y.c".
// The condition [unwritable] says whether it can.
func unpriv(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) == 0 {
		ts.Fatalf("usage: unpriv command [args...]")
	}
	if os.Geteuid() == 0 {
		args = append(append([]string(nil), dropDAC...), args...)
	}
	err := ts.Exec(args[0], args[1:]...)
	switch {
	case err != nil && !neg:
		ts.Fatalf("unexpected failure: %v", err)
	case err == nil && neg:
		ts.Fatalf("unexpected success")
	}
}
