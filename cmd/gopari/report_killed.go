package main

// Runs killed before they wrote their profile (SIGKILL, the
// out-of-memory killer): what report, trace and grains say of them, and
// the exit status of what they write from such a run.

import (
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/urfave/cli/v2"

	"gopari/internal/events"
	"gopari/internal/report"
	"gopari/internal/salvage"
)

// partialExit is the exit status of report, trace and grains when what
// they wrote comes from a killed run: written, whole, and partial.
var partialExit = &exitError{code: 3}

// killedRun returns the killed run in dir, given the error of reading its
// profile.json: nil when the profile failed for another reason, or when
// no stream.json says the run was killed.
func killedRun(dir string, perr error) (*events.Experiment, error) {
	if !errors.Is(perr, fs.ErrNotExist) {
		return nil, nil
	}
	exp, err := events.OpenExperiment(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	if exp.Killed == nil {
		return nil, nil
	}
	return exp, nil
}

// warnKilled says on w that exp is a killed run's, what it keeps and
// what it lost.
func warnKilled(w io.Writer, exp *events.Experiment) {
	if exp.Killed == nil {
		return
	}
	fmt.Fprintf(w, "gopari: warning: %s\n", exp.KilledSummary())
	for _, n := range exp.KilledNotes() {
		fmt.Fprintf(w, "gopari: note: %s\n", n)
	}
}

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
