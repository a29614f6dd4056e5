package html

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// The pages are checked in headless Chromium (Debian's chromium), driven
// through the DevTools protocol by chromedp: each page must load from
// file:// with no console error, no exception, no dialog and no request
// but its own; hold the sections its input has data for and no others,
// with the numbers of the profile; sort its region table; and look like
// something in a screenshot.

// chromium returns the browser's path, or skips the test.
func chromium(t *testing.T) string {
	t.Helper()
	for _, p := range []string{"/usr/bin/chromium", "chromium", "chromium-browser"} {
		if path, err := exec.LookPath(p); err == nil {
			return path
		}
	}
	t.Skip("HTML report in a browser: chromium not installed (Debian: chromium; .ci/run installs it)")
	return ""
}

// browser starts a headless Chromium with a fresh profile, for the
// test's lifetime.
func browser(t *testing.T) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium(t)), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 1000),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("no-first-run", true))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	ctx, cancelTime := context.WithTimeout(ctx, 3*time.Minute)
	if err := chromedp.Do(ctx); err != nil {
		cancelTime()
		cancel()
		cancelAlloc()
		t.Fatalf("starting %s: %v", chromium(t), err)
	}
	t.Cleanup(func() { cancelTime(); cancel(); cancelAlloc() })
	return ctx
}

// tab is a page open in a tab, with what it did.
type tab struct {
	t    *testing.T
	ctx  context.Context
	url  string
	mu   sync.Mutex
	errs []string // console errors, exceptions, error log entries, dialogs
	reqs []string // URLs requested
}

// open loads the page file in a new tab of the browser.
func open(t *testing.T, bctx context.Context, file string) *tab {
	t.Helper()
	abs, _ := filepath.Abs(file)
	tb := &tab{t: t, url: "file://" + abs}
	ctx, cancel := chromedp.NewContext(bctx, chromedp.WithListener(tb.listen))
	t.Cleanup(cancel)
	tb.ctx = ctx
	enable := func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		if _, err := cdp.Call(ctx, tg, network.Enable, network.EnableParams{}); err != nil {
			return chromedp.Void{}, err
		}
		_, err := cdp.Call(ctx, tg, log.Enable, cdp.Empty{})
		return chromedp.Void{}, err
	}
	if err := chromedp.Do(ctx, enable, chromedp.Navigate(tb.url)); err != nil {
		t.Fatalf("loading %s: %v", tb.url, err)
	}
	return tb
}

// listen records what the page does that it must not.
func (tb *tab) listen(ev any) {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeAssert || ev.Type == runtime.ConsoleAPICalledTypeWarning {
			var args []string
			for _, a := range ev.Args {
				args = append(args, fmt.Sprint(string(a.Value), a.Description))
			}
			tb.errs = append(tb.errs, fmt.Sprintf("console.%s: %s", ev.Type, strings.Join(args, " ")))
		}
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		msg := d.Text
		if d.Exception != nil {
			msg += " " + d.Exception.Description
		}
		tb.errs = append(tb.errs, fmt.Sprintf("exception at %d:%d: %s", d.LineNumber, d.ColumnNumber, msg))
	case *log.EventEntryAdded:
		if ev.Entry.Level == log.EntryLevelError || ev.Entry.Level == log.EntryLevelWarning {
			tb.errs = append(tb.errs, fmt.Sprintf("log %s: %s", ev.Entry.Level, ev.Entry.Text))
		}
	case *cdppage.EventJavascriptDialogOpening:
		tb.errs = append(tb.errs, "dialog: "+ev.Message)
	case *network.EventRequestWillBeSent:
		tb.reqs = append(tb.reqs, ev.Request.URL)
	}
}

