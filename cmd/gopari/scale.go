package main

import (
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"gopari/internal/scale"
)

func scaleCommand() *cli.Command {
	flags := []cli.Flag{
		&cli.StringFlag{Name: "threads", Value: "1,2,4,8", Usage: "run at these `COUNTS` of threads (OMP_NUM_THREADS)"},
		&cli.IntFlag{Name: "repeat", Value: 3, Usage: "run `N` times at each count"},
		&cli.StringFlag{Name: "out", Usage: "collect the experiment directories in `DIR` (default: a new gopari-scale-PROG-DATE-TIME)"},
	}
	return &cli.Command{
		Name: "scale",
		// An argument named h or help is a directory, not a request for help.
		Usage:     "run a program at several thread counts and fit scaling models",
		ArgsUsage: "-- PROGRAM [ARG...]",
		Description: `Runs an instrumented program at each thread count (setting OMP_NUM_THREADS),
--repeat times, in rounds (every count once, then again) so that a change
in the machine's load spreads over all counts. Each run's experiment
directory goes below --out, named tT.rR, with a run.json that records its
thread count and parameters. Then it prints the models, as gopari model
does. A failing run stops it, with the program's output and exit status.`,
		Flags:  append(flags, modelFlags()...),
		Action: runScale,
	}
}

func parseThreads(s string) ([]int, error) {
	var out []int
	seen := map[int]bool{}
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return nil, usageErr("--threads %q: want thread counts such as 1,2,4,8", s)
		}
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out, nil
}

func runScale(c *cli.Context) error {
	if c.NArg() == 0 {
		return usageErr("scale: name the program to run: gopari scale [flags] -- ./prog ARGS")
	}
	threads, err := parseThreads(c.String("threads"))
	if err != nil {
		return err
	}
	repeat := c.Int("repeat")
	if repeat < 1 {
		return usageErr("--repeat %d: must be at least 1", repeat)
	}
	opts, err := modelOptions(c)
	if err != nil {
		return err
	}
	if len(threads) < 3 {
		return usageErr("--threads %s: a model needs 3 or more thread counts", c.String("threads"))
	}
	argv := c.Args().Slice()
	if _, err := exec.LookPath(argv[0]); err != nil {
		return &exitError{code: 1, msg: fmt.Sprintf("scale: %v", err)}
	}
	out, err := scale.Dir(c.String("out"), argv[0])
	if err != nil {
		return &exitError{code: 1, msg: err.Error()}
	}
	stderr := c.App.ErrWriter
	err = scale.RunAll(stderr, scale.Plan{Out: out, Argv: argv, Threads: threads, Repeat: repeat, Params: opts.Params})
	var pe *scale.ProgramError
	if errors.As(err, &pe) {
		return &exitError{code: pe.Code}
	}
	if err != nil {
		return &exitError{code: 1, msg: err.Error()}
	}
	runs, err := scale.Load([]string{out}, stderr)
	if err != nil {
		return &exitError{code: 1, msg: err.Error()}
	}
	return writeModels(c, runs, opts)
}
