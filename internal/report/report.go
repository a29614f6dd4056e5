// Package report writes gopari report's text: the report of one run's
// profile, the merged report of an MPI job, and what a killed run's event
// stream kept. The numbers come from internal/profile, internal/pop,
// internal/job and internal/salvage, which every other view of them
// (the HTML page, --json) renders too; this package orders and prints
// them.
package report

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"

	"gopari/internal/events"
	"gopari/internal/pop"
	"gopari/internal/profile"
)

// regionRow is a row of the regions table.
type regionRow struct {
	r    *profile.Region // nil: the initial tasks
	time profile.Time
}

// Write prints the report of profile p, with the top costliest regions.
func Write(w io.Writer, p *profile.Profile, top int) {
	fmt.Fprintf(w, "gopari profile of %s (pid %d, mode %s): %.3f s on %d OS thread(s)%s\n",
		p.Program, p.PID, p.Mode, float64(p.WallNs)/1e9, p.OSThreads, placesNote(p))
	writeLifeNotes(w, p)
	if p.UnmatchedEvents > 0 {
		fmt.Fprintf(w, "note: %d events had no matching begin on their thread (cancellation, exit inside a region, migrated untied tasks); their time is not attributed\n", p.UnmatchedEvents)
	}
	efficiency(w, pop.Compute(p))

	// Regions by exclusive time, summed over threads (profile.Times),
	// with the initial tasks' own time: together they are the threads'.
	var list []regionRow
	for id, t := range p.Times() {
		if t.Visits > 0 {
			list = append(list, regionRow{r: p.Region(id), time: t})
		}
	}
	if in := p.Initial(); in.Visits > 0 {
		list = append(list, regionRow{time: in})
	}
	sort.Slice(list, func(i, j int) bool {
		a, b := list[i], list[j]
		if a.time.ExclNs != b.time.ExclNs {
			return a.time.ExclNs > b.time.ExclNs
		}
		return a.id() < b.id()
	})
	fmt.Fprintf(w, "\nRegions by exclusive time (summed over threads; a region nested in itself counts once in its inclusive time)\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "excl ms\tincl ms\tvisits\t  region\n")
	sampled := false
	for i, row := range list {
		if i == top {
			fmt.Fprintf(tw, "\t\t\t  (%d more; --top %d shows them)\n", len(list)-top, len(list))
			break
		}
		mark := ""
		if row.time.Sampled {
			mark, sampled = "~", true
		}
		name := "initial task  serial code, outside every region"
		if row.r != nil {
			name = row.r.Where() + "  " + row.r.Label()
		}
		fmt.Fprintf(tw, "%s%s\t%s\t%d\t  %s\n", mark, ms(uint64(row.time.ExclNs+0.5)), ms(uint64(row.time.InclNs+0.5)), row.time.Visits, name)
	}
	tw.Flush()
	if sampled {
		fmt.Fprintf(w, "~ estimated from the timed visits: short task instances, and what runs in them, are timed one in %d (GOPARI_SAMPLING=off times all)\n", p.TaskSamplingRule().Every)
	}
	fmt.Fprintf(w, "a parallel region's time is its team's: implicit tasks, the tasks they ran in its closing barrier, their wait there, and the master's fork and join\n")

	callPaths(w, p)
	imbalance(w, p)
	tasks(w, p)
	tree(w, p)
	threads(w, p)
}

// imbalance shows, for every parallel region, how evenly its threads
// shared the work (pop.Balances): the time of each implicit task, the
// tasks it ran in the closing barrier included, and each thread's wait
// in that barrier.
func imbalance(w io.Writer, p *profile.Profile) {
	balances := pop.Balances(p)
	if len(balances) == 0 {
		return
	}
	fmt.Fprintf(w, "\nLoad balance of parallel regions (implicit task time per thread)\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "threads\tmin ms\tmean ms\tmax ms\timbalance\tbarrier mean ms\tmax ms\t  region\n")
	for _, b := range balances {
		r := p.Region(b.Region)
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%.1f%%\t%s\t%s\t  %s  %s\n", len(b.Threads), msf(b.MinNs), msf(b.MeanNs), msf(b.MaxNs),
			100*b.Imbalance, msf(b.WaitMeanNs), msf(b.WaitMaxNs), r.Where(), r.Label())
	}
	tw.Flush()
	fmt.Fprintf(w, "imbalance is (max - mean) / max: the share of the slowest thread's time that the others spent waiting;\n")
	fmt.Fprintf(w, "an implicit task's time holds the tasks its thread ran in the closing barrier; barrier is the wait there\n")
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
		if b := t.Benefit(); !math.IsNaN(b) {
			benefit = fmt.Sprintf("%.1f", b)
		}
		mark := ""
		if t.Exec.Timed < t.Executed {
			mark = "~"
		}
		fmt.Fprintf(tw, "%d\t%d\t%d\t%s%s\t%s\t%s\t%s\t%s\t  %s  %s\n", t.Created, t.Undeferred, t.Suspensions,
			mark, us(t.ExecMeanNs()), us(float64(t.Exec.MinNs)), us(float64(t.Exec.MaxNs)), us(t.CreateMeanNs()), benefit, r.Where(), r.Label())
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
		return r.Kind + " at " + r.Where()
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

// StreamNote says that a run recorded an event stream, what it holds and
// how to export it.
func StreamNote(w io.Writer, dir string) {
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
		fmt.Fprintf(w, "  export it:  gopari trace --otf2 %s --perfetto %s %s\n", filepath.Join(dir, "otf2"), filepath.Join(dir, "trace.pftrace"), dir)
		fmt.Fprintf(w, "  then open %s in Vampir, or %s in Perfetto (ui.perfetto.dev)\n", filepath.Join(dir, "otf2", "traces.otf2"), filepath.Join(dir, "trace.pftrace"))
	}
	fmt.Fprintf(w, "  grains:     gopari grains --csv %s --dot %s %s\n", filepath.Join(dir, "grains.csv"), filepath.Join(dir, "grains.dot"), dir)
}

// id orders rows of equal time: the initial tasks first, then by region id.
func (row regionRow) id() int {
	if row.r == nil {
		return 0
	}
	return row.r.ID
}

func msf(ns float64) string { return ms(uint64(ns + 0.5)) }

// placesNote tells the places in the team tree apart from OS threads,
// once, in the header.
func placesNote(p *profile.Profile) string {
	members := p.ThreadCount().Members
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

// writeLifeNotes says how the run began and ended, when that is not the
// usual start by exec and end by exit().
func writeLifeNotes(w io.Writer, p *profile.Profile) {
	if p.ForkedFrom != 0 {
		fmt.Fprintf(w, "note: forked from pid %d without exec; the profile covers what it did after the fork\n", p.ForkedFrom)
	}
	if p.Exit != "" && p.Exit != "exit" {
		fmt.Fprintf(w, "note: the run was ended by %s; the profile covers it up to then\n", p.Exit)
	}
}
