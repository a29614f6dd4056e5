package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopari/internal/callpath/cptest"
	"gopari/internal/experiment"
)

// TestPprofCommand runs gopari pprof and gopari report on a run with
// call paths (cptest's), and pprof on one without.
func TestPprofCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := cptest.Profile(t)
	b, _ := json.Marshal(p)
	if err := os.WriteFile(experiment.Profile(dir), b, 0o644); err != nil {
		t.Fatal(err)
	}
	pb, folded := filepath.Join(dir, "p.pb.gz"), filepath.Join(dir, "p.folded")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"gopari", "pprof", "-o", pb, "--folded", folded, dir}, strings.NewReader(""), &stdout, &stderr); code != 0 {
		t.Fatalf("gopari pprof: exit %d: %s", code, stderr.String())
	}
	if st, err := os.Stat(pb); err != nil || st.Size() == 0 {
		t.Errorf("no pprof profile: %v", err)
	}
	if f, err := os.ReadFile(folded); err != nil || !strings.Contains(string(f), "paths;main;top;mid;leaf 30000000\n") {
		t.Errorf("folded stacks: %v\n%s", err, f)
	}
	// "-" is standard output, for a pipe into flamegraph.pl; not for both.
	stdout.Reset()
	if code := run([]string{"gopari", "pprof", "--folded", "-", dir}, strings.NewReader(""), &stdout, &stderr); code != 0 ||
		!strings.Contains(stdout.String(), "paths;main;top;mid;leaf 30000000\n") {
		t.Errorf("gopari pprof --folded -: exit %d: %s%s", code, stdout.String(), stderr.String())
	}
	if _, err := os.Stat("-"); err == nil {
		t.Error("gopari pprof --folded - wrote a file named -")
	}
	if code := run([]string{"gopari", "pprof", "-o", "-", "--folded", "-", dir}, strings.NewReader(""), &stdout, &stderr); code != 2 {
		t.Errorf("gopari pprof -o - --folded -: exit %d, want 2", code)
	}
	stdout.Reset()
	if code := run([]string{"gopari", "report", dir}, strings.NewReader(""), &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "\nCall paths ") {
		t.Errorf("gopari report: exit %d, no call paths:\n%s%s", code, stdout.String(), stderr.String())
	}
	stdout.Reset()
	if code := run([]string{"gopari", "report", "--json", dir}, strings.NewReader(""), &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), `"call_paths"`) {
		t.Errorf("gopari report --json: exit %d, no call paths", code)
	}

	p.CallPaths, p.Mappings = nil, nil
	b, _ = json.Marshal(p)
	os.WriteFile(experiment.Profile(dir), b, 0o644)
	stderr.Reset()
	code := run([]string{"gopari", "pprof", "-o", filepath.Join(dir, "q.pb.gz"), dir}, strings.NewReader(""), &stdout, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), "gopari cc --functions") {
		t.Errorf("without call paths: exit %d, %q", code, stderr.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "q.pb.gz")); err == nil {
		t.Error("an output without call paths")
	}
}
