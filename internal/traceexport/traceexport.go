// Package traceexport runs the exports of gopari trace: it cuts them to
// a window of time and to some threads, estimates each output's size
// from a census of the stream before writing it (internal/chrome,
// internal/otf2), refuses a Chrome JSON larger than a browser loads,
// and reports the progress of long exports.
package traceexport

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"gopari/internal/chrome"
	"gopari/internal/events"
	"gopari/internal/otf2"
	"gopari/internal/perfetto"
	"gopari/internal/timeline"
)

// ChromeLimit is the largest Chrome JSON written without --force: about
// what a browser's trace viewer loads (Perfetto's UI and
// chrome://tracing fail on larger files). Tests lower it.
var ChromeLimit int64 = 1e9

// Announce is the estimated size from which an output's estimate is
// printed before it is written. Tests lower it.
var Announce int64 = 64 << 20

// jsonFrame is what a Chrome JSON has besides its events: its header and
// otherData.
const jsonFrame = 256

// A Source is what is exported: one run, or the ranks of a job.
type Source struct {
	Exp   *events.Experiment // one run
	Job   string             // a job's key
	Ranks []events.Rank      // a job's ranks
}

// A Plan is an export cut as asked, with the census of what it keeps.
type Plan struct {
	src     Source
	runs    []chrome.Run
	Opt     chrome.Options
	census  []*timeline.Census
	Records int64 // stream records
	Kept    int64 // records the cut keeps
	Through int64 // records up to the cut's end: what the replays read
	locs    int
}

// ParseWindow parses --window START:END, in seconds since the run's
// start; either side may be left out (from the start, to the end).
func ParseWindow(s string) (from, to float64, err error) {
	a, b, ok := strings.Cut(s, ":")
	if !ok {
		return 0, 0, fmt.Errorf("--window %q: want START:END in seconds since the run's start, such as 1.5:2", s)
	}
	from, to = 0, math.Inf(1)
	if a != "" {
		if from, err = strconv.ParseFloat(a, 64); err != nil || from < 0 || math.IsNaN(from) {
			return 0, 0, fmt.Errorf("--window %q: the start %q is not a number of seconds", s, a)
		}
	}
	if b != "" {
		if to, err = strconv.ParseFloat(b, 64); err != nil || to < 0 || math.IsNaN(to) {
			return 0, 0, fmt.Errorf("--window %q: the end %q is not a number of seconds", s, b)
		}
	}
	if to <= from {
		return 0, 0, fmt.Errorf("--window %q: the end is not after the start", s)
	}
	return from, to, nil
}

// ParseThreads parses --threads LIST: team paths (0, 0.1, 0.1.2), as the
// CSV files and the report print them, separated by commas.
func ParseThreads(s string) (map[string]bool, error) {
	out := map[string]bool{}
	for _, p := range strings.Split(s, ",") {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		for _, n := range strings.Split(p, ".") {
			if _, err := strconv.ParseUint(n, 10, 32); err != nil {
				return nil, fmt.Errorf("--threads %q: %q is not a team path such as 0.1", s, p)
			}
		}
		out[p] = true
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--threads %q: name at least one team path, such as 0,0.1", s)
	}
	return out, nil
}

// NewPlan checks the cut against src (every thread named exists) and
// counts what it keeps. window is in seconds, nil for the whole run.
func NewPlan(src Source, window *[2]float64, threads map[string]bool) (*Plan, error) {
	p := &Plan{src: src, Opt: chrome.Options{Threads: threads}}
	if src.Exp != nil {
		p.runs = []chrome.Run{chrome.OneRun(src.Exp)}
	} else {
		var err error
		if p.runs, _, err = chrome.Runs(src.Ranks); err != nil {
			return nil, err
		}
	}
	if window != nil {
		p.Opt.Window, p.Opt.From, p.Opt.To = true, window[0]*1e9, window[1]*1e9
	}
	all := map[string]bool{}
	for _, r := range p.runs {
		p.locs += len(r.Exp.Threads)
		for _, t := range r.Exp.Threads {
			all[t.Path] = true
		}
	}
	for t := range threads {
		if !all[t] {
			return nil, fmt.Errorf("--threads: %s has no thread %s; its threads are %s", p.what(), t, p.threadList())
		}
	}
	var err error
	if p.census, err = chrome.Census(p.runs, p.Opt); err != nil {
		return nil, err
	}
	stopped := false
	for i, c := range p.census {
		p.Records += c.Records
		p.Kept += c.Kept
		p.Through += c.Through
		stopped = stopped || c.Stopped && p.runs[i].Exp.Events.Records > 0
	}
	if stopped { // the census read up to the cut's end: the profiles count the rest
		p.Records = 0
		for _, r := range p.runs {
			p.Records += r.Exp.Events.Records
		}
	}
	if p.Kept == 0 {
		span := "after " + secs(p.Opt.From) + " s"
		if !math.IsInf(p.Opt.To, 1) {
			span = "between " + secs(p.Opt.From) + " s and " + secs(p.Opt.To) + " s"
		}
		return nil, fmt.Errorf("--window: %s has no record %s on the threads asked: it lasts %.3f s", p.what(), span, p.seconds())
	}
	return p, nil
}

