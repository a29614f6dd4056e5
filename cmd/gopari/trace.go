package main

import (
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/urfave/cli/v2"

	"gopari/internal/chrome"
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
		if err := writeOut(c, func(w io.Writer) error {
			_, err := fmt.Fprintf(w, "wrote %s: %d records on %d locations from %d stream records in %.2f s\n",
				filepath.Join(dir, "traces.otf2"), n, st.Locations, st.Timeline.Records, time.Since(start).Seconds())
			return err
		}); err != nil {
			return err
		}
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
		if err := writeOut(c, func(w io.Writer) error {
			_, err := fmt.Fprintf(w, "wrote %s: %d trace events (%d slices, %d flows) from %d stream records in %.2f s\n",
				out, st.Events, st.Slices, st.Flows, st.Records, time.Since(start).Seconds())
			return err
		}); err != nil {
			return err
		}
	}
	warnStream(stderr, exp, dropped)
	return nil
}
