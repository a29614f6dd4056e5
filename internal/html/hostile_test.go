package html

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopari/internal/events/evtest"
	"gopari/internal/profile"
)

// evil is what a file name, a program name or an argument may hold.
const evil = "</script><script>alert(\"x\")</script><img src=x onerror=alert(1)> ' \" & &amp; \u2028 {{.}}"

// hostileRun makes a traced run whose program, arguments and source file
// names are hostile: the tiny-task stream of evtest, its profile.json
// edited.
func hostileRun(t *testing.T) (string, *profile.Profile) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "exp")
	if _, err := evtest.Tiny(dir, 60, 2, 50); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "profile.json")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	m["program"] = "./" + evil
	m["args"] = []string{evil, "it's"}
	var stats []any
	for i, r := range m["regions"].([]any) {
		r.(map[string]any)["file"] = evil + string(rune('a'+i)) + ".c"
		stats = append(stats, map[string]any{"region": i + 1, "thread": 1, "construct": map[string]any{"visits": 1, "timed": 1, "incl_ns": 100 * (i + 1), "excl_ns": 50}})
	}
	m["stats"] = stats // every region ran, so that each has a row
	if b, err = json.Marshal(m); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := profile.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	return dir, p
}

// TestHostileSource: the page's source holds no markup from the input.
func TestHostileSource(t *testing.T) {
	dir, p := hostileRun(t)
	var buf bytes.Buffer
	if err := Write(&buf, Input{Profile: p, Dir: dir}); err != nil {
		t.Fatal(err)
	}
	page := buf.Bytes()
	for _, bad := range []string{"<script>alert", "<img", `"x"`} {
		if i := bytes.Index(page, []byte(bad)); i >= 0 {
			t.Errorf("the page holds %q unescaped: …%s…", bad, page[max(0, i-80):min(len(page), i+80)])
		}
	}
	// The data for the script: JSON with nothing that ends the element
	// or a JavaScript line.
	start := bytes.Index(page, []byte(`<script type="application/json" id="tl-data">`))
	end := bytes.Index(page[start:], []byte("</script>"))
	if start < 0 || end < 0 {
		t.Fatal("no timeline data")
	}
	data := page[start+len(`<script type="application/json" id="tl-data">`) : start+end]
	if bytes.ContainsAny(data, "<>&\u2028\u2029") {
		t.Errorf("the timeline data holds <, >, & or a line separator: %s", data)
	}
	if !json.Valid(data) {
		t.Errorf("the timeline data is not JSON: %.200s", data)
	}
}

// browseHostile opens the hostile page: nothing runs, nothing loads, and
// every name reads as it was given.
func browseHostile(t *testing.T, bctx context.Context, out, _ string) {
	dir, p := hostileRun(t)
	tb := open(t, bctx, writePage(t, out, "hostile", Input{Profile: p, Dir: dir}))
	tb.sections("run", "regions", "timeline", "grains") // no wall time: no efficiency
	if got := tb.text("program"); got != p.Program {
		t.Errorf("program reads %q, want %q", got, p.Program)
	}
	if got := eval[string](tb, `document.title`); got != "gopari: "+p.Program {
		t.Errorf("title %q", got)
	}
	wheres := tb.column("region-table", 1)
	for _, r := range p.Regions {
		found := false
		for _, w := range wheres {
			found = found || strings.HasPrefix(w, r.File+":")
		}
		if !found {
			t.Errorf("no row names %q; rows: %q", r.File, wheres)
		}
	}
	legend := tb.text("tl-legend")
	if !strings.Contains(legend, p.Regions[2].File) {
		t.Errorf("the timeline legend %q does not name %q", legend, p.Regions[2].File)
	}
	if n := eval[int](tb, `document.querySelectorAll('script').length`); n != 2 {
		t.Errorf("%d script elements, want 2 (the page's and its data)", n)
	}
	tb.clean()
}
