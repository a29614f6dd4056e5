package main

import (
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/urfave/cli/v2"

	"gopari/internal/chrome"
	"gopari/internal/events"
	"gopari/internal/otf2"
)

func traceCommand() *cli.Command {
	return &cli.Command{
		Name:      "trace",
		Usage:     "export a traced run to OTF2 (Vampir) or Chrome JSON (Perfetto)",
		ArgsUsage: "EXPERIMENT",
		Description: `Converts the event trace of a run recorded with GOPARI_MODE=trace.
--otf2 DIR writes an OTF2 archive (open DIR/traces.otf2 in Vampir, or read
it with otf2-print); --chrome FILE writes Chrome trace-event JSON (open it
in https://ui.perfetto.dev or chrome://tracing). Outputs appear whole or
not at all; an existing OTF2 directory is never replaced.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "otf2", Usage: "write an OTF2 archive into `DIR` (DIR/traces.otf2)"},
			&cli.StringFlag{Name: "chrome", Usage: "write Chrome trace-event JSON to `FILE`"},
		},
		Action: runTrace,
	}
}

// openExperiment resolves the EXPERIMENT argument (a directory, or its
// profile.json; default the newest gopari-* directory here) and opens its
// event stream.
func openExperiment(c *cli.Context, cmd string) (*events.Experiment, error) {
	if c.NArg() > 1 {
		return nil, usageErr("%s: one experiment directory at a time", cmd)
	}
	dir := c.Args().First()
	if dir == "" {
		var err error
		if dir, err = newestExperiment("."); err != nil {
			return nil, &exitError{code: 1, msg: err.Error()}
		}
	}
	if filepath.Base(dir) == "profile.json" {
		dir = filepath.Dir(dir)
	}
	exp, err := events.OpenExperiment(dir)
	if err != nil {
		return nil, &exitError{code: 1, msg: err.Error()}
	}
	return exp, nil
}

// warnStream says on w what the consumer of an export must know: records
// the runtime dropped, a run that ended while threads recorded.
func warnStream(w io.Writer, exp *events.Experiment, dropped int64) {
	if d := max(dropped, exp.Events.Dropped); d > 0 {
		fmt.Fprintf(w, "gopari: warning: the runtime dropped %d records (GOPARI_TRACE_MAX_BYTES or a full disk); the trace has gaps where it says so, the profile is exact\n", d)
	}
	if !exp.Events.Complete {
		fmt.Fprintf(w, "gopari: warning: the run ended while threads were recording; their last events are missing\n")
	}
}

func runTrace(c *cli.Context) error {
	out, dir := c.String("chrome"), c.String("otf2")
	if out == "" && dir == "" {
		return usageErr("trace: nothing to do: give --otf2 DIR, --chrome FILE or both")
	}
	exp, err := openExperiment(c, "trace")
	if err != nil {
		return err
	}
	if !exp.Events.Has("trace") {
		return &exitError{code: 1, msg: fmt.Sprintf("%s: the run recorded grains, not a trace (GOPARI_MODE=trace records one); gopari grains reads it", exp.Dir)}
	}
	stderr := c.App.ErrWriter
	var dropped int64
	if dir != "" {
		if !otf2.Available {
			_, err := otf2.Write(dir, exp)
			return &exitError{code: 1, msg: err.Error()}
		}
		start := time.Now()
		st, err := otf2.Write(dir, exp)
		if err != nil {
			return &exitError{code: 1, msg: err.Error()}
		}
		var n int64
		for _, v := range st.Records {
			n += v
		}
		dropped = st.Timeline.Dropped
		fmt.Fprintf(c.App.Writer, "wrote %s: %d records on %d locations from %d stream records in %.2f s\n",
			filepath.Join(dir, "traces.otf2"), n, st.Locations, st.Timeline.Records, time.Since(start).Seconds())
	}
	if out != "" {
		start := time.Now()
		var st chrome.Stats
		err := writeAtomic(out, func(w io.Writer) error {
			var err error
			st, err = chrome.Write(w, exp)
			return err
		})
		if err != nil {
			return &exitError{code: 1, msg: err.Error()}
		}
		dropped = st.Timeline.Dropped
		fmt.Fprintf(c.App.Writer, "wrote %s: %d trace events (%d slices, %d flows) from %d stream records in %.2f s\n",
			out, st.Events, st.Slices, st.Flows, st.Records, time.Since(start).Seconds())
	}
	warnStream(stderr, exp, dropped)
	return nil
}
