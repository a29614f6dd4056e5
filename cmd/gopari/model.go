package main

import (
	"io"

	"github.com/urfave/cli/v2"
)

func modelCommand() *cli.Command {
	return &cli.Command{
		Name: "model",
		// An argument named h or help is a directory, not a request for help.
		Usage:     "fit scaling models to profiles of runs at several thread counts",
		ArgsUsage: "EXPERIMENT...",
		Description: `Reads the profiles of runs of one program at different thread counts (an
experiment directory, its profile.json, or a directory holding experiment
directories, as gopari scale makes) and fits each region's metrics to the
performance model normal form c0 + c1 · t^i · log2(t)^j of Extra-P, with
its exponents, as Iwainsky et al. fit OpenMP constructs ("How Many Threads
will be too Many?", Euro-Par 2015). The table is sorted by how badly each region
scales: the cost predicted at --predict threads over the cost measured at
the smallest count.`,
		Flags:  modelFlags(),
		Action: runModel,
	}
}

func runModel(c *cli.Context) error {
	if c.NArg() == 0 {
		return usageErr("model: name the experiment directories (or a directory holding them)")
	}
	opts, err := modelOptions(c)
	if err != nil {
		return err
	}
	runs, err := loadRuns(c.Args().Slice(), c.App.ErrWriter)
	if err != nil {
		return &exitError{code: 1, msg: err.Error()}
	}
	return writeOut(c, func(w io.Writer) error { return writeModels(w, runs, opts) })
}
