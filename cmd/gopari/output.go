package main

import (
	"io"

	"github.com/urfave/cli/v2"

	"gopari/internal/atomicfile"
)

// writeOut writes a command's output to standard output: a failed write
// (a full disk, a closed pipe) is an error of the command.
func writeOut(c *cli.Context, write func(io.Writer) error) error {
	if err := atomicfile.WriteTo("standard output", c.App.Writer, write); err != nil {
		return failure(err)
	}
	return nil
}
