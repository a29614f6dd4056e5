package main

import (
	"bytes"
	"encoding/json"
	stdhtml "html"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gopari/internal/job"
	"gopari/internal/pop"
	"gopari/internal/profile"
	"gopari/internal/runtest"
)

// The view-agreement tests render the same profiles through every view
// — the text report, the HTML page, the merged report of an MPI job
// (text, HTML and --json) — and check that every view shows the same
// numbers: per region its visits, exclusive and inclusive time and
// thread imbalance, the threads (team members, OS threads, POP's
// workers) and the POP metrics. The profiles are real runs with values
// known by construction: a lock acquired 10 times by thread 0 and 7
// times by thread 1 (17 visits), nested teams of 2 in a team of 2 (6
// team members), 2 threads per rank of a 2-rank job (2 team members a
// rank).

// regionNumbers is what a view shows of a region: visits, exclusive and
// inclusive time in nanoseconds, thread imbalance (NaN where the view
// shows none) and the threads that ran it (0 where the view shows none).
type regionNumbers struct {
	visits     uint64
	excl, incl float64
	imb        float64
	threads    int
}

// runNumbers is what a view shows of a run.
type runNumbers struct {
	regions   map[string]regionNumbers // by "where  label"; "initial" for the initial tasks
	members   int                      // team members
	osThreads int
	workers   int                // POP's n
	pop       map[string]float64 // POP metrics by name
	merged    bool               // a job's merged profile, without the initial tasks' row
}

// runGopari runs the command in-process and returns its standard output.
func runGopari(t *testing.T, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if code := run(append([]string{"gopari"}, args...), strings.NewReader(""), &out, &errb); code != 0 {
		t.Fatalf("gopari %s: exit %d\n%s", strings.Join(args, " "), code, errb.String())
	}
	return out.String()
}

// htmlPage writes the HTML page of dir (and args) and returns it.
func htmlPage(t *testing.T, args ...string) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "page.html")
	runGopari(t, append([]string{"report", "--html", file}, args...)...)
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func key(r *profile.Region) string { return r.Where() + "  " + r.Label() }

// near compares times in ns: a view rounds them to the microsecond.
func near(a, b float64) bool { return math.Abs(a-b) <= 1e3+1e-5*math.Abs(b) }

// nearRatio compares imbalances and efficiencies: a view rounds them to
// 0.1% or 0.01.
func nearRatio(a, b float64) bool {
	return math.IsNaN(a) || math.IsNaN(b) || math.Abs(a-b) <= 0.0051
}

func TestViewsAgree(t *testing.T) {
	t.Parallel()
	runtest.Tools(t)
	work := t.TempDir()
	exe := runtest.Build(t, work, "gcc", "views", filepath.Join("testdata", "views.c"))
	exp := runtest.Run(t, work, []string{"OMP_NUM_THREADS=2"}, exe)
	p, err := profile.Read(filepath.Join(exp, "profile.json"))
	if err != nil {
		t.Fatal(err)
	}
	text := runGopari(t, "report", "--top", "1000", exp)
	page := htmlPage(t, exp)
	views := map[string]runNumbers{
		"text report":     textRun(t, text),
		"HTML page":       htmlRun(t, htmlPage(t, exp)),
		"job of one rank": jobRun(job.Merge(&job.Job{Ranks: []job.Rank{{Rank: 0, Profile: p}}, Size: 1}), 0),
	}
	if js := runGopari(t, "report", "--json", exp); !json.Valid([]byte(js)) || !strings.Contains(js, `"format":"gopari-profile"`) {
		t.Errorf("report --json does not print the profile:\n%.200s", js)
	}
	want := truth(t, p, 6, 2)
	nested := 0
	for id, tm := range p.Times() {
		if p.Region(id).Kind == "parallel" && tm.Threads == 4 {
			nested++
		}
	}
	if nested != 1 {
		t.Errorf("%d parallel regions ran on 4 team members, the nested teams' one", nested)
	}
	if in := p.Initial(); in.Visits == 0 || in.ExclNs < 1e6 {
		t.Errorf("the initial task's own time is %.3f ms, the program spins before and after its parallel regions", in.ExclNs/1e6)
	}
	for view, got := range views {
		compareRun(t, view, got, want)
	}
	compareTasks(t, p, map[string]map[string][]float64{"text report": textTasks(text), "HTML page": htmlTasks(page)})
	// The thread imbalance of every region, where two views show it.
	for k, h := range views["HTML page"].regions {
		if j, ok := views["job of one rank"].regions[k]; ok && !math.IsNaN(j.imb) && !nearRatio(h.imb, j.imb) {
			t.Errorf("%s: thread imbalance %.4f on the HTML page, %.4f in the job", k, h.imb, j.imb)
		}
	}
	if t.Failed() {
		t.Logf("the text report:\n%s", text)
	}
}

