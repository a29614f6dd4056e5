package main

import (
	"fmt"
	"io"
	"os"

	"github.com/urfave/cli/v2"

	"gopari/internal/callpath"
	"gopari/internal/experiment"
	"gopari/internal/job"
)

func filterCommand() *cli.Command {
	return &cli.Command{
		Name:      "filter",
		Usage:     "propose a filter file that leaves out the functions too cheap to measure",
		ArgsUsage: "EXPERIMENT",
		Description: `Reads the call paths of a run built with gopari cc --functions (a job's ranks
summed) and prints a Score-P filter file that excludes the functions with many
visits and short calls (the thresholds below), but main and those with an
OpenMP construct below them. -o FILE replaces a file only with --force.`,
		Flags: []cli.Flag{
			&cli.Uint64Flag{Name: "min-visits", Value: callpath.DefaultMinVisits, Usage: "exclude functions with at least `N` visits"},
			&cli.DurationFlag{Name: "max-mean", Usage: "... and a mean exclusive time of at most `DURATION`", DefaultText: "20 x the call cost"},
			&cli.StringFlag{Name: "o", Usage: "write the filter to `FILE` (default and -: standard output)"},
			&cli.BoolFlag{Name: "force", Usage: "let -o replace an existing file"},
		},
		Action: runFilter,
	}
}

func runFilter(c *cli.Context) error {
	dir, err := experimentArg(c, "filter")
	if err != nil {
		return err
	} else if c.Duration("max-mean") < 0 {
		return usageErr("filter: --max-mean must not be negative")
	}
	out := c.String("o")
	if st, err := os.Stat(out); out != "" && out != "-" && err == nil && st.Mode().IsRegular() && !c.Bool("force") {
		return failure(fmt.Errorf("%s exists: give --force to replace it", out))
	}
	ps, warnings, err := job.Profiles(dir, experiment.Explain)
	if err != nil {
		return failure(err)
	}
	pr, err := callpath.Propose(ps, callpath.Thresholds{MinVisits: c.Uint64("min-visits"), MaxMeanNs: float64(c.Duration("max-mean"))})
	if err != nil {
		return failure(fmt.Errorf("%s: %v", dir, err))
	}
	for _, w := range append(warnings, pr.Warnings...) {
		fmt.Fprintf(c.App.ErrWriter, "gopari filter: %s\n", w)
	}
	write := func(w io.Writer) error { _, err := pr.Filter(dir).WriteTo(w); return err }
	if out == "" {
		out = "-"
	}
	return writeFile(c, out, write)
}