// eval evaluates a JavaScript expression in the page.
func eval[T any](tb *tab, expr string) T {
	tb.t.Helper()
	v, err := chromedp.Run(tb.ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		tb.t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// clean checks that the page made no request but its own and logged no
// error.
func (tb *tab) clean() {
	tb.t.Helper()
	// Let late events (a failed resource, an error in a timer) arrive.
	eval[bool](tb, `new Promise(r => requestAnimationFrame(() => setTimeout(() => r(true), 50)))`)
	tb.mu.Lock()
	defer tb.mu.Unlock()
	for _, e := range tb.errs {
		tb.t.Errorf("%s: %s", tb.url, e)
	}
	for _, u := range tb.reqs {
		if u != tb.url {
			tb.t.Errorf("%s requested %s", tb.url, u)
		}
	}
	if len(tb.reqs) == 0 {
		tb.t.Errorf("%s: no request for the page itself seen: is the network listener deaf?", tb.url)
	}
}

// sections checks which sections the page has.
func (tb *tab) sections(want ...string) {
	tb.t.Helper()
	all := []string{"run", "efficiency", "ranks", "regions", "callpaths", "balance", "tasks", "timeline", "grains", "scaling"}
	got := eval[[]string](tb, `Array.from(document.querySelectorAll('main > header, main > section')).map(e => e.id)`)
	var expect []string
	for _, s := range all {
		if slices.Contains(want, s) {
			expect = append(expect, s)
		}
	}
	if !slices.Equal(got, expect) {
		tb.t.Errorf("sections %v, want %v", got, expect)
	}
}

// text returns the text of the element with the id.
func (tb *tab) text(id string) string {
	tb.t.Helper()
	return eval[string](tb, fmt.Sprintf(`(document.getElementById(%q) || {textContent: "(no #%s)"}).textContent.trim()`, id, id))
}

// column returns the data-v values of a table's column, in row order.
func (tb *tab) column(table string, col int) []string {
	return eval[[]string](tb, fmt.Sprintf(`Array.from(document.getElementById(%q).tBodies[0].rows).map(r => r.cells[%d].getAttribute('data-v'))`, table, col))
}

// sortCheck clicks a numeric column's header twice and checks that the
// rows come out sorted one way, then the other, and that the order
// changed.
func (tb *tab) sortCheck(table string, col int) {
	tb.t.Helper()
	num := func(vs []string) []float64 {
		out := make([]float64, len(vs))
		for i, v := range vs {
			fmt.Sscan(v, &out[i])
		}
		return out
	}
	click := fmt.Sprintf(`document.getElementById(%q).tHead.rows[0].cells[%d].click(), true`, table, col)
	eval[bool](tb, click)
	first := num(tb.column(table, col))
	eval[bool](tb, click)
	second := num(tb.column(table, col))
	down := func(a, b float64) int { return cmpFloat(b, a) }
	if !(slices.IsSortedFunc(first, down) && slices.IsSorted(second)) && !(slices.IsSorted(first) && slices.IsSortedFunc(second, down)) {
		tb.t.Errorf("%s by column %d: after one click %v, after two %v; want one order, then the other", table, col, first, second)
	}
	if slices.Equal(first, second) {
		tb.t.Errorf("%s by column %d: sorting did not change the order (%v); the test needs rows that differ", table, col, second)
	}
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// screenshot takes a screenshot of the whole page, writes it beside the
// page and checks that it is not blank.
func (tb *tab) screenshot(file string) {
	tb.t.Helper()
	buf, err := chromedp.Run(tb.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		tb.t.Fatalf("screenshot: %v", err)
	}
	if err := os.WriteFile(file, buf, 0o644); err != nil {
		tb.t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(buf))
	if err != nil {
		tb.t.Fatalf("screenshot: %v", err)
	}
	if colors, ink := inked(img); colors < 16 || ink < 0.01 {
		tb.t.Errorf("screenshot %s looks blank: %d colours, %.2f%% of the pixels not white", file, colors, 100*ink)
	}
}

// inked returns the number of distinct colours of an image and the share
// of its pixels that are not white.
func inked(img image.Image) (int, float64) {
	b := img.Bounds()
	colors := map[[3]uint32]bool{}
	n, ink := 0, 0
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, _ := img.At(x, y).RGBA()
			colors[[3]uint32{r >> 8, g >> 8, bl >> 8}] = true
			n++
			if r>>8 < 245 || g>>8 < 245 || bl>>8 < 245 {
				ink++
			}
		}
	}
	return len(colors), float64(ink) / float64(max(n, 1))
}

// canvasInk returns how many pixels of the timeline's canvas are drawn.
func (tb *tab) canvasInk() int {
	return eval[int](tb, `(() => { const c = document.getElementById('tl-canvas'); if (!c) return -1;
		const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let n = 0;
		for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++; return n; })()`)
}