// truth is what every view of run p must show: profile.Times, the
// load balance of its parallel regions, the initial tasks, the POP
// metrics, and what the program did by construction: members team
// members, workers threads in the outermost teams, locks acquired 10 + 7
// times.
func truth(t *testing.T, p *profile.Profile, members, workers int) runNumbers {
	t.Helper()
	want := runNumbers{regions: map[string]regionNumbers{}, members: members, osThreads: p.OSThreads, workers: workers}
	times := p.Times()
	for id, tm := range times {
		if tm.Visits > 0 {
			r := p.Region(id)
			want.regions[key(r)] = regionNumbers{tm.Visits, tm.ExclNs, tm.InclNs, math.NaN(), tm.Threads}
		}
	}
	for _, b := range pop.Balances(p) {
		rn := want.regions[key(p.Region(b.Region))]
		rn.imb = b.Imbalance
		if rn.threads != len(b.Threads) {
			t.Errorf("%s: profile.Times says %d threads ran it, its load balance %d", key(p.Region(b.Region)), rn.threads, len(b.Threads))
		}
		want.regions[key(p.Region(b.Region))] = rn
	}
	locks := 0
	for id, tm := range times {
		if r := p.Region(id); r.Kind == "lock" && (r.SubName == "omp_set_lock" || r.SubName == "omp_unset_lock") {
			locks++
			if tm.Visits != 17 || tm.Threads != 2 {
				t.Errorf("%s: %d visits on %d threads, the program made 10 + 7 on 2", key(r), tm.Visits, tm.Threads)
			}
		}
	}
	if locks != 2 {
		t.Errorf("%d lock regions omp_set_lock and omp_unset_lock", locks)
	}
	in := p.Initial()
	want.regions["initial"] = regionNumbers{in.Visits, in.ExclNs, in.InclNs, math.NaN(), 0}
	m := pop.Compute(p)
	want.pop = map[string]float64{"parallel efficiency": m.ParallelEfficiency, "serial fraction": m.SerialFraction,
		"load balance": m.LoadBalance, "sync and scheduling": m.SyncEfficiency}
	return want
}

// compareRun reports where a view's numbers differ from want's. A view
// that does not show a number leaves it at its zero value (NaN for a
// ratio, -1 for a count, nil for a map).
func compareRun(t *testing.T, view string, got, want runNumbers) {
	t.Helper()
	for k, w := range want.regions {
		g, ok := got.regions[k]
		switch {
		case !ok && (k != "initial" || !got.merged):
			t.Errorf("%s: no row for %s", view, k)
		case !ok:
		case g.visits != w.visits || !near(g.excl, w.excl) || !near(g.incl, w.incl):
			t.Errorf("%s: %s: %d visits, excl %.0f ns, incl %.0f ns; the profile's: %d, %.0f, %.0f",
				view, k, g.visits, g.excl, g.incl, w.visits, w.excl, w.incl)
		case !nearRatio(g.imb, w.imb):
			t.Errorf("%s: %s: thread imbalance %.4f, its team's load balance says %.4f", view, k, g.imb, w.imb)
		case g.threads != 0 && g.threads != w.threads:
			t.Errorf("%s: %s: run by %d threads, the profile's %d", view, k, g.threads, w.threads)
		}
	}
	for k := range got.regions {
		if _, ok := want.regions[k]; !ok {
			t.Errorf("%s: a row %s, which is no region that ran", view, k)
		}
	}
	if got.members >= 0 && got.members != want.members {
		t.Errorf("%s: %d team members, the program ran %d", view, got.members, want.members)
	}
	if got.osThreads >= 0 && got.osThreads != want.osThreads {
		t.Errorf("%s: %d OS threads, the profile's %d", view, got.osThreads, want.osThreads)
	}
	if got.workers >= 0 && got.workers != want.workers {
		t.Errorf("%s: POP metrics over %d threads, want %d", view, got.workers, want.workers)
	}
	for name, w := range want.pop {
		if g, ok := got.pop[name]; got.pop != nil && math.IsNaN(w) {
			// Undefined (no thread did useful work: a short run whose
			// estimated losses exceed its bodies): a view shows no number.
			if ok && !math.IsNaN(g) {
				t.Errorf("%s: %s shown as %.4f, pop.Compute's is undefined", view, name, g)
			}
		} else if got.pop != nil && (!ok || !nearRatio(g, w) || math.IsNaN(g) != math.IsNaN(w)) {
			t.Errorf("%s: %s %.4f (shown %v), pop.Compute's %.4f", view, name, g, ok, w)
		}
	}
}

