// Package html writes gopari's report as one self-contained HTML page:
// data, CSS and JavaScript inlined, no fonts or anything else loaded, so
// that it opens from file:// in any browser without a network. Its
// sections: the run (program, arguments, date, threads, wall time, mode,
// warnings), POP efficiency metrics (internal/pop), the regions (a
// sortable, filterable table with a bar per thread), load balance per
// parallel region, tasks and their creation tree, and, where the run
// recorded them, a timeline of the trace, the grain graph, and scaling
// models from gopari model --json. For an MPI job, the ranks.
//
// The page depends only on its input: the same profile gives the same
// bytes. Every string from the input is escaped (html/template, and
// esc for the SVG drawn here); the data for the script is JSON inside a
// script element, with <, > and & escaped.
package html

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"math"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"gopari/internal/events"
	"gopari/internal/job"
	"gopari/internal/model"
	"gopari/internal/pop"
	"gopari/internal/profile"
)

//go:embed assets
var assets embed.FS

// Options bound the page's size.
type Options struct {
	// MaxSegments is the number of timeline segments kept exactly;
	// beyond it the timeline is binned (default 100,000).
	MaxSegments int
	// Bins is the number of timeline bins (even); by default as many as
	// keep the bins' memory under 32 MiB, from 16384 down to 1024.
	Bins int
	// MaxCategories is the number of regions the timeline colours apart
	// (default 24); the rest share one colour.
	MaxCategories int
	// MaxGrainNodes is the size of the grain graph drawn instance by
	// instance; a larger one is drawn grouped (default 400).
	MaxGrainNodes int
	// MaxRegionRows is the number of regions the table shows, the
	// costliest (default 2000).
	MaxRegionRows int
	// AllRanks lists every rank of a job of more than job.SummariseAbove
	// ranks, not their distributions.
	AllRanks bool
}

func (o *Options) defaults() {
	if o.MaxSegments <= 0 {
		o.MaxSegments = 100_000
	}
	o.Bins += o.Bins % 2
	if o.MaxCategories <= 0 {
		o.MaxCategories = 24
	}
	if o.MaxGrainNodes <= 0 {
		o.MaxGrainNodes = 400
	}
	if o.MaxRegionRows <= 0 {
		o.MaxRegionRows = 2000
	}
}

// Input is what a page shows: a run's profile and its directory, or an
// MPI job; and optionally scaling models.
type Input struct {
	Profile *profile.Profile
	// Dir is the run's experiment directory, where its event stream is;
	// empty for a profile without one.
	Dir string
	// Job and Merged describe an MPI job; Profile is then nil.
	Job    *job.Job
	Merged *job.Merged
	// Models are gopari model --json's output; ModelFile names it.
	Models    []model.JSON
	ModelFile string
	Options   Options
	// StreamDamaged, when set, is told when the run's event stream cannot
	// be read (damaged, or files missing). The page is written all the
	// same, from the profile, which is whole: without the timeline and
	// the grain graph, and with the damage among its warnings.
	StreamDamaged func(error)
}

// page is the template's data.
type page struct {
	Title     string
	Head      header
	Eff       *effView
	Job       *jobView
	Regions   []regionRow // the regions that ran, costliest first, at most MaxRegionRows
	HasRegion bool
	Ran       int      // regions that ran
	More      int      // of them, not in Regions
	Idle      []string // regions that never ran, the first maxIdle
	IdleCount int
	Threads   []string
	Balance   []balanceRow
	Tasks     []taskRow
	Tree      []*treeNode
	TreeDepth int
	TaskCount uint64
	Timeline  template.JS // JSON; empty without a trace
	TLMode    string
	TLNote    string
	Grains    *grainGraph
	Charts    []chart
	ModelFile string
	// Flame is the call tree's JSON (flameData); empty without call
	// paths. FlamePaths of its FlameAll paths are drawn.
	Flame      template.JS
	FlamePaths int
	FlameAll   int
	// FlameSampled says how a sampled run's times were taken ("the CPU
	// time of 2403 samples at 1000 Hz"); "" for measured times.
	FlameSampled string
	CSS          template.CSS
	Script       template.JS
}

