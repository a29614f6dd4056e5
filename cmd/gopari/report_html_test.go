package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopari/internal/events/evtest"
)

// TestReportHTML: gopari report --html writes the page whole, or on bad
// input nothing, with the file and offset of what is wrong.
func TestReportHTML(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "exp")
	if _, err := evtest.Tiny(dir, 200, 2, 20); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "page.html")
	code, stdout, stderr := gopari(t, "report", "--html", out, dir)
	if code != 0 || !strings.Contains(stdout, "wrote "+out) {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	b, err := os.ReadFile(out)
	if err != nil || !strings.HasPrefix(string(b), "<!DOCTYPE html>") || !strings.Contains(string(b), `id="timeline"`) {
		t.Fatalf("%v: %.100q", err, b)
	}

	bad := filepath.Join(t.TempDir(), "model.json")
	os.WriteFile(bad, []byte(`[{"metric": "construct", "points": [}]`), 0o644)
	notModel := filepath.Join(t.TempDir(), "other.json")
	os.WriteFile(notModel, []byte(`[{"file": "x.c"}]`), 0o644)
	if code, _, stderr := gopari(t, "report", "--model", bad, dir); code != 2 || !strings.Contains(stderr, "--model adds scaling models to the page of --html") {
		t.Errorf("--model without --html: exit %d, %q", code, stderr)
	}
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"model syntax", []string{"--model", bad, dir}, 1, bad + ": offset 36: not gopari model --json output"},
		{"not a model", []string{"--model", notModel, dir}, 1, notModel + ": model 1 has no metric or no points"},
		{"json", []string{"--json", dir}, 2, "--html and --json exclude each other"},
		{"rank", []string{"--rank", "1", dir}, 2, "--rank needs an MPI job's directory"},
		{"no profile", []string{t.TempDir()}, 1, "no profile"},
	} {
		page := filepath.Join(t.TempDir(), "page.html")
		code, _, stderr := gopari(t, append([]string{"report", "--html", page}, tc.args...)...)
		if code != tc.code || !strings.Contains(stderr, tc.want) {
			t.Errorf("%s: exit %d, stderr %q; want %d and %q", tc.name, code, stderr, tc.code, tc.want)
		}
		if _, err := os.Stat(page); err == nil {
			t.Errorf("%s: %s was written", tc.name, page)
		}
	}
}

// TestReportHTMLDamaged: a damaged event stream beside an intact profile
// (a file cut short, a block cut in the middle, another file's magic, a
// file missing): gopari report --html writes the page from the profile,
// with the damage, file and offset, among its warnings and on stderr,
// and no timeline; the text report works as before.
func TestReportHTMLDamaged(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		damage func(path string) error
		want   string
	}{
		{"truncated", func(p string) error { return os.Truncate(p, 100) }, "thread-000000.evt: offset 32: truncated block (got 52 of "},
		{"block cut", func(p string) error { return patch(p, 36, "\x00\x00\x01\x00") }, "thread-000000.evt: offset 32: truncated block (got "},
		{"magic", func(p string) error { return patch(p, 0, "XXXXXXXX") }, `thread-000000.evt: offset 0: not a gopari event stream (magic "XXXXXXXX", want "GOPARIEV")`},
		{"missing", os.Remove, "thread-000000.evt: no such file or directory"},
	} {
		dir := filepath.Join(t.TempDir(), "exp")
		if _, err := evtest.Tiny(dir, 200, 2, 20); err != nil {
			t.Fatal(err)
		}
		if err := tc.damage(filepath.Join(dir, "events", "thread-000000.evt")); err != nil {
			t.Fatal(err)
		}
		page := filepath.Join(t.TempDir(), "page.html")
		code, stdout, stderr := gopari(t, "report", "--html", page, dir)
		if code != 0 || !strings.Contains(stdout, "wrote "+page) || !strings.Contains(stderr, tc.want) || !strings.Contains(stderr, "the page has no timeline") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", tc.name, code, stdout, stderr)
		}
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		html := string(b)
		if !strings.Contains(html, "the event stream cannot be read: ") || !strings.Contains(html, htmlEscape(tc.want)) ||
			strings.Contains(html, `id="timeline"`) || !strings.Contains(html, `id="regions"`) {
			t.Errorf("%s: the page does not show the damage, or has a timeline", tc.name)
		}
		code, stdout, stderr = gopari(t, "report", dir)
		if code != 0 || stderr != "" || !strings.Contains(stdout, "gopari profile of ./synthetic") || !strings.Contains(stdout, "Event stream (trace)") {
			t.Errorf("%s: text report: exit %d, stderr %q\n%s", tc.name, code, stderr, stdout)
		}
	}
}

// htmlEscape escapes s as html/template does in element text.
func htmlEscape(s string) string {
	return strings.NewReplacer(`"`, "&#34;", "'", "&#39;", "<", "&lt;", ">", "&gt;", "&", "&amp;").Replace(s)
}

// TestReportEfficiency: the text report has the efficiency section: a
// run of 1 ms, half of it in a parallel region in which thread 0.0 works
// 0.5 ms and thread 0.1 0.25 ms.
func TestReportEfficiency(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "profile.json"), []byte(`{"format": "gopari-profile", "version": 2, "program": "./p",
		"mode": "profile", "wall_ns": 1000000, "exit": "exit",
		"regions": [{"id": 1, "kind": "parallel", "name": "parallel", "file": "p.c", "begin_line": 3, "end_line": 5}],
		"threads": [{"index": 0, "path": "0"}, {"index": 1, "path": "0.0", "level": 1}, {"index": 2, "path": "0.1", "level": 1, "os_thread": 1}],
		"stats": [{"region": 1, "thread": 0, "construct": {"visits": 1, "timed": 1, "incl_ns": 500000, "excl_ns": 0}},
			{"region": 1, "thread": 1, "body": {"visits": 1, "timed": 1, "incl_ns": 500000, "excl_ns": 500000}},
			{"region": 1, "thread": 2, "body": {"visits": 1, "timed": 1, "incl_ns": 250000, "excl_ns": 250000},
				"barrier": {"visits": 1, "timed": 1, "incl_ns": 250000, "excl_ns": 250000}}],
		"tasks": [], "creation_tree": {"edges": [], "max_depth": 0}}`), 0o644)
	code, stdout, stderr := gopari(t, "report", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// PE = (0.5 + 0.5 + 0.25) / 2; σ = 0.5; LB = 0.375 / 0.5; SE = 0.5 / 0.5.
	for _, want := range []string{"\nEfficiency (POP metrics over 2 thread(s)", "  parallel efficiency   0.62 (fair) ",
		"  serial fraction       0.50         time outside parallel regions / wall time; serial region efficiency 0.75 (fair)",
		"  load balance          0.75 (fair) ", "  sync and scheduling   1.00 ",
		"  time in parallel regions: 75.0% useful; lost to barriers 25.0%"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("no %q in\n%s", want, stdout)
		}
	}
}