// textRun parses the text report of a run.
func textRun(t *testing.T, out string) runNumbers {
	t.Helper()
	v := runNumbers{regions: map[string]regionNumbers{}, pop: map[string]float64{}}
	head := regexp.MustCompile(`on (\d+) OS thread\(s\)(?:, as (\d+) team member)?`).FindStringSubmatch(out)
	if head == nil {
		t.Fatalf("no header:\n%s", out)
	}
	v.osThreads, _ = strconv.Atoi(head[1])
	v.members, _ = strconv.Atoi(head[2])
	if w := regexp.MustCompile(`POP metrics over (\d+) thread`).FindStringSubmatch(out); w != nil {
		v.workers, _ = strconv.Atoi(w[1])
	}
	for _, name := range []string{"parallel efficiency", "serial fraction", "load balance", "sync and scheduling"} {
		if m := regexp.MustCompile(`(?m)^  ` + name + ` +([0-9.]+)`).FindStringSubmatch(out); m != nil {
			v.pop[name], _ = strconv.ParseFloat(m[1], 64)
		}
	}
	row := regexp.MustCompile(`^\s*~?([0-9.]+)\s+([0-9.]+)\s+(\d+)  (\S.*)$`)
	for _, l := range section(out, "Regions by exclusive time") {
		m := row.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		ex, _ := strconv.ParseFloat(m[1], 64)
		inc, _ := strconv.ParseFloat(m[2], 64)
		n, _ := strconv.ParseUint(m[3], 10, 64)
		k := m[4]
		if strings.HasPrefix(k, "initial task") {
			k = "initial"
		}
		v.regions[k] = regionNumbers{n, ex * 1e6, inc * 1e6, math.NaN(), 0}
	}
	if len(v.regions) == 0 {
		t.Fatalf("no region rows:\n%s", out)
	}
	lb := regexp.MustCompile(`^\s*(\d+)(?:\s+[0-9.]+){3}\s+([0-9.]+)%(?:\s+[0-9.]+){2}  (\S.*)$`)
	for _, l := range section(out, "Load balance of parallel regions") {
		if m := lb.FindStringSubmatch(l); m != nil {
			rn := v.regions[m[3]]
			rn.threads, _ = strconv.Atoi(m[1])
			rn.imb, _ = strconv.ParseFloat(m[2], 64)
			rn.imb /= 100
			v.regions[m[3]] = rn
		}
	}
	return v
}

// section returns the lines of the section of a text report that begins
// with title, up to the next empty line.
func section(out, title string) []string {
	var lines []string
	in := false
	for _, l := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(l, title):
			in = true
		case in && strings.TrimSpace(l) == "":
			return lines
		case in:
			lines = append(lines, l)
		}
	}
	return lines
}

