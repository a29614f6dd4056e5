package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopari/internal/events/evtest"
)

// TestStdoutFull runs the analysis commands with standard output on a
// full device: each must say so and exit 1, never exit 0 having written
// nothing (writefail.txtar covers instrument, diff, config and report).
func TestStdoutFull(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skipf("no /dev/full: %v", err)
	}
	defer full.Close()
	tmp := t.TempDir()
	exp := filepath.Join(tmp, "exp")
	if _, _, err := evtest.FibCreate(exp, 8, 2, 2, 1, 100, nil); err != nil {
		t.Fatal(err)
	}
	runs := filepath.Join(tmp, "runs")
	for _, n := range []int{1, 2, 4} {
		fakeProfile(t, runs, n, nil)
	}
	for _, args := range [][]string{
		{"grains", exp},
		{"trace", "--chrome", filepath.Join(tmp, "out.json"), exp},
		{"model", runs},
		{"model", "--json", runs},
	} {
		var errb bytes.Buffer
		code := run(append([]string{"gopari"}, args...), strings.NewReader(""), full, &errb)
		if code != 1 || !strings.Contains(errb.String(), "gopari: write standard output: no space left on device") {
			t.Errorf("gopari %s > /dev/full: exit %d, stderr %q", strings.Join(args, " "), code, errb.String())
		}
	}
}
