package main

import (
	"io"

	"github.com/urfave/cli/v2"

	"gopari/internal/pprof"
)

func pprofCommand() *cli.Command {
	return &cli.Command{
		Name:      "pprof",
		Usage:     "export a run's call paths for go tool pprof, FlameGraph and speedscope",
		ArgsUsage: "EXPERIMENT",
		Description: `Reads the call paths of a run whose program was built with gopari cc
--functions (default: the newest gopari-* directory here). -o FILE writes
a pprof profile (go tool pprof -http=: FILE): sample types time (each
path's exclusive nanoseconds) and visits, one sample per thread and path,
labelled thread (its team path, such as 0.1) and, for an MPI job's
directory, rank. --folded FILE writes folded stacks ("main;solve;kernel
1234", nanoseconds summed over threads and ranks) for FlameGraph and
https://www.speedscope.app. Construct frames are named as in the OTF2
export ("!$omp task @file.c:15"), functions by their demangled names.
Outputs appear whole or not at all.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "o", Usage: "write the pprof profile to `FILE` (gzipped protobuf; - for standard output)"},
			&cli.StringFlag{Name: "folded", Usage: "write folded stacks to `FILE` (- for standard output)"},
		},
		Action: runPprof,
	}
}

func runPprof(c *cli.Context) error {
	out, folded := c.String("o"), c.String("folded")
	if out == "" && folded == "" {
		return usageErr("pprof: nothing to do: give -o FILE, --folded FILE or both")
	} else if out == "-" && folded == "-" {
		return usageErr("pprof: -o and --folded cannot both go to standard output")
	}
	dir, err := experimentArg(c, "pprof")
	if err != nil {
		return err
	}
	runs, err := pprof.Open(dir)
	if err != nil {
		return failure(err)
	}
	if out != "" {
		if err := writeFile(c, out, func(w io.Writer) error { return pprof.Write(w, runs) }); err != nil {
			return err
		}
	}
	if folded != "" {
		return writeFile(c, folded, func(w io.Writer) error { return pprof.Folded(w, runs) })
	}
	return nil
}