// htmlRun parses the HTML page of a run.
func htmlRun(t *testing.T, page string) runNumbers {
	t.Helper()
	v := runNumbers{regions: map[string]regionNumbers{}, pop: map[string]float64{}, osThreads: -1}
	if m := regexp.MustCompile(`<span id="n-threads">(\d+)</span> team member`).FindStringSubmatch(page); m != nil {
		v.members, _ = strconv.Atoi(m[1])
	} else {
		m := regexp.MustCompile(`<span id="n-threads">(\d+)</span>([^<]*)`).FindStringSubmatch(page)
		t.Errorf("HTML page: its threads say %q, not team members", m)
		v.members = -1
	}
	if m := regexp.MustCompile(`on (\d+) OS thread`).FindStringSubmatch(page); m != nil {
		v.osThreads, _ = strconv.Atoi(m[1])
	}
	if m := regexp.MustCompile(`<span id="n-workers">(\d+)</span>`).FindStringSubmatch(page); m != nil {
		v.workers, _ = strconv.Atoi(m[1])
	}
	for id, name := range map[string]string{"eff-pe": "parallel efficiency", "eff-serial": "serial fraction", "eff-lb": "load balance", "eff-sync": "sync and scheduling"} {
		if m := regexp.MustCompile(`<tr id="` + id + `"[^>]* data-v="([^"]*)"`).FindStringSubmatch(page); m != nil {
			v.pop[name], _ = strconv.ParseFloat(m[1], 64)
		}
	}
	re := regexp.MustCompile(`<tr data-search="[^"]*">\s*<td data-v="([^"]*)"><span class="kind">[^<]*</span></td><td data-v="([^"]*)">[^<]*</td>\s*` +
		`<td data-v="(\d+)">\d+</td>\s*<td data-v="([^"]*)">[^<]*</td>\s*<td data-v="([^"]*)">[^<]*</td>\s*<td data-v="([^"]*)">`)
	for _, m := range re.FindAllStringSubmatch(page, -1) {
		n, _ := strconv.ParseUint(m[3], 10, 64)
		ex, _ := strconv.ParseFloat(stdhtml.UnescapeString(m[4]), 64)
		inc, _ := strconv.ParseFloat(stdhtml.UnescapeString(m[5]), 64)
		imb, _ := strconv.ParseFloat(stdhtml.UnescapeString(m[6]), 64)
		label, where := stdhtml.UnescapeString(m[1]), stdhtml.UnescapeString(m[2])
		k := where + "  " + label
		if label == "initial task" {
			k, imb = "initial", math.NaN()
		}
		v.regions[k] = regionNumbers{n, ex, inc, imb, 0}
	}
	if len(v.regions) == 0 {
		t.Fatal("no region rows in the page")
	}
	return v
}

// jobRun is what the merged profile of a job shows of rank index ri: the
// numbers of its own, a rank's view of a region (its visits, times and
// thread imbalance), and its team members; the POP metrics of a rank
// are the job's own view (jobViews compares them).
func jobRun(m *job.Merged, ri int) runNumbers {
	v := runNumbers{regions: map[string]regionNumbers{}, members: m.Ranks[ri].Threads, osThreads: m.Ranks[ri].OSThreads, workers: -1, merged: true}
	for _, r := range m.Regions {
		on := r.PerRank[ri]
		if on.Visits == 0 {
			continue
		}
		v.regions[key(r.Region())] = regionNumbers{on.Visits, float64(on.ExclNs), float64(on.InclNs), on.ThreadImbalance, on.Threads}
	}
	return v
}

// TestViewsAgreeJob renders an MPI job of two ranks through the views of
// a job — text, HTML, --json — and each rank through the views of a run
// (gopari report --rank N, its HTML page, and its part of the merged
// profile): every view shows the numbers of every other.
func TestViewsAgreeJob(t *testing.T) {
	t.Parallel()
	for _, tool := range []string{"mpicc", "mpirun"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed (Debian: openmpi-bin, libopenmpi-dev)", tool)
		}
	}
	runtest.Tools(t)
	work := t.TempDir()
	exe := runtest.Build(t, work, "mpicc", "views_mpi", filepath.Join("testdata", "views_mpi.c"))
	args := []string{"mpirun", "-np", "2", "--oversubscribe", "--mca", "btl", "self,vader", "--mca", "oob_tcp_if_include", "lo"}
	if os.Getuid() == 0 {
		args = append(args, "--allow-run-as-root")
	}
	dir := runtest.Run(t, work, []string{"OMP_NUM_THREADS=2"}, append(args, exe)...)
	j, err := job.Read(dir, func(path string, err error) string { return err.Error() })
	if err != nil || len(j.Ranks) != 2 {
		t.Fatalf("job %s: %v, %d ranks", dir, err, len(j.Ranks))
	}
	var m job.Merged
	if err := json.Unmarshal([]byte(runGopari(t, "report", "--json", dir)), &m); err != nil {
		t.Fatal(err)
	}
	for ri, rk := range j.Ranks {
		want := truth(t, rk.Profile, 2, 2)
		n := strconv.Itoa(rk.Rank)
		compareRun(t, "rank "+n+": report --rank", textRun(t, runGopari(t, "report", "--rank", n, dir)), want)
		compareRun(t, "rank "+n+": HTML page", htmlRun(t, htmlPage(t, "--rank", n, dir)), want)
		compareRun(t, "rank "+n+": the merged profile", jobRun(&m, ri), want)
	}
	text := runGopari(t, "report", "--top", "1000", dir)
	jobViews(t, &m, map[string]jobNumbers{"text": textJob(t, text), "HTML page": htmlJob(t, htmlPage(t, dir))})
	if t.Failed() {
		t.Logf("the job's text report:\n%s", text)
	}
}

