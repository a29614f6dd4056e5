package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gopari/internal/runtest"
)

// TestProxySmoke builds the call-path benchmark's proxy plainly, with
// gopari cc --functions and with --functions --filter (the hand-written
// filter), runs each on a small mesh at 2 threads and compares the
// checksums: the measured program behaves as the original. make bench
// times them; this only checks that they build and agree (seconds).
func TestProxySmoke(t *testing.T) {
	t.Parallel()
	gopari, prefix := runtest.Tools(t)
	if _, err := exec.LookPath("g++"); err != nil {
		t.Skip("no g++")
	}
	dir := t.TempDir()
	src, _ := filepath.Abs("../proxy/proxy.cc")
	filter, _ := filepath.Abs("../proxy/proxy.filter")
	builds := map[string][]string{
		"plain":  {"g++"},
		"fn":     {gopari, "cc", "--functions", "g++"},
		"filter": {gopari, "cc", "--functions", "--filter", filter, "g++"},
	}
	var want string
	for _, kind := range []string{"plain", "fn", "filter"} {
		exe := filepath.Join(dir, kind)
		argv := append(builds[kind], "-O2", "-fopenmp", src, "-o", exe)
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Env = append(os.Environ(), "GOPARI_PREFIX="+prefix)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(argv, " "), err, out)
		}
		run := exec.Command(exe, "8", "10")
		run.Dir = dir
		run.Env = append(os.Environ(), "OMP_NUM_THREADS=2", "OMP_WAIT_POLICY=passive",
			"GOPARI_EXPERIMENT_DIRECTORY="+filepath.Join(dir, "exp-"+kind))
		out, err := run.Output()
		if err != nil {
			t.Fatalf("%s: %v", exe, err)
		}
		got := string(out)
		if !strings.Contains(got, "checksum") {
			t.Fatalf("%s printed no checksum: %q", kind, got)
		}
		if want == "" {
			want = got
		} else if got != want {
			t.Errorf("%s printed %q, plain %q", kind, got, want)
		}
	}
}
