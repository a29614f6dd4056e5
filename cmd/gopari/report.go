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

	"gopari/internal/profile"
)

func reportCommand() *cli.Command {
	return &cli.Command{
		Name:      "report",
		Usage:     "print what a profile says",
		ArgsUsage: "[DIR | profile.json]",
		Description: `Reads the profile that an instrumented program wrote into its experiment
directory (default: the newest gopari-* directory here) and prints the
regions by time, the load imbalance of parallel regions, task statistics
and the task creation tree. --json prints the profile itself.`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "print the profile as JSON"},
			&cli.IntFlag{Name: "top", Value: 20, Usage: "show the `N` costliest regions"},
		},
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
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = filepath.Join(path, "profile.json")
	}
	if c.Bool("json") {
		b, err := os.ReadFile(path)
		if err == nil {
			_, err = profile.Read(path) // check it is a profile
		}
		if err != nil {
			return &exitError{code: 1, msg: err.Error()}
		}
		_, err = c.App.Writer.Write(b)
		return err
	}
	p, err := profile.Read(path)
	if err != nil {
		return &exitError{code: 1, msg: err.Error()}
	}
	writeReport(c.App.Writer, p, c.Int("top"))
	return nil
}

// newestExperiment finds the most recent experiment directory in dir.
func newestExperiment(dir string) (string, error) {
	matches, _ := filepath.Glob(filepath.Join(dir, "gopari-*", "profile.json"))
	if len(matches) == 0 {
		return "", fmt.Errorf("no gopari-* experiment directory here; name one: gopari report DIR")
	}
	best, bestTime := "", int64(0)
	for _, m := range matches {
		if st, err := os.Stat(m); err == nil && st.ModTime().UnixNano() >= bestTime {
			best, bestTime = filepath.Dir(m), st.ModTime().UnixNano()
		}
	}
	return best, nil
}

// regionTime is what the report sorts regions by.
type regionTime struct {
	r          *profile.Region
	visits     uint64
	incl, excl uint64
}

func where(r *profile.Region) string {
	if r.EndLine > r.BeginLine {
		return fmt.Sprintf("%s:%d-%d", r.File, r.BeginLine, r.EndLine)
	}
	return fmt.Sprintf("%s:%d", r.File, r.BeginLine)
}

func label(r *profile.Region) string {
	s := r.Kind
	if r.Name != r.Kind && r.Kind != "user" && r.Kind != "lock" {
		s += " (" + r.Name + ")"
	}
	if r.SubName != "" {
		s += " " + r.SubName
	}
	return s
}

func ms(ns uint64) string  { return fmt.Sprintf("%.3f", float64(ns)/1e6) }
func us(ns float64) string { return fmt.Sprintf("%.2f", ns/1e3) }

func writeReport(w io.Writer, p *profile.Profile, top int) {
	fmt.Fprintf(w, "gopari profile of %s (pid %d, mode %s): %.3f s, %d threads in the team tree on %d OS threads\n",
		p.Program, p.PID, p.Mode, float64(p.WallNs)/1e9, len(p.Threads), p.OSThreads)
	if p.UnmatchedEvents > 0 {
		fmt.Fprintf(w, "note: %d events had no matching begin on their thread (cancellation, exit inside a region, migrated untied tasks); their time is not attributed\n", p.UnmatchedEvents)
	}

	// Regions by inclusive time, summed over threads. A task's time is its
	// execution; a parallel region's is the team's work (its implicit
	// tasks).
	times := map[int]*regionTime{}
	for i := range p.Regions {
		times[p.Regions[i].ID] = &regionTime{r: &p.Regions[i]}
	}
	for _, s := range p.Stats {
		rt := times[s.Region]
		if rt == nil {
			continue
		}
		ph := s.Construct
		if rt.r.Kind == "parallel" {
			ph = s.Body
		}
		if ph != nil {
			rt.visits += ph.Visits
			rt.incl += ph.InclNs
			rt.excl += ph.ExclNs
		}
		if s.Barrier != nil {
			rt.incl += s.Barrier.InclNs
			rt.excl += s.Barrier.ExclNs
		}
		if rt.r.Kind == "lock" && s.LockAcquired > 0 {
			rt.visits = s.Construct.Visits
		}
	}
	for _, t := range p.Tasks {
		if rt := times[t.Region]; rt != nil {
			rt.incl, rt.visits = t.Exec.SumNs, t.Executed
		}
	}
	var list []*regionTime
	for _, rt := range times {
		if rt.visits > 0 {
			list = append(list, rt)
		}
	}
	// Sorted by exclusive time: summed inclusive times count recursive
	// regions (nested taskwaits, tasks creating tasks) many times over.
	sort.Slice(list, func(i, j int) bool {
		if list[i].excl != list[j].excl {
			return list[i].excl > list[j].excl
		}
		return list[i].r.ID < list[j].r.ID
	})
	fmt.Fprintf(w, "\nRegions by exclusive time (summed over threads; inclusive time counts nested and recursive regions again)\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "excl ms\tincl ms\tvisits\t  region\n")
	for i, rt := range list {
		if i == top {
			fmt.Fprintf(tw, "\t\t\t  (%d more; --top %d shows them)\n", len(list)-top, len(list))
			break
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t  %s  %s\n", ms(rt.excl), ms(rt.incl), rt.visits, where(rt.r), label(rt.r))
	}
	tw.Flush()

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
	fmt.Fprintf(tw, "threads\tmin ms\tmean ms\tmax ms\timbalance\t  region\n")
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
		r := p.Region(id)
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%.1f%%\t  %s  %s\n", len(work), ms(min), ms(uint64(mean)), ms(max), imb, where(r), label(r))
	}
	tw.Flush()
	fmt.Fprintf(w, "imbalance is (max - mean) / max: the share of the slowest thread's time that the others spent waiting\n")
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
		if c := t.Create.MeanNs(); c > 0 {
			benefit = fmt.Sprintf("%.1f", t.Exec.MeanNs()/c)
		}
		fmt.Fprintf(tw, "%d\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t  %s  %s\n", t.Created, t.Undeferred, t.Suspensions,
			us(t.Exec.MeanNs()), us(float64(t.Exec.MinNs)), us(float64(t.Exec.MaxNs)), us(t.Create.MeanNs()), benefit, where(r), label(r))
	}
	tw.Flush()
	fmt.Fprintf(w, "benefit is mean execution over mean creation time: below 1, a task costs more to create than it does\n")
}

func regionName(p *profile.Profile, id int) string {
	switch id {
	case 0:
		return "initial task"
	case -1:
		return "other parents"
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
	fmt.Fprintf(w, "\nThreads (team paths: 0.1.1 is thread 1 of the team forked by thread 0.1)\n")
	var b strings.Builder
	for i, t := range p.Threads {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s on OS thread %d", t.Path, t.OSThread)
	}
	fmt.Fprintf(w, "  %s\n", b.String())
}