// jobNumbers is what a view shows of a job: per rank its team members,
// per region (by "where  label") its numbers over ranks, and the POP
// metrics.
type jobNumbers struct {
	threads []int
	regions map[string][]float64 // min, mean, max, max rank, rank imbalance, thread imbalance, ranks, visits
	pop     map[string]float64
}

// jobViews compares the views of a job with its merged profile (--json).
func jobViews(t *testing.T, m *job.Merged, views map[string]jobNumbers) {
	t.Helper()
	for view, v := range views {
		for i, r := range m.Ranks {
			if i >= len(v.threads) || v.threads[i] != r.Threads || r.Threads != 2 {
				t.Errorf("%s: rank %d: threads %v, --json %d; the job ran 2 team members a rank", view, r.Rank, v.threads, r.Threads)
			}
		}
		for _, r := range m.Regions {
			reg := r.Region()
			want := []float64{float64(r.InclNs.Min), r.InclNs.Mean, float64(r.InclNs.Max), float64(r.InclNs.MaxRank),
				r.RankImbalance, r.ThreadImbalance, float64(r.Ranks), float64(r.Visits.Max)}
			got, ok := v.regions[key(reg)]
			if !ok {
				t.Errorf("%s: no row %s", view, key(reg))
				continue
			}
			for i, w := range want {
				same := got[i] == w
				switch i {
				case 0, 1, 2:
					same = near(got[i], w)
				case 4, 5:
					same = nearRatio(got[i], w)
				}
				if !same {
					t.Errorf("%s: %s: column %d shows %v, --json %v", view, key(reg), i, got[i], w)
				}
			}
		}
		if len(v.regions) != len(m.Regions) {
			t.Errorf("%s: %d regions, --json %d", view, len(v.regions), len(m.Regions))
		}
	}
	if a, b := views["text"].pop, views["HTML page"].pop; len(a) != 4 || len(b) != 4 {
		t.Errorf("POP metrics of the job: text %v, HTML %v", a, b)
	} else {
		for k := range a {
			if !nearRatio(a[k], b[k]) {
				t.Errorf("POP %s: text %.4f, HTML %.4f", k, a[k], b[k])
			}
		}
	}
}

// textJob parses the text report of a job.
func textJob(t *testing.T, out string) jobNumbers {
	t.Helper()
	v := jobNumbers{regions: map[string][]float64{}, pop: map[string]float64{}}
	rank := regexp.MustCompile(`^\s*\d+\s+\S+\s+[0-9.]+\s+(\d+)\s`)
	for _, l := range section(out, "Ranks (") {
		if m := rank.FindStringSubmatch(l); m != nil {
			n, _ := strconv.Atoi(m[1])
			v.threads = append(v.threads, n)
		}
	}
	row := regexp.MustCompile(`^\s*([0-9.]+)\s+([0-9.]+)\s+([0-9.]+)\s+(\d+)\s+([0-9.]+)%\s+([0-9.]+)%\s+(\d+)\s+(\d+)  (\S.*)$`)
	for _, l := range section(out, "Regions by their largest time") {
		m := row.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		var f []float64
		for i := 1; i <= 8; i++ {
			x, _ := strconv.ParseFloat(m[i], 64)
			switch {
			case i <= 3:
				x *= 1e6
			case i == 5 || i == 6:
				x /= 100
			}
			f = append(f, x)
		}
		v.regions[m[9]] = f
	}
	for name, re := range map[string]string{"parallel efficiency": `parallel efficiency +([0-9.]+)`, "rank load balance": `rank load balance +([0-9.]+)`,
		"communication": `communication +([0-9.]+)`, "MPI share": `MPI share +([0-9.]+)%`} {
		if m := regexp.MustCompile(`(?m)^  ` + re).FindStringSubmatch(out); m != nil {
			v.pop[name], _ = strconv.ParseFloat(m[1], 64)
			if name == "MPI share" {
				v.pop[name] /= 100
			}
		}
	}
	return v
}

