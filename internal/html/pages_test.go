package html

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gopari/internal/job"
	"gopari/internal/job/jobtest"
	"gopari/internal/model"
	"gopari/internal/pop"
	"gopari/internal/profile"
	"gopari/internal/runtest"

	"github.com/chromedp/chromedp"
)

// writePage writes the page for in to dir/name.html.
func writePage(t *testing.T, dir, name string, in Input) string {
	t.Helper()
	f := filepath.Join(dir, name+".html")
	out, err := os.Create(f)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	if err := Write(out, in); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return f
}

func readProfile(t *testing.T, dir string) *profile.Profile {
	t.Helper()
	p, err := profile.Read(filepath.Join(dir, "profile.json"))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// checkRun checks a run's page against its profile: the header's counts,
// a row per region, the efficiency figures, the threads of the timeline.
func checkRun(tb *tab, p *profile.Profile) {
	t := tb.t
	t.Helper()
	var tasks uint64
	for _, ts := range p.Tasks {
		tasks += ts.Created
	}
	for id, want := range map[string]string{"n-regions": strconv.Itoa(len(p.Regions)), "n-tasks": fmt.Sprint(tasks),
		"n-threads": strconv.Itoa(p.ThreadCount().Threads()), "program": p.Program} {
		if got := tb.text(id); got != want {
			t.Errorf("#%s is %q, the profile says %q", id, got, want)
		}
	}
	// A row per region that ran, and one for the initial tasks' own code.
	initial := 0
	if p.Initial().Visits > 0 {
		initial = 1
	}
	if rows, want := len(tb.column("region-table", 0)), ran(p); rows != want+initial || tb.text("n-ran") != strconv.Itoa(want) {
		t.Errorf("the region table has %d rows, the header says %s ran, the profile has %d regions that ran (and %d initial tasks' row)",
			rows, tb.text("n-ran"), want, initial)
	}
	if len(p.Tasks) > 0 {
		var sum uint64
		for _, v := range tb.column("task-table", 2) {
			n, _ := strconv.ParseUint(v, 10, 64)
			sum += n
		}
		if sum != tasks {
			t.Errorf("the task table's created column adds up to %d, the profile to %d", sum, tasks)
		}
	}
	m := pop.Compute(p)
	for id, want := range map[string]float64{"eff-pe": m.ParallelEfficiency, "eff-serial": m.SerialFraction, "eff-lb": m.LoadBalance} {
		got := eval[string](tb, fmt.Sprintf(`document.getElementById(%q).getAttribute('data-v')`, id))
		if w := fmt.Sprintf("%.6g", want); got != w {
			t.Errorf("#%s data-v %s, want %s", id, got, w)
		}
	}
}

// mixRun builds testdata/mix.c once and runs it with env.
func mixRun(t *testing.T, exe string, env ...string) string {
	t.Helper()
	return runtest.Run(t, t.TempDir(), append([]string{"OMP_NUM_THREADS=2"}, env...), exe)
}

// TestBrowser opens the page of each kind of input in Chromium: a
// profile, a traced run, a run with grains, scaling models, an MPI job,
// a binned trace and hostile names.
func TestBrowser(t *testing.T) {
	bctx := browser(t)
	runtest.Tools(t)
	out := t.TempDir()
	exe := runtest.Build(t, t.TempDir(), "gcc", "mix", filepath.Join("testdata", "mix.c"))
	for _, page := range []struct {
		name string
		f    func(t *testing.T, bctx context.Context, out, exe string)
	}{
		{"profile", browseProfile},
		{"trace", browseTrace},
		{"grains", browseGrains},
		{"model", browseModel},
		{"mpi", browseMPI},
		{"ranks", browseRanks},
		{"binned", browseBinned},
		{"hostile", browseHostile},
		{"damaged", browseDamaged},
		{"callpaths", browseCallPaths},
	} {
		t.Run(page.name, func(t *testing.T) { page.f(t, bctx, out, exe) })
	}
}

// browseProfile checks the page of a profile: sections, counts, sorting, the filter.
func browseProfile(t *testing.T, bctx context.Context, out, exe string) {
	dir := mixRun(t, exe)
	p := readProfile(t, dir)
	tb := open(t, bctx, writePage(t, out, "profile", Input{Profile: p, Dir: dir}))
	tb.sections("run", "efficiency", "regions", "balance", "tasks")
	checkRun(tb, p)
	tb.sortCheck("region-table", 2) // visits
	// The filter hides the rows that do not match.
	shown := eval[[]string](tb, `(() => { const f = document.querySelector('input.filter'); f.value = 'task';
		f.dispatchEvent(new Event('input')); return Array.from(document.getElementById('region-table').tBodies[0].rows)
		.filter(r => !r.hidden).map(r => r.cells[0].textContent); })()`)
	for _, s := range shown {
		if !strings.Contains(s, "task") {
			t.Errorf("filter 'task' shows %q", s)
		}
	}
	if len(shown) == 0 || len(shown) == ran(p) {
		t.Errorf("filter 'task' shows %d of %d rows", len(shown), ran(p))
	}
	tb.treeNested()
	tb.screenshot(filepath.Join(out, "profile.png"))
	tb.clean()
}

// treeNested checks that the creation tree shows nesting: every child
// region begins (its count, or its name) right of where its parent's
// name begins. The tree of mix.c's recursive tasks has children.
func (tb *tab) treeNested() {
	t := tb.t
	t.Helper()
	steps := eval[[]float64](tb, `Array.from(document.querySelectorAll('.tree li li')).map(li => {
		const p = li.parentElement.closest('li').querySelector(':scope > .label');
		return li.firstElementChild.getBoundingClientRect().left - p.getBoundingClientRect().left; })`)
	if len(steps) == 0 {
		t.Fatal("the creation tree has no child region")
	}
	for i, d := range steps {
		if d < 8 {
			t.Errorf("creation tree: child %d begins %.0f px from its parent's name: it reads as a sibling", i, d)
		}
	}
}

// graphShot takes a screenshot of the grain graph and checks that it is
// drawn at its size (not scaled down: its labels at 10 px), within 4,000
// by 4,000 pixels, and not blank.
func (tb *tab) graphShot(file string) {
	t := tb.t
	t.Helper()
	size := eval[[]float64](tb, `(() => { const g = document.querySelector('svg.grain-graph'), r = g.getBoundingClientRect();
		const l = g.querySelector('text'); return [r.width, r.height, g.width.baseVal.value, g.height.baseVal.value,
		l ? l.getBoundingClientRect().height : 0]; })()`)
	if size[0] != size[2] || size[1] != size[3] {
		t.Errorf("grain graph drawn %.0fx%.0f px, laid out %.0fx%.0f", size[0], size[1], size[2], size[3])
	}
	if size[0] > 4000 || size[1] > 4000 || size[4] < 9 {
		t.Errorf("grain graph %.0fx%.0f px, labels %.1f px high: want within 4000x4000, labels of 10 px", size[0], size[1], size[4])
	}
	buf, err := chromedp.Run(tb.ctx, chromedp.Screenshot(chromedp.CSS("svg.grain-graph")))
	if err != nil {
		t.Fatalf("screenshot of the grain graph: %v", err)
	}
	if err := os.WriteFile(file, buf, 0o644); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(buf))
	if err != nil {
		t.Fatalf("grain graph screenshot: %v", err)
	}
	b := img.Bounds()
	if math.Abs(float64(b.Dx())-size[0]) > 2 || math.Abs(float64(b.Dy())-size[1]) > 2 {
		t.Errorf("grain graph screenshot %dx%d, the graph %.0fx%.0f", b.Dx(), b.Dy(), size[0], size[1])
	}
	if colors, ink := inked(img); colors < 8 || ink < 0.02 {
		t.Errorf("grain graph screenshot %s looks blank: %d colours, %.2f%% of the pixels not white", file, colors, 100*ink)
	}
}

