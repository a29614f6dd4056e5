package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopari/internal/events/evtest"
)

func TestGrainsCommand(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	dir, base := filepath.Join(tmp, "exp"), filepath.Join(tmp, "base")
	if _, _, err := evtest.FibCreate(dir, 10, 2, 2, 1, 100, nil); err != nil {
		t.Fatal(err)
	}
	if _, _, err := evtest.FibCreate(base, 10, 2, 1, 1, 100, nil); err != nil {
		t.Fatal(err)
	}
	csv, dot, gml := filepath.Join(tmp, "g.csv"), filepath.Join(tmp, "g.dot"), filepath.Join(tmp, "g.graphml")
	code, stdout, stderr := gopari(t, "grains", "--csv", csv, "--dot", dot, "--graphml", gml, "--baseline", base, dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "108 grains: 108 tasks") || !strings.Contains(stdout, "task at fib.c:10:") || !strings.Contains(stdout, "parallel benefit < 1") {
		t.Errorf("summary:\n%s", stdout)
	}
	b, err := os.ReadFile(csv)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 109 || !strings.HasPrefix(lines[0], "kind,file,line,") {
		t.Errorf("%d CSV lines, header %q", len(lines), lines[0])
	}
	for _, f := range []string{dot, gml} {
		if st, err := os.Stat(f); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	// Grouping, and a damaged stream: an error naming file and offset,
	// and no output.
	code, _, stderr = gopari(t, "grains", "--dot", filepath.Join(tmp, "small.dot"), "--max-nodes", "10", dir)
	if code != 0 || !strings.Contains(stderr, "grouped by region and lineage depth") {
		t.Errorf("exit %d: %s", code, stderr)
	}
	f := filepath.Join(dir, "events", "thread-000001.evt")
	st, _ := os.Stat(f)
	os.Truncate(f, st.Size()-8)
	out := filepath.Join(tmp, "bad.csv")
	code, _, stderr = gopari(t, "grains", "--csv", out, dir)
	if code != 1 || !strings.Contains(stderr, "thread-000001.evt: offset ") || !strings.Contains(stderr, "truncated block") {
		t.Errorf("damaged: exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("%s written from a damaged stream", out)
	}
	if code, _, stderr := gopari(t, "grains", "--benefit", "0", dir); code != 2 {
		t.Errorf("--benefit 0: exit %d %s", code, stderr)
	}
}
