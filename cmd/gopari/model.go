package main

import (
	"io"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"gopari/internal/scale"
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
	runs, err := scale.Load(c.Args().Slice(), c.App.ErrWriter)
	if err != nil {
		return &exitError{code: 1, msg: err.Error()}
	}
	return writeModels(c, runs, opts)
}

// writeModels fits and prints the models of runs; a model that cannot be
// fitted is an error of the run (exit status 1).
func writeModels(c *cli.Context, runs []*scale.Run, opts scale.Options) error {
	return writeOut(c, func(w io.Writer) error {
		if err := scale.WriteModels(w, runs, opts); err != nil {
			return failure(err)
		}
		return nil
	})
}

func modelFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "json", Usage: "print the models as JSON"},
		&cli.StringFlag{Name: "extrap", Usage: "also write the measurements to `FILE` in Extra-P's text input format"},
		&cli.IntFlag{Name: "predict", Value: 64, Usage: "rank regions by their cost predicted at `T` threads"},
		&cli.StringSliceFlag{Name: "param", Usage: "`NAME=VALUE` of a second parameter, such as problem size: gopari scale records it in each run; gopari model gives it to runs that recorded none"},
		&cli.BoolFlag{Name: "mean", Usage: "take the mean of all repeated runs, outliers included (default: the mean without outliers)"},
		&cli.IntFlag{Name: "top", Value: 20, Usage: "show the `N` worst-scaling models (0: all)"},
	}
}

// modelOptions reads the flags that gopari model and gopari scale share.
func modelOptions(c *cli.Context) (scale.Options, error) {
	o := scale.Options{JSON: c.Bool("json"), ExtraP: c.String("extrap"), Predict: c.Int("predict"),
		Mean: c.Bool("mean"), Top: c.Int("top"), Params: map[string]string{}}
	if o.Predict < 1 {
		return o, usageErr("--predict %d: must be a thread count", o.Predict)
	}
	for _, p := range c.StringSlice("param") {
		name, value, ok := strings.Cut(p, "=")
		if !ok || name == "" || value == "" {
			return o, usageErr("--param %q: want NAME=VALUE", p)
		}
		if _, err := strconv.ParseFloat(value, 64); err != nil {
			return o, usageErr("--param %s: the value must be a number", p)
		}
		if name == "t" {
			return o, usageErr("--param t: t is the thread count")
		}
		o.Params[name] = value
	}
	if len(o.Params) > 1 {
		return o, usageErr("--param: one parameter besides the thread count")
	}
	return o, nil
}