// browseTrace checks the page of a traced run: the timeline and the grain graph.
func browseTrace(t *testing.T, bctx context.Context, out, exe string) {
	dir := mixRun(t, exe, "GOPARI_MODE=trace")
	p := readProfile(t, dir)
	tb := open(t, bctx, writePage(t, out, "trace", Input{Profile: p, Dir: dir}))
	tb.sections("run", "efficiency", "regions", "balance", "tasks", "timeline", "grains")
	checkRun(tb, p)
	tracks := eval[[]string](tb, `JSON.parse(document.getElementById('tl-data').textContent).tracks.map(t => t.path)`)
	if len(tracks) != len(p.Threads) {
		t.Errorf("timeline tracks %v, profile threads %d", tracks, len(p.Threads))
	}
	if n := tb.canvasInk(); n < 500 {
		t.Errorf("the timeline canvas has %d pixels drawn", n)
	}
	if got, want := tb.text("n-grains"), fmt.Sprint(tasks(p)); got != want {
		t.Errorf("grain graph of %s grains, the profile has %s tasks", got, want)
	}
	// Hovering over the second track tells what thread 0.0 did there.
	tip := eval[string](tb, `(() => { const c = document.getElementById('tl-canvas'), r = c.getBoundingClientRect();
		c.dispatchEvent(new MouseEvent('mousemove', {clientX: r.left + r.width * 0.6, clientY: r.top + 22 + 20 + 10, bubbles: true}));
		const tip = document.getElementById('tl-tip'); return tip.hidden ? '(hidden)' : tip.textContent; })()`)
	if !strings.HasPrefix(tip, "0.0: ") {
		t.Errorf("hovering over track 0.0 shows %q", tip)
	}
	// Zoom in with the buttons: the range shown changes.
	before := tb.text("tl-range")
	eval[bool](tb, `document.querySelector('[data-zoom=in]').click(), true`)
	if after := tb.text("tl-range"); after == before {
		t.Errorf("zooming in left the range at %q", after)
	}
	tb.graphShot(filepath.Join(out, "trace-grains.png"))
	tb.screenshot(filepath.Join(out, "trace.png"))
	tb.clean()
}

