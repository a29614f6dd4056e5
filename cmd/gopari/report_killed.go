package main

// Runs killed before they wrote their profile (SIGKILL, the
// out-of-memory killer): what report, trace and grains say of them, and
// the exit status of what they write from such a run.

import (
	"io"

	"github.com/urfave/cli/v2"

	"gopari/internal/events"
	"gopari/internal/report"
	"gopari/internal/salvage"
)

// partialExit is the exit status of report, trace and grains when what
// they wrote comes from a killed run: written, whole, and partial.
var partialExit = &exitError{code: 3}

// runKilledReport prints what a killed run's stream holds, and ends with
// exit status 3.
func runKilledReport(c *cli.Context, exp *events.Experiment) error {
	s, err := salvage.Read(exp)
	if err != nil {
		return failure(err)
	}
	if err := writeOut(c, func(w io.Writer) error {
		report.WriteKilled(w, exp, s, c.Int("top"))
		return nil
	}); err != nil {
		return err
	}
	return partialExit
}
