package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	"gopari/internal/events"
	"gopari/internal/job"
	"gopari/internal/pop"
	"gopari/internal/profile"
)

func reportCommand() *cli.Command {
	return &cli.Command{
		Name: "report",
		// An argument named h or help is a directory, not a request for help.
		Usage:     "print what a profile says",
		ArgsUsage: "[DIR | profile.json]",
		Description: `Reads the profile that an instrumented program wrote into its experiment
directory (default: the newest gopari-* directory here) and prints the
regions by time, the load imbalance of parallel regions, task statistics
and the task creation tree. --json prints the profile itself.

For the directory of an MPI job it merges the ranks: per region the
minimum, mean and maximum over ranks, the rank of the maximum, the
imbalance between ranks and between threads, the time in MPI against the
time in OpenMP per rank, and the ranks that are missing or damaged.
--json prints the merged profile, --rank N one rank's.

--html FILE writes the report as one HTML page that opens from file://
without a network: POP efficiency metrics, sortable regions, load
balance, tasks, and where the run recorded them the timeline of its
trace and its grain graph; --model adds the scaling models that
gopari model --json wrote to a file.`,
		Flags: append([]cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "print the profile as JSON"},
			&cli.IntFlag{Name: "top", Value: 20, Usage: "show the `N` costliest regions"},
			&cli.IntFlag{Name: "rank", Usage: "in an MPI job's directory, report rank `N` alone"},
		}, reportHTMLFlags()...),
		Action: runReport,
	}
}

func runReport(c *cli.Context) error {
	if c.NArg() > 1 {
		return usageErr("report: one experiment directory at a time")
	}
	path := c.Args().First()
	if path == "" {
		var err error
		if path, err = newestExperiment("."); err != nil {
			return &exitError{code: 1, msg: err.Error()}
		}
	}
	if c.IsSet("html") {
		return runReportHTML(c, path)
	} else if c.IsSet("model") {
		return usageErr("report: --model adds scaling models to the page of --html")
	}
	if job.IsJob(path) {
		return runJobReport(c, path)
	}
	if c.IsSet("rank") {
		return usageErr("report: --rank needs an MPI job's directory, and %s is not one", path)
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = filepath.Join(path, "profile.json")
	}
	if c.Bool("json") {
		b, err := os.ReadFile(path)
		if err == nil {
			_, err = profile.Read(path) // check it is a profile
		}
		if err != nil {
			return &exitError{code: 1, msg: explainProfileError(path, err)}
		}
		return writeOut(c, func(w io.Writer) error { _, err := w.Write(b); return err })
	}
	p, err := profile.Read(path)
	if err != nil {
		if exp, kerr := killedRun(filepath.Dir(path), err); kerr != nil {
			return failure(kerr)
		} else if exp != nil {
			return runKilledReport(c, exp)
		}
		return &exitError{code: 1, msg: explainProfileError(path, err)}
	}
	return writeOut(c, func(w io.Writer) error {
		writeReport(w, p, c.Int("top"))
		streamNote(w, filepath.Dir(path))
		return nil
	})
}

// regionTime is what the report sorts regions by.
type regionTime struct {
	r          *profile.Region
	visits     uint64
	incl, excl uint64
	sampled    bool   // some times are estimates from the timed visits
	bodies     uint64 // implicit tasks, for a parallel region without fork counts
}