// browseGrains checks the page of a run recorded with GOPARI_GRAINS=1.
func browseGrains(t *testing.T, bctx context.Context, out, exe string) {
	dir := mixRun(t, exe, "GOPARI_GRAINS=1")
	p := readProfile(t, dir)
	if p.Events == nil {
		t.Skip("grains: the runtime does not record GOPARI_GRAINS=1 yet")
	}
	tb := open(t, bctx, writePage(t, out, "grains", Input{Profile: p, Dir: dir}))
	want := []string{"run", "efficiency", "regions", "balance", "tasks", "grains"}
	if hasTrace(p) {
		want = append(want, "timeline")
	}
	tb.sections(want...)
	checkRun(tb, p)
	tb.graphShot(filepath.Join(out, "grains-graph.png"))
	tb.screenshot(filepath.Join(out, "grains.png"))
	tb.clean()
}

// browseModel checks the page of scaling models of gopari scale --json beside one of its runs.
func browseModel(t *testing.T, bctx context.Context, out, exe string) {
	gopari, prefix := runtest.Tools(t)
	work := t.TempDir()
	prog := runtest.Build(t, work, "gcc", "scale", filepath.Join("testdata", "scale.c"))
	cmd := exec.Command(gopari, "scale", "--threads", "1,2,3", "--repeat", "1", "--out", filepath.Join(work, "runs"), "--json", "--", prog)
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "GOPARI_PREFIX="+prefix, "OMP_WAIT_POLICY=passive")
	js, err := cmd.Output()
	if err != nil {
		t.Fatalf("gopari scale: %v", err)
	}
	mf := filepath.Join(work, "model.json")
	os.WriteFile(mf, js, 0o644)
	ms, err := model.ReadJSON(mf)
	if err != nil {
		t.Fatal(err)
	}
	run := filepath.Join(work, "runs", "t2.r1")
	p := readProfile(t, run)
	tb := open(t, bctx, writePage(t, out, "model", Input{Profile: p, Dir: run, Models: ms, ModelFile: mf}))
	tb.sections("run", "efficiency", "regions", "balance", "scaling")
	checkRun(tb, p)
	if n := eval[int](tb, `document.querySelectorAll('#scaling figure svg').length`); n != len(ms) {
		t.Errorf("%d charts, %d models", n, len(ms))
	}
	tb.screenshot(filepath.Join(out, "model.png"))
	tb.clean()
}

