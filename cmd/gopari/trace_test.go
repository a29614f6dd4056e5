package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopari/internal/chrome"
	"gopari/internal/events/evtest"
)

func gopari(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(append([]string{"gopari"}, args...), strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func TestTraceChrome(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "exp")
	if _, err := evtest.Mixed(dir); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "run.json")
	code, stdout, stderr := gopari(t, "trace", "--chrome", out, dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "wrote "+out) || !strings.Contains(stderr, "dropped 5 records") {
		t.Errorf("stdout %q stderr %q", stdout, stderr)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := chrome.Check(f); err != nil {
		t.Error(err)
	}
}

// TestTraceHostile checks that damaged traces give an error naming the
// file and offset, and leave no output behind.
func TestTraceHostile(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		damage func(path string) error
		want   string
	}{
		{"truncated", func(p string) error {
			st, _ := os.Stat(p)
			return os.Truncate(p, st.Size()-5)
		}, "thread-000000.evt: offset 32: truncated block (got "},
		{"magic", func(p string) error { return patch(p, 0, "XXXXXXXX") }, `thread-000000.evt: offset 0: not a gopari event stream (magic "XXXXXXXX", want "GOPARIEV")`},
		{"newer", func(p string) error { return patch(p, 8, "\x07\x00") }, "thread-000000.evt: offset 8: format version 7 is newer than this gopari reads (1); update gopari"},
		{"block cut", func(p string) error { return patch(p, 36, "\x00\x00\x01\x00") }, "thread-000000.evt: offset 32: truncated block (got "},
		{"missing", func(p string) error { return os.Remove(p) }, "thread-000000.evt: no such file or directory"},
	} {
		dir := filepath.Join(t.TempDir(), "exp")
		if _, err := evtest.Mixed(dir); err != nil {
			t.Fatal(err)
		}
		if err := tc.damage(filepath.Join(dir, "events", "thread-000000.evt")); err != nil {
			t.Fatal(err)
		}
		outDir := t.TempDir()
		out := filepath.Join(outDir, "run.json")
		code, _, stderr := gopari(t, "trace", "--chrome", out, dir)
		if code != 1 || !strings.Contains(stderr, tc.want) || strings.Contains(stderr, "panic") {
			t.Errorf("%s: exit %d, stderr %q, want %q", tc.name, code, stderr, tc.want)
		}
		if ents, _ := os.ReadDir(outDir); len(ents) != 0 {
			t.Errorf("%s: left %v behind", tc.name, ents[0].Name())
		}
	}
}

func patch(path string, off int64, s string) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = f.WriteAt([]byte(s), off)
	return err
}

func TestTraceUsage(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if code, _, stderr := gopari(t, "trace", dir); code != 2 || !strings.Contains(stderr, "nothing to do") {
		t.Errorf("no output flag: exit %d %q", code, stderr)
	}
	if code, _, stderr := gopari(t, "trace", "--chrome", "x.json", dir); code != 1 || !strings.Contains(stderr, "no profile.json") {
		t.Errorf("not an experiment: exit %d %q", code, stderr)
	}
	os.WriteFile(filepath.Join(dir, "profile.json"), []byte(`{"format":"gopari-profile","version":1,"clock":"tsc"}`), 0o644)
	if code, _, stderr := gopari(t, "trace", "--chrome", "x.json", dir); code != 1 || !strings.Contains(stderr, "GOPARI_MODE=trace") {
		t.Errorf("no trace: exit %d %q", code, stderr)
	}
}
