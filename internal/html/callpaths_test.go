package html

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gopari/internal/callpath"
	"gopari/internal/callpath/cptest"
)

// TestCallPathData checks the flame chart's data against cptest's
// truth, without a browser.
func TestCallPathData(t *testing.T) {
	t.Parallel()
	p := cptest.Profile(t)
	var b bytes.Buffer
	if err := Write(&b, Input{Profile: p}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	_, rest, ok := strings.Cut(page, `<script type="application/json" id="fl-data">`)
	if !ok {
		t.Fatal("no call-path data on the page")
	}
	js, _, _ := strings.Cut(rest, "</script>")
	var d flameData
	if err := json.Unmarshal([]byte(js), &d); err != nil {
		t.Fatalf("call-path data: %v\n%s", err, js)
	}
	got := map[string][3]uint64{}
	for i, name := range d.Names {
		path := name
		for a := d.Parent[i]; a >= 0; a = d.Parent[a] {
			path = d.Names[a] + ";" + path
		}
		got[path] = [3]uint64{d.Incl[i], d.Excl[i], d.Visits[i]}
	}
	ms := uint64(cptest.Ms)
	for path, want := range map[string][3]uint64{
		"paths;main;top":          {87 * ms, 10 * ms, 1},
		"paths;main;top;mid":      {50 * ms, 20 * ms, 2},
		"paths;main;top;mid;leaf": {30 * ms, 30 * ms, 4},
	} {
		if got[path] != want {
			t.Errorf("%s: %v, want %v", path, got[path], want)
		}
	}
	if len(d.Names) != 7 || !strings.Contains(page, `href="#callpaths"`) {
		t.Errorf("%d paths drawn, want 7; or no link to the section", len(d.Names))
	}
	p.CallPaths = nil
	b.Reset()
	if err := Write(&b, Input{Profile: p}); err != nil || strings.Contains(b.String(), `id="fl-data"`) {
		t.Errorf("a call-path section without call paths (%v)", err)
	}
}

// browseCallPaths checks the flame chart in the browser: drawn, the
// search totals the matching paths, a click zooms.
func browseCallPaths(t *testing.T, bctx context.Context, out, exe string) {
	p := cptest.Profile(t)
	tb := open(t, bctx, writePage(t, out, "callpaths", Input{Profile: p}))
	tb.sections("run", "efficiency", "regions", "callpaths")
	ink := eval[int](tb, `(() => { const c = document.getElementById('fl-canvas');
		const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let n = 0;
		for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++; return n; })()`)
	if ink < 1000 {
		t.Errorf("flame chart: %d pixels drawn", ink)
	}
	eval[bool](tb, `(() => { const s = document.getElementById('fl-search'); s.value = 'leaf';
		s.dispatchEvent(new Event('input')); return true; })()`)
	if got := tb.text("fl-match"); got != "matched 46.0 ms (52.3%)" {
		t.Errorf("search leaf: %q, want matched 46.0 ms (52.3%%)", got)
	}
	// Depth 3 from the left is top's costliest callee, mid.
	eval[bool](tb, `(() => { const c = document.getElementById('fl-canvas'), r = c.getBoundingClientRect();
		c.dispatchEvent(new MouseEvent('click', {clientX: r.left + 5, clientY: r.top + 3 * 18 + 9, bubbles: true})); return true; })()`)
	if got := tb.text("fl-range"); got != "zoomed to mid (50.0 ms)" {
		t.Errorf("click on mid: %q", got)
	}
	tb.screenshot(filepath.Join(out, "callpaths.png"))
	tb.clean()
}

// TestMergedCallPaths draws a job's merged call tree: each path as wide
// as its mean over the two ranks times two, callees costliest first,
// paths under 0.1% of the total left out.
func TestMergedCallPaths(t *testing.T) {
	sp := func(mean float64) callpath.Spread { return callpath.Spread{Mean: mean} }
	m := &callpath.Merged{Ranks: []int{0, 1}, Nodes: []callpath.MergedNode{
		{Parent: -1, Kind: "root", Name: "prog", InclNs: sp(1000), Children: []int{1}},
		{Parent: 0, Kind: "function", Name: "main", File: "/src/a.c", Line: 3, InclNs: sp(1000), ExclNs: sp(100), Visits: sp(1), Children: []int{2, 3, 4}},
		{Parent: 1, Kind: "function", Name: "small", InclNs: sp(300), ExclNs: sp(300), Visits: sp(5)},
		{Parent: 1, Kind: "function", Name: "big", InclNs: sp(599.5), ExclNs: sp(599.5), Visits: sp(2.5)},
		{Parent: 1, Kind: "function", Name: "tiny", InclNs: sp(0.5), ExclNs: sp(0.5), Visits: sp(1)},
	}}
	pg := &page{}
	if err := pg.mergedCallPaths(m); err != nil {
		t.Fatal(err)
	}
	var d flameData
	if err := json.Unmarshal([]byte(pg.Flame), &d); err != nil {
		t.Fatalf("%v: %s", err, pg.Flame)
	}
	want := flameData{Names: []string{"prog", "main", "big", "small"}, Parent: []int{-1, 0, 1, 1}, Depth: []int{0, 1, 2, 2},
		Incl: []uint64{2000, 2000, 1199, 600}, Excl: []uint64{0, 200, 1199, 600}, Visits: []uint64{0, 2, 5, 10}, Where: []string{"", "a.c:3", "", ""}}
	if !reflect.DeepEqual(d, want) {
		t.Errorf("flame data\n got %+v\nwant %+v", d, want)
	}
	if pg.FlamePaths != 4 || pg.FlameAll != 5 {
		t.Errorf("%d of %d paths drawn, want 4 of 5", pg.FlamePaths, pg.FlameAll)
	}
	if err := (&page{}).mergedCallPaths(nil); err != nil {
		t.Error(err)
	}
}