// Write writes the page for in.
func Write(w io.Writer, in Input) error {
	in.Options.defaults()
	pg, err := build(&in)
	if err != nil {
		return err
	}
	css, err := assets.ReadFile("assets/report.css")
	if err != nil {
		return err
	}
	js, err := assets.ReadFile("assets/report.js")
	if err != nil {
		return err
	}
	pg.CSS, pg.Script = template.CSS(css), template.JS(js)
	var buf bytes.Buffer
	if err := pageTemplate().Execute(&buf, pg); err != nil {
		return err
	}
	_, err = w.Write(buf.Bytes())
	return err
}

// pageTemplate is parsed when first used: not at the start of every
// gopari command (half a millisecond).
var pageTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("page.html").Funcs(template.FuncMap{
		"dur":    dur,
		"pct":    func(v float64) string { return fmt.Sprintf("%.1f%%", 100*v) },
		"num":    func(v float64) string { return numText(v) },
		"rating": pop.Rating,
		"sortv": func(v float64) string { // a table cell's sort key
			if math.IsNaN(v) {
				return "-1"
			}
			return fmt.Sprintf("%.6g", v)
		},
	}).ParseFS(assets, "assets/page.html"))
})

// numText writes an efficiency or ratio, "–" where it is not defined.
func numText(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "–"
	}
	return fmt.Sprintf("%.2f", v)
}

// build gathers the sections.
func build(in *Input) (*page, error) {
	if in.Profile == nil && in.Merged == nil {
		return nil, errors.New("html: no profile and no job")
	}
	pg := &page{}
	if len(in.Models) > 0 {
		pg.Charts = scalingCharts(in.Models)
		pg.ModelFile = filepath.Base(in.ModelFile)
	}
	if in.Merged != nil {
		pg.Job = jobSections(in.Job, in.Merged, in.Options.AllRanks)
		pg.Title = "gopari: job " + in.Merged.Job + " of " + in.Merged.Program
		pg.Head = jobHeader(in.Job, in.Merged)
		if err := pg.mergedCallPaths(in.Merged.CallPaths); err != nil {
			return nil, err
		}
		return pg, nil
	}
	p := in.Profile
	pg.Title = "gopari: " + p.Program
	pg.Head = runHeader(p)
	pg.Eff = effOf(pop.Compute(p))
	threads := sortedThreads(p.Threads)
	for _, t := range threads {
		pg.Threads = append(pg.Threads, t.Path)
	}
	pg.Balance = balanceRows(p)
	pg.regions(regionRows(p, threads), in.Options.MaxRegionRows)
	if err := pg.callPaths(p); err != nil {
		return nil, err
	}
	pg.Tasks = taskRows(p)
	pg.Tree = creationTree(p)
	pg.TreeDepth = p.Tree.MaxDepth
	for _, t := range p.Tasks {
		pg.TaskCount += t.Created
	}
	if in.Dir == "" || p.Events == nil {
		return pg, nil
	}
	exp, err := events.OpenExperiment(in.Dir)
	if err != nil {
		return pg.damaged(in, err), nil
	}
	if hasTrace(p) {
		tl, err := buildTimeline(exp, p.WallNs, in.Options)
		if err != nil {
			return pg.damaged(in, err), nil
		}
		b, err := json.Marshal(tl) // escapes <, > and &: safe inside a script element
		if err != nil {
			return nil, err
		}
		pg.Timeline, pg.TLMode = template.JS(b), tl.Mode
		if tl.Mode == "binned" {
			pg.TLNote = fmt.Sprintf("More than %d segments: summarised in %d bins of %s, each showing the share of its time per category.", in.Options.MaxSegments, tl.Bins, dur(tl.BinNs))
		}
	}
	if hasGrains(exp) {
		if pg.Grains, err = buildGrains(exp, in.Options); err != nil {
			return pg.damaged(in, err), nil
		}
	}
	return pg, nil
}

// damaged leaves out what the page has of the event stream, which err
// says cannot be read, and says so among its warnings.
func (pg *page) damaged(in *Input, err error) *page {
	pg.Timeline, pg.TLMode, pg.TLNote, pg.Grains = "", "", "", nil
	pg.Head.Warnings = append(pg.Head.Warnings, fmt.Sprintf("the event stream cannot be read: %v. The timeline and the grain graph are left out; "+
		"everything else on this page comes from the profile, which is whole", err))
	if in.StreamDamaged != nil {
		in.StreamDamaged(err)
	}
	return pg
}

// maxIdle is the number of regions that never ran the page names.
const maxIdle = 200