// htmlJob parses the HTML page of a job.
func htmlJob(t *testing.T, page string) jobNumbers {
	t.Helper()
	v := jobNumbers{regions: map[string][]float64{}, pop: map[string]float64{}}
	rank := regexp.MustCompile(`<tr>\s*<td data-v="\d+">\d+</td><td data-v="[^"]*">[^<]*</td><td data-v="[^"]*">[^<]*</td><td data-v="(\d+)">`)
	for _, m := range rank.FindAllStringSubmatch(page, -1) {
		n, _ := strconv.Atoi(m[1])
		v.threads = append(v.threads, n)
	}
	cell := `\s*<td data-v="([^"]*)">[^<]*</td>`
	row := regexp.MustCompile(`<tr data-search="[^"]*">` + strings.Repeat(cell, 10))
	for _, m := range row.FindAllStringSubmatch(page, -1) {
		var f []float64
		for i := 3; i <= 10; i++ {
			x, _ := strconv.ParseFloat(stdhtml.UnescapeString(m[i]), 64)
			f = append(f, x)
		}
		v.regions[stdhtml.UnescapeString(m[2])+"  "+stdhtml.UnescapeString(m[1])] = f
	}
	for id, name := range map[string]string{"eff-pe": "parallel efficiency", "eff-rank-lb": "rank load balance", "eff-comm": "communication", "eff-mpi": "MPI share"} {
		if m := regexp.MustCompile(`<tr id="` + id + `"[^>]* data-v="([^"]*)"`).FindStringSubmatch(page); m != nil {
			v.pop[name], _ = strconv.ParseFloat(m[1], 64)
		}
	}
	return v
}

// compareTasks compares the task tables of the views of p, by "where
// label": created, undeferred, suspensions, mean execution and creation
// time (estimated where the runtime timed a sample), parallel benefit.
func compareTasks(t *testing.T, p *profile.Profile, views map[string]map[string][]float64) {
	t.Helper()
	sampled := false
	for _, ts := range p.Tasks {
		r := p.Region(ts.Region)
		sampled = sampled || ts.Exec.Timed < ts.Executed
		want := []float64{float64(ts.Created), float64(ts.Undeferred), float64(ts.Suspensions), ts.ExecMeanNs(), ts.CreateMeanNs(), ts.Benefit()}
		for view, rows := range views {
			got, ok := rows[key(r)]
			if !ok {
				t.Errorf("%s: no task row %s", view, key(r))
				continue
			}
			for i, w := range want {
				same := got[i] == w
				switch i {
				case 3, 4: // µs with 2 decimals
					same = math.Abs(got[i]-w) <= 6+1e-5*w
				case 5: // 1 decimal
					same = math.IsNaN(w) && math.IsNaN(got[i]) || math.Abs(got[i]-w) <= 0.051+1e-5*w
				}
				if !same {
					t.Errorf("%s: task %s: column %d shows %v, the profile's %v", view, key(r), i, got[i], w)
				}
			}
		}
	}
	if !sampled {
		t.Errorf("no task region was sampled: the test compares no estimated means")
	}
}

// textTasks parses the task table of a text report.
func textTasks(out string) map[string][]float64 {
	rows := map[string][]float64{}
	re := regexp.MustCompile(`^\s*(\d+)\s+(\d+)\s+(\d+)\s+~?([0-9.]+)\s+[0-9.]+\s+[0-9.]+\s+([0-9.]+)\s+(\S+)  (\S.*)$`)
	for _, l := range section(out, "Tasks") {
		m := re.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		var f []float64
		for i := 1; i <= 6; i++ {
			x, err := strconv.ParseFloat(m[i], 64)
			if err != nil {
				x = math.NaN() // "-"
			}
			if i == 4 || i == 5 {
				x *= 1e3
			}
			f = append(f, x)
		}
		rows[m[7]] = f
	}
	return rows
}

// htmlTasks parses the task table of an HTML page.
func htmlTasks(page string) map[string][]float64 {
	rows := map[string][]float64{}
	if i := strings.Index(page, `id="task-table"`); i >= 0 {
		page = page[i:]
		page = page[:strings.Index(page, "</table>")]
	}
	cell := `\s*<td data-v="([^"]*)"[^>]*>.*?</td>`
	re := regexp.MustCompile(`<tr>` + strings.Repeat(cell, 11))
	for _, m := range re.FindAllStringSubmatch(page, -1) {
		var f []float64
		for _, i := range []int{3, 5, 6, 7, 10, 11} {
			x, _ := strconv.ParseFloat(stdhtml.UnescapeString(m[i]), 64)
			if i == 11 && x == -1 {
				x = math.NaN() // sortv of NaN
			}
			f = append(f, x)
		}
		rows[stdhtml.UnescapeString(m[2])+"  "+stdhtml.UnescapeString(m[1])] = f
	}
	return rows
}