func secs(ns float64) string { return strconv.FormatFloat(ns/1e9, 'g', -1, 64) }

// what names the source.
func (p *Plan) what() string {
	if p.src.Exp != nil {
		return "the run"
	}
	return "the job"
}

// seconds returns how long the source lasts: its profile's wall time,
// else (a killed run) its last record's time.
func (p *Plan) seconds() float64 {
	var end float64
	for i, r := range p.runs {
		if pr := r.Exp.Profile; pr != nil && pr.WallNs > 0 {
			end = max(end, r.OffNs+float64(pr.WallNs))
		} else {
			end = max(end, r.OffNs+r.Exp.Clock.Ns(p.census[i].End))
		}
	}
	return end / 1e9
}

// threadList lists the threads' team paths, the first few.
func (p *Plan) threadList() string {
	var paths []string
	seen := map[string]bool{}
	for _, r := range p.runs {
		for _, t := range r.Exp.Threads {
			if !seen[t.Path] {
				seen[t.Path] = true
				paths = append(paths, t.Path)
			}
		}
	}
	slices.Sort(paths)
	if len(paths) > 8 {
		return strings.Join(paths[:8], ", ") + fmt.Sprintf(" and %d more", len(paths)-8)
	}
	return strings.Join(paths, ", ")
}

// Estimate returns about how many bytes format ("chrome", "perfetto",
// "otf2") takes.
func (p *Plan) Estimate(format string) int64 {
	switch format {
	case "chrome":
		return jsonFrame + chrome.Estimate(chrome.NewJSON(io.Discard), p.runs, p.census, p.Opt)
	case "perfetto":
		return chrome.Estimate(perfetto.New(io.Discard), p.runs, p.census, p.Opt)
	}
	return otf2.Estimate(p.census, p.locs, chrome.KeptSamples(p.runs, p.Opt))
}

// Refuse returns the error that refuses a Chrome JSON of est bytes, with
// the estimates of what could be written instead, or nil when est is
// within ChromeLimit.
func (p *Plan) Refuse(est int64) error {
	if est <= ChromeLimit {
		return nil
	}
	other := fmt.Sprintf("write --perfetto FILE (about %s)", Size(p.Estimate("perfetto")))
	if otf2.Available {
		other += fmt.Sprintf(" or --otf2 DIR (about %s)", Size(p.Estimate("otf2")))
	}
	return fmt.Errorf("the Chrome JSON would be about %s, more than a browser's trace viewer loads (%s): cut it with --window START:END (%s lasts %.3f s) or --threads LIST (%s), %s, or give --force to write it anyway",
		Size(est), Size(ChromeLimit), p.what(), p.seconds(), p.threadList(), other)
}

// Size prints a byte count: 1.4 GB, 512 kB, 300 B.
func Size(n int64) string {
	switch {
	case n >= 1e9:
		return strconv.FormatFloat(float64(n)/1e9, 'f', 1, 64) + " GB"
	case n >= 1e6:
		return strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64) + " MB"
	case n >= 1e3:
		return strconv.FormatFloat(float64(n)/1e3, 'f', 1, 64) + " kB"
	}
	return strconv.FormatInt(n, 10) + " B"
}

// ParseSlice parses the values of --window and --threads, each when set:
// the window in seconds (nil when unset), the team paths (nil when
// unset). gopari trace and gopari grains cut by them.
func ParseSlice(window string, windowSet bool, threads string, threadsSet bool) (*[2]float64, map[string]bool, error) {
	var w *[2]float64
	if windowSet {
		from, to, err := ParseWindow(window)
		if err != nil {
			return nil, nil, err
		}
		w = &[2]float64{from, to}
	}
	var t map[string]bool
	if threadsSet {
		var err error
		if t, err = ParseThreads(threads); err != nil {
			return nil, nil, err
		}
	}
	return w, t, nil
}