// browseMPI checks the page of an MPI job of two ranks.
func browseMPI(t *testing.T, bctx context.Context, out, exe string) {
	dir := mpiJob(t)
	j, err := job.Read(dir, func(_ string, err error) string { return err.Error() })
	if err != nil {
		t.Fatal(err)
	}
	m := job.Merge(j)
	tb := open(t, bctx, writePage(t, out, "mpi", Input{Job: j, Merged: m}))
	tb.sections("run", "efficiency", "ranks", "regions")
	if rows := len(tb.column("rank-table", 0)); rows != len(j.Ranks) {
		t.Errorf("%d rank rows, %d ranks", rows, len(j.Ranks))
	}
	if rows := len(tb.column("region-table", 0)); rows != len(m.Regions) {
		t.Errorf("%d region rows, %d merged regions", rows, len(m.Regions))
	}
	jm := pop.ComputeJob(j, m)
	got := eval[string](tb, `document.getElementById('eff-rank-lb').getAttribute('data-v')`)
	if want := fmt.Sprintf("%.6g", jm.RankLoadBalance); got != want {
		t.Errorf("rank load balance %s, want %s", got, want)
	}
	tb.sortCheck("region-table", 4) // max
	tb.screenshot(filepath.Join(out, "mpi.png"))
	tb.clean()
}

// browseRanks checks the page of a job past job.SummariseAbove ranks:
// the ranks as distributions, the planted outlier named, a histogram per
// metric and per region, no row per rank.
func browseRanks(t *testing.T, bctx context.Context, out, exe string) {
	dir := filepath.Join(t.TempDir(), "job")
	if err := jobtest.Write(dir, 200, map[int]jobtest.Rank{150: {Scale: 4}}); err != nil {
		t.Fatal(err)
	}
	j, err := job.Read(dir, func(_ string, err error) string { return err.Error() })
	if err != nil {
		t.Fatal(err)
	}
	tb := open(t, bctx, writePage(t, out, "ranks", Input{Job: j, Merged: job.Merge(j)}))
	tb.sections("run", "efficiency", "ranks", "regions")
	if got := tb.text("n-ranks"); got != "200" {
		t.Errorf("#n-ranks %q, want 200", got)
	}
	metrics := eval[[]string](tb, `Array.from(document.querySelectorAll('#rank-dists tbody tr')).map(r => r.cells[0].textContent)`)
	if want := []string{"wall", "OpenMP", "MPI", "MPI share", "MPI calls", "messages", "bytes"}; !slices.Equal(metrics, want) {
		t.Errorf("distributions of %v, want %v", metrics, want)
	}
	if got := tb.text("outlier-ranks"); !strings.HasPrefix(got, "rank 150 (rank-00150): wall 8.1 ms (median 2.1 ms)") {
		t.Errorf("outlier ranks %q", got)
	}
	// Each histogram has 20 bars, and the outlier's bin shows.
	bars := eval[[]int](tb, `Array.from(document.querySelectorAll('td.bars')).map(td => Array.from(td.children).filter(i => i.getBoundingClientRect().height > 2).length)`)
	if len(bars) != 7+2 || bars[0] != 2 {
		t.Errorf("bars drawn higher than 2 px per histogram: %v; want 9 histograms, wall's with 2", bars)
	}
	if eval[bool](tb, `document.getElementById('rank-table') !== null`) {
		t.Error("the page lists the ranks one by one")
	}
	tb.screenshot(filepath.Join(out, "ranks.png"))
	tb.clean()
}

