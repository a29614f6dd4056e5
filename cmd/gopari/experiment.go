package main

// Experiment directories: what report, trace and the other readers of a
// run take as their argument, and what to say when a run left no
// profile in its directory.

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"gopari/internal/events"
	"gopari/internal/experiment"
)

// openExperiment resolves the EXPERIMENT argument (a directory, or its
// profile.json; default the newest gopari-* directory here) and opens its
// event stream. An MPI job's directory is refused with a hint.
func openExperiment(c *cli.Context, cmd string) (*events.Experiment, error) {
	dir, err := experimentArg(c, cmd)
	if err != nil {
		return nil, err
	}
	if experiment.IsJob(dir) {
		return nil, &exitError{code: 1, msg: fmt.Sprintf("%s is the directory of an MPI job: name one rank's directory (%s)", dir, filepath.Join(dir, experiment.RankDir(0)))}
	}
	return openExperimentDir(dir)
}

// experimentArg returns the directory that the EXPERIMENT argument names
// (a directory, or its profile.json; default the newest gopari-*
// directory here).
func experimentArg(c *cli.Context, cmd string) (string, error) {
	if c.NArg() > 1 {
		return "", usageErr("%s: one experiment directory at a time", cmd)
	}
	dir := c.Args().First()
	if dir == "" {
		var err error
		if dir, err = experiment.Newest("."); err != nil {
			return "", &exitError{code: 1, msg: err.Error()}
		}
	}
	return experiment.Dir(dir), nil
}

// openExperimentDir opens the event stream of the run in dir: the one
// its profile lists, or, for a run killed before it wrote its profile,
// the complete blocks of the one it left.
func openExperimentDir(dir string) (*events.Experiment, error) {
	exp, err := events.OpenExperiment(dir)
	if errors.Is(err, fs.ErrNotExist) && !errors.Is(err, events.ErrNoEvents) {
		if _, serr := os.Stat(experiment.Profile(dir)); serr != nil {
			return nil, &exitError{code: 1, msg: experiment.Explain(experiment.Profile(dir), err)}
		}
	}
	if err != nil {
		return nil, &exitError{code: 1, msg: err.Error()}
	}
	return exp, nil
}

// warnStream says on w what the consumer of an export must know: records
// the runtime dropped, a run that ended while threads recorded, or one
// killed before it wrote its profile.
func warnStream(w io.Writer, exp *events.Experiment, dropped int64) {
	if exp.Killed != nil {
		if dropped > 0 {
			fmt.Fprintf(w, "gopari: warning: the runtime dropped %d records (GOPARI_TRACE_MAX_BYTES or a full disk); the trace has gaps where it says so\n", dropped)
		}
		exp.WarnKilled(w)
		return
	}
	if d := max(dropped, exp.Events.Dropped); d > 0 {
		fmt.Fprintf(w, "gopari: warning: the runtime dropped %d records (GOPARI_TRACE_MAX_BYTES or a full disk); the trace has gaps where it says so, the profile is exact\n", d)
	}
	if !exp.Events.Complete {
		fmt.Fprintf(w, "gopari: warning: the run ended while threads were recording; their last events are missing\n")
	}
}

// partialIf returns the exit status of an export of exp: 3 when exp is a
// killed run's, whose export is partial.
func partialIf(exp *events.Experiment) error {
	if exp != nil && exp.Killed != nil {
		return partialExit
	}
	return nil
}
