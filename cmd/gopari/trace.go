package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"gopari/internal/atomicfile"
	"gopari/internal/events"
	"gopari/internal/experiment"
	"gopari/internal/job"
	"gopari/internal/otf2"
	"gopari/internal/report"
	"gopari/internal/traceexport"
)

func traceCommand() *cli.Command {
	return &cli.Command{
		Name: "trace",
		// An argument named h or help is a directory, not a request for help.
		Usage:     "export a traced run to OTF2 (Vampir), Perfetto or Chrome JSON",
		ArgsUsage: "EXPERIMENT",
		Description: `Converts the event trace of a run recorded with GOPARI_MODE=trace.
--otf2 DIR writes an OTF2 archive (open DIR/traces.otf2 in Vampir, or read
it with otf2-print); --perfetto FILE writes Perfetto's protobuf trace (open
it in https://ui.perfetto.dev or trace_processor), several times smaller
than --chrome FILE, Chrome trace-event JSON (Perfetto, chrome://tracing).
--window START:END (seconds since the run's start) and --threads LIST
(team paths, as the CSV files print them: 0,0.1) cut the exports. Each output's size is estimated first; a Chrome JSON
larger than a browser loads (about 1 GB) is refused, with the estimates
of the other choices, unless --force. Long exports report their progress
on stderr. Given the directory of an MPI job, it writes one archive (a
location group per rank) or one trace (a process per rank) for the whole
job, the ranks on one time line. Outputs appear whole or not at all; an
existing OTF2 directory is never replaced. An export stopped by SIGINT,
SIGTERM or SIGHUP removes what it had begun; one killed by SIGKILL leaves
a hidden .NAME.gopari-*.tmp beside its output, which can be removed.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "otf2", Usage: "write an OTF2 archive into `DIR` (DIR/traces.otf2)"},
			&cli.StringFlag{Name: "perfetto", Usage: "write Perfetto's protobuf trace to `FILE`"},
			&cli.StringFlag{Name: "chrome", Usage: "write Chrome trace-event JSON to `FILE`"},
			&cli.StringFlag{Name: "window", Usage: "export only `START:END`, in seconds since the run's start (either may be left out)"},
			&cli.StringFlag{Name: "threads", Usage: "export only the threads of team paths `LIST` (0,0.1,0.1.2)"},
			&cli.BoolFlag{Name: "force", Usage: "write a Chrome JSON larger than a browser loads"},
		},
		Action: runTrace,
	}
}

// An export is what gopari trace exports: one run, or the ranks of a
// job.
type export struct {
	exp   *events.Experiment // one run
	job   *job.Job
	ranks []events.Rank
}

func runTrace(c *cli.Context) error {
	out, pf, dir := c.String("chrome"), c.String("perfetto"), c.String("otf2")
	if out == "" && pf == "" && dir == "" {
		return usageErr("trace: nothing to do: give --otf2 DIR, --perfetto FILE, --chrome FILE or several")
	}
	window, threads, err := traceexport.ParseSlice(c.String("window"), c.IsSet("window"), c.String("threads"), c.IsSet("threads"))
	if err != nil {
		return usageErr("trace: %v", err)
	}
	if dir != "" && !otf2.Available {
		_, err := otf2.Write(dir, nil)
		return &exitError{code: 1, msg: err.Error()}
	}
	x, err := openExport(c)
	if err != nil {
		return err
	}
	src := traceexport.Source{Exp: x.exp, Ranks: x.ranks}
	if x.job != nil {
		src.Job = x.job.Job
	}
	plan, err := traceexport.NewPlan(src, window, threads)
	if err != nil {
		return &exitError{code: 1, msg: "trace: " + err.Error()}
	}
	if out != "" && !c.Bool("force") {
		if err := plan.Refuse(plan.Estimate("chrome")); err != nil {
			return &exitError{code: 1, msg: "trace: " + err.Error()}
		}
	}
	defer atomicfile.CleanupOnSignal(c.App.ErrWriter, "trace", out, pf, dir)()
	var dropped int64
	for _, w := range []struct {
		to    string
		write func() (string, int64, error)
	}{
		{dir, func() (string, int64, error) { return plan.WriteOTF2(c.App.ErrWriter, dir) }},
		{pf, func() (string, int64, error) { return plan.WritePerfetto(c.App.ErrWriter, pf) }},
		{out, func() (string, int64, error) { return plan.WriteChrome(c.App.ErrWriter, out, c.Bool("force")) }},
	} {
		if w.to == "" {
			continue
		}
		line, d, err := w.write()
		if err != nil {
			return &exitError{code: 1, msg: err.Error()}
		}
		dropped = d
		if err := writeOut(c, func(w io.Writer) error { _, err := fmt.Fprintln(w, line); return err }); err != nil {
			return err
		}
	}
	x.warn(c.App.ErrWriter, dropped)
	return partialIf(x.exp)
}

// openExport opens the experiment named on the command line, or every
// rank of a job's directory.
func openExport(c *cli.Context) (*export, error) {
	path, err := experimentArg(c, "trace")
	if err != nil {
		return nil, err
	}
	if !experiment.IsJob(path) {
		exp, err := openExperimentDir(path)
		if err != nil {
			return nil, err
		}
		if !exp.Events.Has("trace") {
			return nil, &exitError{code: 1, msg: fmt.Sprintf("%s: the run recorded grains, not a trace (GOPARI_MODE=trace records one); gopari grains reads it", exp.Dir)}
		}
		return &export{exp: exp}, nil
	}
	j, err := job.Read(path, experiment.Explain)
	if err != nil {
		return nil, &exitError{code: 1, msg: err.Error()}
	}
	x := &export{job: j}
	for _, r := range j.Ranks {
		exp, err := events.OpenExperiment(filepath.Join(path, r.Dir))
		if errors.Is(err, events.ErrNoEvents) {
			return nil, &exitError{code: 1, msg: fmt.Sprintf("%s: rank %d has no event stream: the job was not recorded with GOPARI_MODE=trace", path, r.Rank)}
		}
		if err != nil {
			return nil, &exitError{code: 1, msg: err.Error()}
		}
		if !exp.Events.Has("trace") {
			return nil, &exitError{code: 1, msg: fmt.Sprintf("%s: rank %d recorded grains, not a trace (GOPARI_MODE=trace records one)", path, r.Rank)}
		}
		x.ranks = append(x.ranks, events.Rank{Rank: r.Rank, Exp: exp})
	}
	if len(x.ranks) == 0 {
		return nil, &exitError{code: 1, msg: fmt.Sprintf("%s: no rank of the job has a profile%s", path, report.JobGaps(j))}
	}
	return x, nil
}

// warn says what the reader of the export must know: records dropped,
// ranks missing or damaged, runs that ended while threads recorded.
func (x *export) warn(w io.Writer, dropped int64) {
	if x.job == nil {
		warnStream(w, x.exp, dropped)
		return
	}
	var recorded int64
	for _, r := range x.ranks {
		recorded += r.Exp.Events.Dropped
		if !r.Exp.Events.Complete {
			fmt.Fprintf(w, "gopari: warning: rank %d ended while threads were recording; their last events are missing\n", r.Rank)
		}
	}
	if d := max(dropped, recorded); d > 0 {
		fmt.Fprintf(w, "gopari: warning: the runtime dropped %d records (GOPARI_TRACE_MAX_BYTES or a full disk); the trace has gaps where it says so, the profiles are exact\n", d)
	}
	if gaps := report.JobGaps(x.job); gaps != "" {
		fmt.Fprintf(w, "gopari: warning: the trace has only the ranks with a profile%s\n", gaps)
	}
}