// browseBinned checks the page of a trace past MaxSegments, binned.
func browseBinned(t *testing.T, bctx context.Context, out, exe string) {
	dir, p := tinyRun(t, 20000)
	tb := open(t, bctx, writePage(t, out, "binned", Input{Profile: p, Dir: dir, Options: Options{MaxSegments: 1000}}))
	tb.sections("run", "regions", "timeline", "grains")
	if mode := eval[string](tb, `document.getElementById('tl-canvas').dataset.mode`); mode != "binned" {
		t.Errorf("timeline mode %q, want binned", mode)
	}
	if n := tb.canvasInk(); n < 500 {
		t.Errorf("the binned timeline canvas has %d pixels drawn", n)
	}
	eval[bool](tb, `document.querySelector('[data-zoom=in]').click(), true`)
	tb.clean()
}

// browseDamaged checks the page of a traced run whose event stream was
// cut in the middle of a block: written from the profile, with the
// damage among its warnings, the profile's sections and counts, and no
// timeline or grain graph.
func browseDamaged(t *testing.T, bctx context.Context, out, exe string) {
	dir := mixRun(t, exe, "GOPARI_MODE=trace")
	p := readProfile(t, dir)
	f := filepath.Join(dir, "events", "thread-000000.evt")
	st, err := os.Stat(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(f, st.Size()-5); err != nil {
		t.Fatal(err)
	}
	var damage error
	tb := open(t, bctx, writePage(t, out, "damaged", Input{Profile: p, Dir: dir, StreamDamaged: func(err error) { damage = err }}))
	if damage == nil || !strings.Contains(damage.Error(), "thread-000000.evt: offset ") || !strings.Contains(damage.Error(), "truncated block") {
		t.Fatalf("the damage reported: %v", damage)
	}
	tb.sections("run", "efficiency", "regions", "balance", "tasks")
	checkRun(tb, p)
	if w := tb.text("warnings"); !strings.Contains(w, "the event stream cannot be read: "+damage.Error()) || !strings.Contains(w, "The timeline and the grain graph are left out") {
		t.Errorf("the warnings do not show the damage: %q", w)
	}
	tb.screenshot(filepath.Join(out, "damaged.png"))
	tb.clean()
}

// ran counts the regions of a profile that ran: visited by a thread, or
// tasks that were executed.
func ran(p *profile.Profile) int {
	seen := map[int]bool{}
	for _, s := range p.Stats {
		for _, ph := range []*profile.Phase{s.Construct, s.Body, s.Barrier, s.Wait} {
			if ph != nil && ph.Visits > 0 {
				seen[s.Region] = true
			}
		}
	}
	for _, t := range p.Tasks {
		if t.Executed > 0 {
			seen[t.Region] = true
		}
	}
	return len(seen)
}

func tasks(p *profile.Profile) uint64 {
	var n uint64
	for _, t := range p.Tasks {
		n += t.Created
	}
	return n
}

// mpiJob runs examples/hybrid/ring.c as two ranks and returns its job
// directory; it skips without Open MPI.
func mpiJob(t *testing.T) string {
	t.Helper()
	for _, tool := range []string{"mpicc", "mpirun"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("MPI job page: %s not installed (Debian: openmpi-bin, libopenmpi-dev)", tool)
		}
	}
	_, prefix := runtest.Tools(t)
	if _, err := os.Stat(filepath.Join(prefix, "lib", "libpomp_mpi.a")); err != nil {
		t.Fatalf("%v (make builds it where mpicc is installed)", err)
	}
	work := t.TempDir()
	exe := runtest.Build(t, work, "mpicc", "ring", filepath.Join("..", "..", "examples", "hybrid", "ring.c"))
	args := []string{"mpirun", "-np", "2", "--oversubscribe", "--mca", "btl", "self,vader", "--mca", "oob_tcp_if_include", "lo"}
	if os.Getuid() == 0 {
		args = append(args, "--allow-run-as-root")
	}
	return runtest.Run(t, work, []string{"OMP_NUM_THREADS=2"}, append(args, exe)...)
}
