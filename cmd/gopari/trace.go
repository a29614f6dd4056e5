package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/urfave/cli/v2"

	"gopari/internal/atomicfile"
	"gopari/internal/chrome"
	"gopari/internal/events"
	"gopari/internal/experiment"
	"gopari/internal/job"
	"gopari/internal/otf2"
	"gopari/internal/report"
)

func traceCommand() *cli.Command {
	return &cli.Command{
		Name: "trace",
		// An argument named h or help is a directory, not a request for help.
		Usage:     "export a traced run to OTF2 (Vampir) or Chrome JSON (Perfetto)",
		ArgsUsage: "EXPERIMENT",
		Description: `Converts the event trace of a run recorded with GOPARI_MODE=trace.
--otf2 DIR writes an OTF2 archive (open DIR/traces.otf2 in Vampir, or read
it with otf2-print); --chrome FILE writes Chrome trace-event JSON (open it
in https://ui.perfetto.dev or chrome://tracing). Given the directory of
an MPI job, it writes one archive (a location group per rank) or one
JSON file (a process per rank) for the whole job, the ranks on one time
line. Outputs appear whole or not at all; an existing OTF2 directory is
never replaced. An export stopped by SIGINT, SIGTERM or SIGHUP removes
what it had begun; one killed by SIGKILL leaves a hidden .NAME.gopari-*.tmp
beside its output, which can be removed.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "otf2", Usage: "write an OTF2 archive into `DIR` (DIR/traces.otf2)"},
			&cli.StringFlag{Name: "chrome", Usage: "write Chrome trace-event JSON to `FILE`"},
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
	out, dir := c.String("chrome"), c.String("otf2")
	if out == "" && dir == "" {
		return usageErr("trace: nothing to do: give --otf2 DIR, --chrome FILE or both")
	}
	if dir != "" && !otf2.Available {
		_, err := otf2.Write(dir, nil)
		return &exitError{code: 1, msg: err.Error()}
	}
	x, err := openExport(c)
	if err != nil {
		return err
	}
	defer atomicfile.CleanupOnSignal(c.App.ErrWriter, "trace", out, dir)()
	var dropped int64
	if dir != "" {
		if dropped, err = x.writeOTF2(c, dir); err != nil {
			return err
		}
	}
	if out != "" {
		if dropped, err = x.writeChrome(c, out); err != nil {
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

func (x *export) writeOTF2(c *cli.Context, dir string) (int64, error) {
	start := time.Now()
	var st otf2.Stats
	var err error
	where := ""
	if x.job != nil {
		st, err = otf2.WriteJob(dir, x.job.Job, x.ranks)
		where = fmt.Sprintf(" of %d ranks", len(x.ranks))
	} else {
		st, err = otf2.Write(dir, x.exp)
	}
	if err != nil {
		return 0, &exitError{code: 1, msg: err.Error()}
	}
	var n int64
	for _, v := range st.Records {
		n += v
	}
	return st.Timeline.Dropped, writeOut(c, func(w io.Writer) error {
		_, err := fmt.Fprintf(w, "wrote %s: %d records on %d locations%s from %d stream records in %.2f s\n",
			filepath.Join(dir, "traces.otf2"), n, st.Locations, where, st.Timeline.Records, time.Since(start).Seconds())
		return err
	})
}

func (x *export) writeChrome(c *cli.Context, out string) (int64, error) {
	start := time.Now()
	var st chrome.Stats
	err := atomicfile.Write(out, func(w io.Writer) error {
		var err error
		if x.job != nil {
			st, err = chrome.WriteJob(w, x.job.Job, x.ranks)
		} else {
			st, err = chrome.Write(w, x.exp)
		}
		return err
	})
	if err != nil {
		return 0, &exitError{code: 1, msg: err.Error()}
	}
	return st.Timeline.Dropped, writeOut(c, func(w io.Writer) error {
		_, err := fmt.Fprintf(w, "wrote %s: %d trace events (%d slices, %d flows) from %d stream records in %.2f s\n",
			out, st.Events, st.Slices, st.Flows, st.Records, time.Since(start).Seconds())
		return err
	})
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