func writeReport(w io.Writer, p *profile.Profile, top int) {
	fmt.Fprintf(w, "gopari profile of %s (pid %d, mode %s): %.3f s on %d OS thread(s)%s\n",
		p.Program, p.PID, p.Mode, float64(p.WallNs)/1e9, p.OSThreads, placesNote(p))
	writeLifeNotes(w, p)
	if p.UnmatchedEvents > 0 {
		fmt.Fprintf(w, "note: %d events had no matching begin on their thread (cancellation, exit inside a region, migrated untied tasks); their time is not attributed\n", p.UnmatchedEvents)
	}
	efficiency(w, pop.Compute(p))

	// Regions by inclusive time, summed over threads. A task's time is its
	// execution; a parallel region's is the team's work (its implicit
	// tasks).
	times := map[int]*regionTime{}
	for i := range p.Regions {
		times[p.Regions[i].ID] = &regionTime{r: &p.Regions[i]}
	}
	for _, s := range p.Stats {
		if rt := times[s.Region]; rt != nil {
			rt.add(s)
		}
	}
	for _, t := range p.Tasks {
		if rt := times[t.Region]; rt != nil {
			rt.visits = t.Executed
			if rt.r.Kind != "taskloop" { // a taskloop's comes from its phases (add)
				rt.incl = uint64(t.ExecTotalNs() + 0.5)
			}
			rt.sampled = rt.sampled || t.Exec.Timed < t.Executed
		}
	}
	var list []*regionTime
	limit := p.WallNs * uint64(len(p.Threads)) // estimates stay within the run
	for _, rt := range times {
		if rt.visits == 0 {
			rt.visits = rt.bodies
		}
		if limit > 0 {
			rt.incl = min(rt.incl, limit)
		}
		rt.excl = min(rt.excl, rt.incl)
		if rt.visits > 0 {
			list = append(list, rt)
		}
	}
	// Sorted by exclusive time, which adds up to the run's time.
	sort.Slice(list, func(i, j int) bool {
		if list[i].excl != list[j].excl {
			return list[i].excl > list[j].excl
		}
		return list[i].r.ID < list[j].r.ID
	})
	fmt.Fprintf(w, "\nRegions by exclusive time (summed over threads; a region nested in itself counts once in its inclusive time)\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "excl ms\tincl ms\tvisits\t  region\n")
	for i, rt := range list {
		if i == top {
			fmt.Fprintf(tw, "\t\t\t  (%d more; --top %d shows them)\n", len(list)-top, len(list))
			break
		}
		mark := ""
		if rt.sampled {
			mark = "~"
		}
		fmt.Fprintf(tw, "%s%s\t%s\t%d\t  %s  %s\n", mark, ms(rt.excl), ms(rt.incl), rt.visits, where(rt.r), label(rt.r))
	}
	tw.Flush()
	if sampledAny(list) {
		fmt.Fprintf(w, "~ estimated from the timed visits: short task instances, and what runs in them, are timed one in 32 (GOPARI_SAMPLING=off times all)\n")
	}
	fmt.Fprintf(w, "a parallel region's time is its team's: implicit tasks, closing-barrier waits and the master's fork and join\n")

	imbalance(w, p)
	tasks(w, p)
	tree(w, p)
	threads(w, p)
}

// imbalance shows, for every parallel region, how evenly its threads
// shared the work: the time of each implicit task, and the time threads
// waited in the barriers of its worksharing constructs.
func imbalance(w io.Writer, p *profile.Profile) {
	type per struct {
		work map[int]uint64
		wait map[int]uint64
	}
	regions := map[int]*per{}
	for _, s := range p.Stats {
		r := p.Region(s.Region)
		if r == nil || r.Kind != "parallel" || s.Body == nil {
			continue
		}
		if regions[s.Region] == nil {
			regions[s.Region] = &per{work: map[int]uint64{}, wait: map[int]uint64{}}
		}
		regions[s.Region].work[s.Thread] += s.Body.InclNs
		if s.Barrier != nil {
			regions[s.Region].wait[s.Thread] += s.Barrier.InclNs
		}
	}
	if len(regions) == 0 {
		return
	}
	var ids []int
	for id := range regions {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	fmt.Fprintf(w, "\nLoad balance of parallel regions (implicit task time per thread)\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "threads\tmin ms\tmean ms\tmax ms\timbalance\tbarrier mean ms\tmax ms\t  region\n")
	for _, id := range ids {
		work := regions[id].work
		var min, max, sum uint64
		min = math.MaxUint64
		for _, v := range work {
			sum += v
			if v < min {
				min = v
			}
			if v > max {
				max = v
			}
		}
		mean := float64(sum) / float64(len(work))
		imb := 0.0
		if max > 0 {
			imb = (float64(max) - mean) / float64(max) * 100
		}
		var wsum, wmax uint64
		for _, v := range regions[id].wait {
			wsum += v
			if v > wmax {
				wmax = v
			}
		}
		r := p.Region(id)
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%.1f%%\t%s\t%s\t  %s  %s\n", len(work), ms(min), ms(uint64(mean)), ms(max), imb,
			ms(wsum/uint64(len(work))), ms(wmax), where(r), label(r))
	}
	tw.Flush()
	fmt.Fprintf(w, "imbalance is (max - mean) / max: the share of the slowest thread's time that the others spent waiting;\n")
	fmt.Fprintf(w, "barrier is each thread's wait in the region's closing barrier, tasks it ran there excluded\n")
}

func tasks(w io.Writer, p *profile.Profile) {
	if len(p.Tasks) == 0 {
		return
	}
	fmt.Fprintf(w, "\nTasks\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "created\tundeferred\tsusp\texec mean us\tmin\tmax\tcreate mean us\tbenefit\t  region\n")
	for _, t := range p.Tasks {
		r := p.Region(t.Region)
		benefit := "-"
		if c := t.CreateMeanNs(); c > 0 {
			benefit = fmt.Sprintf("%.1f", t.ExecMeanNs()/c)
		}
		mark := ""
		if t.Exec.Timed < t.Executed {
			mark = "~"
		}
		fmt.Fprintf(tw, "%d\t%d\t%d\t%s%s\t%s\t%s\t%s\t%s\t  %s  %s\n", t.Created, t.Undeferred, t.Suspensions,
			mark, us(t.ExecMeanNs()), us(float64(t.Exec.MinNs)), us(float64(t.Exec.MaxNs)), us(t.CreateMeanNs()), benefit, where(r), label(r))
	}
	tw.Flush()
	fmt.Fprintf(w, "benefit is mean execution over mean creation time: below 1, a task costs more to create than it does;\n")
	fmt.Fprintf(w, "creation ends when the task is queued, or when it starts if it runs at once (undeferred); ~ marks sampled means\n")
}

func regionName(p *profile.Profile, id int) string {
	if id == 0 {
		return "initial task"
	}
	if r := p.Region(id); r != nil {
		return r.Kind + " at " + where(r)
	}
	return fmt.Sprintf("region %d", id)
}

func tree(w io.Writer, p *profile.Profile) {
	if len(p.Tree.Edges) == 0 {
		return
	}
	fmt.Fprintf(w, "\nTask creation tree (by region), maximum depth %d\n", p.Tree.MaxDepth)
	edges := append([]profile.Edge(nil), p.Tree.Edges...)
	sort.SliceStable(edges, func(i, j int) bool { return edges[i].Count > edges[j].Count })
	for _, e := range edges {
		fmt.Fprintf(w, "  %10d  %s -> %s\n", e.Count, regionName(p, e.Parent), regionName(p, e.Child))
	}
}

func threads(w io.Writer, p *profile.Profile) {
	if len(p.Threads) <= 1 {
		return
	}
	fmt.Fprintf(w, "\nPlaces in the team tree, by path (0.1.1 is thread 1 of the team forked by thread 0.1)\n")
	var b strings.Builder
	for i, t := range sortedThreads(p) {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s on OS thread %d", t.Path, t.OSThread)
	}
	fmt.Fprintf(w, "  %s\n", b.String())
}

// streamNote says that a run recorded an event stream, what it holds and
// how to export it.
func streamNote(w io.Writer, dir string) {
	exp, err := events.OpenExperiment(dir)
	if err != nil {
		return
	}
	m := exp.Events
	fmt.Fprintf(w, "\nEvent stream (%s): %d records, %.1f MB in %d files below %s",
		strings.Join(m.Kinds, ", "), m.Records, float64(m.Bytes)/1e6, len(m.Files), filepath.Join(dir, m.Dir))
	if m.Dropped > 0 {
		fmt.Fprintf(w, "; %d records dropped (GOPARI_TRACE_MAX_BYTES or a full disk), the profile is exact", m.Dropped)
	}
	if !m.Complete {
		fmt.Fprintf(w, "; incomplete: the run ended while threads recorded")
	}
	if m.Stopped != "" {
		fmt.Fprintf(w, "; it stopped %s (the records after were counted, not kept)", m.Stopped)
	}
	fmt.Fprintln(w)
	if m.Has("trace") {
		fmt.Fprintf(w, "  export it:  gopari trace --otf2 %s --chrome %s %s\n", filepath.Join(dir, "otf2"), filepath.Join(dir, "trace.json"), dir)
		fmt.Fprintf(w, "  then open %s in Vampir, or %s in Perfetto (ui.perfetto.dev) or chrome://tracing\n", filepath.Join(dir, "otf2", "traces.otf2"), filepath.Join(dir, "trace.json"))
	}
	fmt.Fprintf(w, "  grains:     gopari grains --csv %s --dot %s %s\n", filepath.Join(dir, "grains.csv"), filepath.Join(dir, "grains.dot"), dir)
}

// add adds what one thread spent in the region. A parallel region's time
// is its team's: the implicit tasks, their waits in the closing barrier,
// and the master's fork and join (the exclusive time of the construct
// phase, fork to join on the encountering thread).
func (rt *regionTime) add(s profile.Stat) {
	if rt.r.Kind == "parallel" {
		if s.Construct != nil {
			rt.visits += s.Construct.Visits
			rt.incl += s.Construct.ExclNs
			rt.excl += s.Construct.ExclNs
		}
		if s.Body != nil {
			rt.incl += s.Body.InclNs
			rt.excl += s.Body.ExclNs
			rt.bodies += s.Body.Visits
		}
		if s.Barrier != nil {
			rt.incl += s.Barrier.InclNs
			rt.excl += s.Barrier.ExclNs
		}
		return
	}
	if rt.r.Kind == "taskloop" {
		rt.addTaskloop(s)
		return
	}
	if ph := s.Construct; ph != nil {
		rt.visits += ph.Visits
		rt.incl += ph.InclNs
		rt.excl += uint64(ph.ExclEstimateNs() + 0.5)
		rt.sampled = rt.sampled || ph.Sampled()
	}
	if s.Barrier != nil {
		rt.incl += s.Barrier.InclNs
		rt.excl += uint64(s.Barrier.ExclEstimateNs() + 0.5)
	}
	if rt.r.Kind == "lock" && s.LockAcquired > 0 {
		rt.visits = s.Construct.Visits
	}
}

// addTaskloop adds a thread's share of a taskloop: the construct where it
// encountered one (Construct) and the tasks it executed (Body). Its
// exclusive time is both phases'; its inclusive time is the construct's,
// which holds the tasks the thread ran inside it, or, where tasks ran
// outside one (on other threads, or after a nogroup taskloop), the
// construct's exclusive time and the tasks': never below the exclusive.
func (rt *regionTime) addTaskloop(s profile.Stat) {
	var cIncl, cExcl, bIncl, bExcl float64
	if ph := s.Construct; ph != nil {
		rt.visits += ph.Visits // the tasks executed, where p.Tasks has them (writeReport)
		cIncl, cExcl = inclEstimateNs(ph), ph.ExclEstimateNs()
		rt.sampled = rt.sampled || ph.Sampled()
	}
	if ph := s.Body; ph != nil {
		bIncl, bExcl = inclEstimateNs(ph), ph.ExclEstimateNs()
		rt.sampled = rt.sampled || ph.Sampled()
	}
	rt.incl += uint64(math.Max(cIncl, cExcl+bIncl) + 0.5)
	rt.excl += uint64(cExcl + bExcl + 0.5)
}

// inclEstimateNs is a phase's inclusive time, scaled to all visits where
// only some were timed.
func inclEstimateNs(p *profile.Phase) float64 {
	if p.Timed == 0 || p.Timed >= p.Visits {
		return float64(p.InclNs)
	}
	return float64(p.InclNs) * float64(p.Visits) / float64(p.Timed)
}

func sampledAny(list []*regionTime) bool {
	for _, rt := range list {
		if rt.sampled {
			return true
		}
	}
	return false
}

// placesNote tells the places in the team tree apart from OS threads,
// once, in the header.
func placesNote(p *profile.Profile) string {
	members := 0
	for _, t := range p.Threads {
		if t.Level > 0 {
			members++
		}
	}
	if members == 0 {
		return ""
	}
	return fmt.Sprintf(", as %d team member(s) (places in the team tree such as 0.1, thread 1 of the first team; one OS thread may act as several)", members)
}

// sortedThreads returns the places of the team tree in path order: 0,
// 0.0, 0.0.1, 0.1, 0.2, 0.10, 1, ...
func sortedThreads(p *profile.Profile) []profile.Thread {
	ts := append([]profile.Thread(nil), p.Threads...)
	key := func(path string) []int {
		var k []int
		for _, f := range strings.Split(path, ".") {
			n := 0
			fmt.Sscanf(f, "%d", &n)
			k = append(k, n)
		}
		return k
	}
	sort.SliceStable(ts, func(i, j int) bool {
		a, b := key(ts[i].Path), key(ts[j].Path)
		for k := 0; k < len(a) && k < len(b); k++ {
			if a[k] != b[k] {
				return a[k] < b[k]
			}
		}
		return len(a) < len(b)
	})
	return ts
}
