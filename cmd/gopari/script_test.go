package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	os.Exit(testscript.RunMain(m, map[string]func() int{
		"gopari": func() int { return run(os.Args, os.Stdin, os.Stdout, os.Stderr) },
	}))
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
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
	})
	if errLib != nil {
		t.Errorf("scripts that build programs were skipped: %v (run make build)", errLib)
	}
}
