package grains

import (
	"fmt"
	"io"
	"time"

	"gopari/internal/events"
	"gopari/internal/timeline"
)

// A Slice selects the grains that gopari grains writes (--window,
// --threads): those that ran, at least in part, within Window, and on
// one of Threads. A grain's metrics stay those of the whole run (its
// benefit, its place on the critical path, its parallelism); the summary
// counts the grains of the slice.
type Slice struct {
	// Window is [from, to) in ns since the run's start; nil for the
	// whole run.
	Window *[2]float64
	// Threads are team paths (0, 0.1); nil for every thread. A grain
	// that moved (an untied task) is kept if any thread it ran on is.
	Threads map[string]bool
}

// All reports whether the slice keeps every grain.
func (s Slice) All() bool { return s.Window == nil && s.Threads == nil }

// keeps reports whether the slice keeps grain g of exp.
func (s Slice) keeps(exp *events.Experiment, g *Grain) bool {
	if s.Window != nil {
		ck := exp.Clock
		if ck.Ns(g.End) <= s.Window[0] || ck.Ns(g.Begin) >= s.Window[1] {
			return false
		}
	}
	if s.Threads == nil {
		return true
	}
	on := func(loc int) bool { return loc >= 0 && loc < len(exp.Threads) && s.Threads[exp.Threads[loc].Path] }
	if on(g.Loc) {
		return true
	}
	for _, l := range g.Locs {
		if on(l) {
			return true
		}
	}
	return false
}

// CheckThreads returns an error naming a thread of s that exp never had.
func (s Slice) CheckThreads(exp *events.Experiment) error {
	have := map[string]bool{}
	for _, t := range exp.Threads {
		have[t.Path] = true
	}
	for p := range s.Threads {
		if !have[p] {
			return fmt.Errorf("--threads: the run has no thread %s", p)
		}
	}
	return nil
}

// rowBytes is what a CSV row takes on average, and graphBytes a node of
// the DOT or GraphML graph with its edge: estimates of an output's size
// before it is written (measured on the demos' grains: 180 to 260 bytes
// a row).
const (
	rowBytes   = 240
	graphBytes = 300
)

// Estimate returns the estimated bytes of the CSV and of a grain graph
// for the grains the slice keeps (Kept, counted by the first pass).
func (a *Analysis) Estimate() (csv, graph int64) {
	return a.Kept * rowBytes, a.Kept * graphBytes
}

// Every is how often the second pass over a long stream reports its
// progress. Tests lower it.
var Every = 5 * time.Second

// progress returns an observer of a pass over the stream that prints, on
// w, how far the pass (what) has read it: a line every Every, from the
// first Every on; then, if next is not nil, it calls it.
func (a *Analysis) progress(w io.Writer, what string, next func(*timeline.Replay, *timeline.Event)) func(*timeline.Replay, *timeline.Event) {
	if w == nil {
		return next
	}
	start := time.Now()
	last := start
	total := max(a.Exp.Events.Records, 1)
	var n int64
	return func(r *timeline.Replay, ev *timeline.Event) {
		if next != nil {
			next(r, ev)
		}
		n++
		if n&4095 != 0 {
			return
		}
		now := time.Now()
		if now.Sub(last) < Every {
			return
		}
		last = now
		done := min(float64(n)/float64(total), 1)
		el := now.Sub(start)
		fmt.Fprintf(w, "gopari grains: %s: %.0f%% of %d records read (elapsed %s, about %s left)\n",
			what, 100*done, total, el.Round(time.Second), (time.Duration(float64(el)/done) - el).Round(time.Second))
	}
}

// AnnounceFrom is the estimated size from which Announce prints an
// output's estimate before it is written. Tests lower it.
var AnnounceFrom int64 = 64 << 20

// Announce prints on w, for each output named (the CSV, DOT and GraphML
// files; "" for none) whose estimated size is at least AnnounceFrom, what
// it will hold, before the second pass writes it.
func Announce(w io.Writer, a *Analysis, csv, dot, graphml string) {
	csvBytes, graphBytes := a.Estimate()
	for _, o := range []struct {
		name, file string
		bytes      int64
	}{{"the CSV", csv, csvBytes}, {"the DOT graph", dot, graphBytes}, {"the GraphML graph", graphml, graphBytes}} {
		if o.file != "" && o.bytes >= AnnounceFrom {
			fmt.Fprintf(w, "gopari grains: writing %s to %s: about %d MB for %d of %d grains\n", o.name, o.file, o.bytes>>20, a.Kept, a.Grains)
		}
	}
}
