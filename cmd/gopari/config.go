package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"gopari/internal/wrapper"
)

func configCommand() *cli.Command {
	return &cli.Command{
		Name:  "config",
		Usage: "print the flags for building with gopari by hand",
		Description: `For hand-written builds: compile instrumented files with $(gopari config
--cflags) and link with $(gopari config --libs), after the program's objects.
To measure functions too (call paths), compile every file with
$(gopari config --functions-cflags COMPILER); a --filter file needs gopari cc.`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "cflags", Usage: "the flags that find pomp.h"},
			&cli.BoolFlag{Name: "libs", Usage: "the runtime and the system libraries it needs"},
			&cli.BoolFlag{Name: "prefix", Usage: "the directory holding include/ and lib/"},
			&cli.StringFlag{Name: "functions-cflags", Usage: "the flags that measure functions when `COMPILER` (gcc, g++, clang-14, ...) compiles, as gopari cc --functions adds them"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usageErr("config: takes no arguments, only --cflags, --libs or --prefix")
			}
			fcc := c.String("functions-cflags")
			if !c.Bool("prefix") && !c.Bool("cflags") && !c.Bool("libs") && fcc == "" {
				return usageErr("config: say --cflags, --libs, --prefix or --functions-cflags COMPILER")
			}
			inc, lib, err := wrapper.RuntimePaths()
			if err != nil {
				return &exitError{code: 1, msg: "config: " + err.Error()}
			}
			var out []string
			if c.Bool("prefix") {
				out = append(out, filepath.Dir(inc))
			}
			if c.Bool("cflags") {
				out = append(out, "-I"+inc)
			}
			if c.Bool("libs") {
				out = append(out, lib+" -lpthread")
			}
			if fcc != "" {
				fl, err := wrapper.FunctionCFlags([]string{fcc}, nil, wrapper.CompilerLangs(fcc), inc, nil)
				if err != nil {
					return &exitError{code: 1, msg: "config: " + err.Error()}
				}
				out = append(out, strings.Join(fl, " "))
			}
			return writeOut(c, func(w io.Writer) error {
				_, err := fmt.Fprintln(w, strings.Join(out, " "))
				return err
			})
		},
	}
}
