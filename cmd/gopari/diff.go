package main

import (
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"gopari/internal/atomicfile"
	"gopari/internal/udiff"
)

func diffCommand() *cli.Command {
	return &cli.Command{
		Name:      "diff",
		Usage:     "instrument in memory and compare with golden files",
		ArgsUsage: "FILE...",
		Description: `Instruments each FILE in memory and prints a unified diff against its
golden file, DIR/FILE (the layout "gopari instrument --out-dir DIR" writes).
Exit status: 0 when all match, 1 when one differs, is missing or has errors,
2 on usage errors. --update rewrites the golden files instead.`,
		Flags: append(instrumentFlags(),
			&cli.StringFlag{Name: "golden", Value: "golden", Usage: "`DIR` holding the golden files"},
			&cli.BoolFlag{Name: "update", Usage: "write the golden files instead of comparing"},
		),
		Action: runDiff,
	}
}

func runDiff(c *cli.Context) error {
	s, err := parseSettings(c)
	if err != nil {
		return err
	}
	files := c.Args().Slice()
	if len(files) == 0 {
		return usageErr("diff: no input files")
	}
	if contains(files, "-") {
		return usageErr("diff: standard input has no golden file")
	}
	dir := c.String("golden")
	stdout, stderr := c.App.Writer, c.App.ErrWriter
	bad := false
	for _, file := range files {
		golden, err := atomicfile.OutPath(dir, file)
		if err != nil {
			fmt.Fprintf(stderr, "gopari: %v\n", err)
			bad = true
			continue
		}
		res := s.instrument(file, c.App.Reader, stderr)
		if res == nil {
			bad = true
			continue
		}
		if c.Bool("update") {
			if err := atomicfile.WriteBelow(dir, file, func(w io.Writer) error { _, err := res.WriteTo(w); return err }); err != nil {
				fmt.Fprintf(stderr, "gopari: %v\n", err)
				bad = true
			}
			continue
		}
		d, err := udiff.Golden(golden, file, res.Bytes())
		if err != nil {
			fmt.Fprintf(stderr, "gopari: %v\n", err)
			bad = true
			continue
		}
		if d != "" {
			if err := atomicfile.WriteTo("standard output", stdout, func(w io.Writer) error {
				_, err := io.WriteString(w, d)
				return err
			}); err != nil {
				return failure(err)
			}
			bad = true
		}
	}
	if bad {
		return failed
	}
	return nil
}
