package main

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"gopari/internal/atomicfile"
	"gopari/internal/events"
	"gopari/internal/experiment"
	"gopari/internal/grains"
	"gopari/internal/traceexport"
)

func grainsCommand() *cli.Command {
	return &cli.Command{
		Name:      "grains",
		Usage:     "grains of a run: every task and loop chunk, its metrics, the grain graph and what to fix",
		ArgsUsage: "EXPERIMENT",
		Description: `Reads the grains of a run recorded with GOPARI_GRAINS=1 (or GOPARI_MODE=trace):
every task instance, taskloop task and loop chunk (programs instrumented with
--chunks). Prints the grains to fix, worst first; --csv writes one row per
grain with its metrics, --dot and --graphml the grain graph (Graphviz; yEd,
Gephi). --baseline names a 1-thread run of the same program, for work
deviation (inflation), matched grain by grain by lineage. --window START:END
(seconds since the run's start) and --threads LIST (team paths) write only
the grains that ran then and there; their metrics stay the whole run's.
Large outputs are announced with their estimated size, and long passes
report their progress on stderr.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "csv", Usage: "write one row per grain to `FILE`"},
			&cli.StringFlag{Name: "dot", Usage: "write the grain graph for Graphviz to `FILE`"},
			&cli.StringFlag{Name: "graphml", Usage: "write the grain graph as GraphML to `FILE`"},
			&cli.StringFlag{Name: "baseline", Usage: "a 1-thread run of the same program, `DIR`"},
			&cli.Float64Flag{Name: "benefit", Value: 1, Usage: "flag grains whose parallel benefit is below `X`"},
			&cli.Float64Flag{Name: "inflation", Value: 1.5, Usage: "flag grains that take more than `X` times their baseline time"},
			&cli.Float64Flag{Name: "parallelism", Usage: "flag critical-path grains that ran with parallelism below `X` (default half the largest team)"},
			&cli.Float64Flag{Name: "balance", Value: 0.8, Usage: "flag loops whose load balance is below `X`"},
			&cli.IntFlag{Name: "max-nodes", Value: 5000, Usage: "group the graph by region and depth above `N` nodes"},
			&cli.IntFlag{Name: "top", Value: 10, Usage: "show the `N` worst problems (0: all)"},
			&cli.StringFlag{Name: "window", Usage: "write only grains that ran within `START:END`, in seconds since the run's start"},
			&cli.StringFlag{Name: "threads", Usage: "write only grains that ran on the team paths `LIST` (0,0.1)"},
		},
		Action: runGrains,
	}
}

func runGrains(c *cli.Context) error {
	exp, err := openExperiment(c, "grains")
	if err != nil {
		return err
	}
	if !exp.Events.Has("grains") && !exp.Events.Has("trace") {
		return &exitError{code: 1, msg: fmt.Sprintf("%s: the stream holds no grains (record with GOPARI_GRAINS=1 or GOPARI_MODE=trace)", exp.Dir)}
	}
	opts, err := grainsOptions(c, exp)
	if err != nil {
		return err
	}
	a, err := grains.Analyze(exp, opts)
	if err != nil {
		return &exitError{code: 1, msg: err.Error()}
	}
	stderr := c.App.ErrWriter
	grains.Announce(stderr, a, c.String("csv"), c.String("dot"), c.String("graphml"))
	var graph *grains.Graph
	if c.String("dot") != "" || c.String("graphml") != "" {
		graph = grains.NewGraph(c.Int("max-nodes"))
	}
	var res *grains.Result
	pass := func(w io.Writer) error {
		var err error
		res, err = a.Write(grains.Outputs{CSV: w, Graph: graph})
		return err
	}
	if f := c.String("csv"); f != "" {
		err = atomicfile.Write(f, pass)
	} else {
		err = pass(nil)
	}
	if err != nil {
		return &exitError{code: 1, msg: err.Error()}
	}
	if graph != nil && graph.Grouped {
		fmt.Fprintf(stderr, "gopari: the grain graph would have more than %d nodes (%d grains): written grouped by region and lineage depth, %d nodes; --max-nodes raises the limit\n",
			c.Int("max-nodes"), graph.Grains(), graph.Nodes())
	}
	title := fmt.Sprintf("grains of %s (pid %d)", filepath.Base(exp.Program), exp.PID)
	if f := c.String("dot"); f != "" {
		if err := atomicfile.Write(f, func(w io.Writer) error { return graph.WriteDOT(w, title) }); err != nil {
			return &exitError{code: 1, msg: err.Error()}
		}
	}
	if f := c.String("graphml"); f != "" {
		if err := atomicfile.Write(f, graph.WriteGraphML); err != nil {
			return &exitError{code: 1, msg: err.Error()}
		}
	}
	warnStream(stderr, exp, a.Timeline.Dropped)
	if err := writeOut(c, func(w io.Writer) error {
		a.Summary(w, res, c.Int("top"))
		return nil // writeOut's buffer keeps the first write error
	}); err != nil {
		return err
	}
	return partialIf(exp)
}

// grainsOptions reads grains' flags; --baseline opens the baseline run,
// warning about one that does not look like exp's run on one thread.
func grainsOptions(c *cli.Context, exp *events.Experiment) (grains.Options, error) {
	var opts grains.Options
	for _, f := range []string{"benefit", "inflation", "balance"} {
		if c.Float64(f) <= 0 {
			return opts, usageErr("grains: --%s must be above 0", f)
		}
	}
	if c.Float64("parallelism") < 0 || c.Int("max-nodes") < 1 {
		return opts, usageErr("grains: --parallelism must be positive and --max-nodes at least 1")
	}
	window, threads, err := traceexport.ParseSlice(c.String("window"), c.IsSet("window"), c.String("threads"), c.IsSet("threads"))
	if err != nil {
		return opts, usageErr("grains: %v", err)
	}
	opts = grains.Options{Benefit: c.Float64("benefit"), Inflation: c.Float64("inflation"), Progress: c.App.ErrWriter,
		Parallelism: c.Float64("parallelism"), Balance: c.Float64("balance"), Scatter: c.String("csv") != "",
		Slice: grains.Slice{Threads: threads}}
	if window != nil {
		opts.Slice.Window = &[2]float64{window[0] * 1e9, window[1] * 1e9}
	}
	if err := opts.Slice.CheckThreads(exp); err != nil {
		return opts, &exitError{code: 1, msg: "grains: " + err.Error()}
	}
	if b := c.String("baseline"); b != "" {
		base, err := events.OpenExperiment(experiment.Dir(b))
		if err != nil {
			return opts, &exitError{code: 1, msg: "--baseline: " + err.Error()}
		}
		if base.Killed != nil {
			fmt.Fprintf(c.App.ErrWriter, "gopari: warning: --baseline: %s\n", base.KilledSummary())
		}
		if filepath.Base(base.Program) != filepath.Base(exp.Program) {
			fmt.Fprintf(c.App.ErrWriter, "gopari: warning: the baseline ran %s, this run %s\n", base.Program, exp.Program)
		}
		if n := teamSize(base); n > 1 {
			fmt.Fprintf(c.App.ErrWriter, "gopari: warning: the baseline ran teams of %d threads, not 1\n", n)
		}
		opts.Baseline = base
	}
	return opts, nil
}

// teamSize returns the size of the largest team a run had.
func teamSize(exp *events.Experiment) int {
	kids := map[string]int{}
	best := 0
	for _, t := range exp.Threads {
		if t.Level == 0 {
			continue
		}
		p := filepath.Ext(t.Path) // ".N": the parent is what precedes it
		parent := t.Path[:len(t.Path)-len(p)]
		kids[parent]++
		best = max(best, kids[parent])
	}
	return best
}
