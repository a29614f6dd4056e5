package main

import (
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/urfave/cli/v2"

	"gopari/internal/events"
	"gopari/internal/experiment"
	"gopari/internal/job"
	"gopari/internal/profile"
	"gopari/internal/report"
)

func reportCommand() *cli.Command {
	return &cli.Command{
		Name: "report",
		// An argument named h or help is a directory, not a request for help.
		Usage:     "print what a profile says",
		ArgsUsage: "[DIR | profile.json]",
		Description: `Reads the profile that an instrumented program wrote into its experiment
directory (default: the newest gopari-* directory here) and prints the
regions by time, the load imbalance of parallel regions, task statistics
and the task creation tree. --json prints the profile itself.

For the directory of an MPI job it merges the ranks: per region the
minimum, mean and maximum over ranks, the rank of the maximum, the
imbalance between ranks and between threads, the time in MPI against the
time in OpenMP per rank, and the ranks that are missing or damaged.
--json prints the merged profile, --rank N one rank's. Past a few dozen
ranks the ranks are shown as distributions with their outliers named;
--ranks all lists them one by one.

--html FILE writes the report as one HTML page that opens from file://
without a network: POP efficiency metrics, sortable regions, load
balance, tasks, and where the run recorded them the timeline of its
trace and its grain graph; --model adds the scaling models that
gopari model --json wrote to a file.`,
		Flags: append([]cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "print the profile as JSON"},
			&cli.IntFlag{Name: "top", Value: 20, Usage: "show the `N` costliest regions"},
			&cli.IntFlag{Name: "rank", Usage: "in an MPI job's directory, report rank `N` alone"},
			&cli.StringFlag{Name: "ranks", Usage: "past " + strconv.Itoa(job.SummariseAbove) + " ranks of an MPI job, `all` lists every rank, not their distributions"},
		}, reportHTMLFlags()...),
		Action: runReport,
	}
}

func runReport(c *cli.Context) error {
	if c.NArg() > 1 {
		return usageErr("report: one experiment directory at a time")
	}
	path := c.Args().First()
	if path == "" {
		var err error
		if path, err = experiment.Newest("."); err != nil {
			return &exitError{code: 1, msg: err.Error()}
		}
	}
	if r := c.String("ranks"); c.IsSet("ranks") && (r != "all" || !experiment.IsJob(path)) {
		return usageErr("report: --ranks takes all, for an MPI job's directory")
	}
	if c.IsSet("html") {
		return runReportHTML(c, path)
	} else if c.IsSet("model") {
		return usageErr("report: --model adds scaling models to the page of --html")
	}
	if experiment.IsJob(path) {
		return runJobReport(c, path)
	}
	if c.IsSet("rank") {
		return usageErr("report: --rank needs an MPI job's directory, and %s is not one", path)
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = experiment.Profile(path)
	}
	if c.Bool("json") {
		b, err := os.ReadFile(path)
		if err == nil {
			_, err = profile.Read(path) // check it is a profile
		}
		if err != nil {
			return &exitError{code: 1, msg: experiment.Explain(path, err)}
		}
		return writeOut(c, func(w io.Writer) error { _, err := w.Write(b); return err })
	}
	p, err := profile.Read(path)
	if err != nil {
		if exp, kerr := events.KilledRun(filepath.Dir(path), err); kerr != nil {
			return failure(kerr)
		} else if exp != nil {
			return runKilledReport(c, exp)
		}
		return &exitError{code: 1, msg: experiment.Explain(path, err)}
	}
	return writeOut(c, func(w io.Writer) error {
		report.Write(w, p, c.Int("top"))
		report.StreamNote(w, filepath.Dir(path))
		return nil
	})
}