// regions splits the rows into those that ran, at most max of them, and
// those that did not.
func (pg *page) regions(rows []regionRow, max int) {
	pg.HasRegion = len(rows) > 0
	shown := 0
	for _, r := range rows {
		if r.Visits == 0 {
			if pg.IdleCount++; pg.IdleCount <= maxIdle {
				pg.Idle = append(pg.Idle, r.Label+" "+r.Where)
			}
			continue
		}
		if r.Kind == "initial" { // the initial tasks' own code: a row, not a region
			pg.Regions = append(pg.Regions, r)
			continue
		}
		if pg.Ran++; pg.Ran <= max {
			pg.Regions = append(pg.Regions, r)
			shown++
		}
	}
	pg.More = pg.Ran - shown
}

// header is the page's first section.
type header struct {
	Program, Args, Date, Mode, Exit, Wall string
	Threads, OSThreads, Regions           int
	ThreadsAre                            string // what Threads counts: team members, or initial threads
	Warnings                              []string
	Rows                                  [][2]string // further facts
}

func runHeader(p *profile.Profile) header {
	h := header{Program: p.Program, Args: quoteArgsJoin(p.Args), Mode: p.Mode, Exit: p.Exit,
		Wall: dur(float64(p.WallNs)), OSThreads: p.OSThreads, Regions: len(p.Regions), Date: runDate(p.Clock.Realtime0Ns)}
	tc := p.ThreadCount()
	h.Threads, h.ThreadsAre = tc.Threads(), threadsAre(tc)
	if p.MPI != nil {
		h.Rows = append(h.Rows, [2]string{"MPI", fmt.Sprintf("rank %d of %d, job %s (%s)", p.MPI.Rank, p.MPI.Size, p.MPI.Job, p.MPI.Launcher)})
	}
	if p.ForkedFrom != 0 {
		h.Warnings = append(h.Warnings, fmt.Sprintf("forked from pid %d without exec: the profile covers what it did after the fork", p.ForkedFrom))
	}
	if p.Exit != "" && p.Exit != "exit" {
		h.Warnings = append(h.Warnings, fmt.Sprintf("the run was ended by %s: the profile covers it up to then", p.Exit))
	}
	if p.UnmatchedEvents > 0 {
		h.Warnings = append(h.Warnings, fmt.Sprintf("%d events had no matching begin on their thread (cancellation, exit inside a region, migrated untied tasks): their time is not attributed", p.UnmatchedEvents))
	}
	if e := p.Events; e != nil {
		if e.Dropped > 0 {
			h.Warnings = append(h.Warnings, fmt.Sprintf("the event stream lost %d of its records (GOPARI_TRACE_MAX_BYTES or a full disk): the timeline has gaps; the profile is exact", e.Dropped))
		}
		if !e.Complete {
			h.Warnings = append(h.Warnings, "the event stream is incomplete: the run ended while threads recorded")
		}
		h.Rows = append(h.Rows, [2]string{"event stream", fmt.Sprintf("%s: %d records, %s", strings.Join(e.Kinds, ", "), e.Records, bytesText(e.Bytes))})
	}
	return h
}

// threadsAre says what a run's count of threads counts
// (profile.ThreadCount.Threads).
func threadsAre(tc profile.ThreadCount) string {
	if tc.Members > 0 {
		return "team member(s)"
	}
	return "initial thread(s), no team"
}

// runDate is the run's start, from the profile: the page carries no
// time of its own making.
func runDate(ns uint64) string {
	if ns == 0 {
		return "unknown"
	}
	return time.Unix(0, int64(ns)).UTC().Format("2006-01-02 15:04:05 UTC")
}

func bytesText(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// quoteArgsJoin quotes arguments as a shell would need them, and joins
// them.
func quoteArgsJoin(args []string) string { return strings.Join(quoteArgs(args), " ") }

func quoteArgs(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		if a != "" && strings.IndexFunc(a, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,+@%", r))
		}) < 0 {
			out[i] = a
			continue
		}
		out[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return out
}

// sortedThreads returns the threads in team-tree order.
func sortedThreads(ts []profile.Thread) []profile.Thread {
	out := append([]profile.Thread(nil), ts...)
	sort.SliceStable(out, func(i, j int) bool { return pop.PathLess(out[i].Path, out[j].Path) })
	return out
}
