package main

import (
	"errors"
	"io"

	"github.com/urfave/cli/v2"

	"gopari/internal/atomicfile"
)

// writeOut writes a command's output to standard output: a failed write
// (a full disk, a closed pipe) is an error of the command; an exitError
// of making the output keeps its exit status.
func writeOut(c *cli.Context, write func(io.Writer) error) error {
	err := atomicfile.WriteTo("standard output", c.App.Writer, write)
	var ee *exitError
	if err != nil && !errors.As(err, &ee) {
		return failure(err)
	}
	return err
}

// writeFile writes a command's output to the file name, whole or not at
// all, or to standard output when name is "-".
func writeFile(c *cli.Context, name string, write func(io.Writer) error) error {
	if name == "-" {
		return writeOut(c, write)
	} else if err := atomicfile.Write(name, write); err != nil {
		return failure(err)
	}
	return nil
}
