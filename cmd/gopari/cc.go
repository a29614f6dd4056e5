package main

import (
	"errors"
	"io"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"gopari/internal/atomicfile"
	"gopari/internal/filter"
	"gopari/internal/wrapper"
	"gopari/rewrite"
)

func ccCommand() *cli.Command {
	return &cli.Command{
		Name:            "cc",
		Usage:           "compile and link through gopari",
		ArgsUsage:       "[--raw] [--keep-files] [--dry-run] [-v] [--fallback] [--untied=…] [--disable=…] [--chunks] [--functions [--filter FILE]] COMPILER ARG...",
		SkipFlagParsing: true,
		Description: `Runs COMPILER with ARG... as given, instrumenting the C, C++ and Fortran
sources of commands that enable OpenMP (-fopenmp, -fopenmp=libomp, ...) and linking
libpomp.a into programs that use OpenMP or instrumented objects. Use it as
CC = gopari cc gcc, or as CMake's compiler launcher.

By default every source is first preprocessed with the same compiler and
flags, so that directives from macros (_Pragma in #define), from the user's
headers and behind #ifdef _OPENMP are instrumented; system headers are not.
--raw instruments the source text instead.

Options (before COMPILER):
  --raw          instrument the source as written, without preprocessing
  --keep-files   keep the intermediate files (beside the output)
  --dry-run      print the commands and do nothing
  -v             print the commands as they run
  --fallback     when instrumenting fails, compile uninstrumented, with a warning
  --untied, --disable, --chunks   as for gopari instrument
  --functions    measure the program's functions as well (call paths): the
                 compiler's function instrumentation on every C, C++ and
                 Fortran source (gfortran; flang has none), system headers
                 excluded, and the runtime linked
  --filter FILE  with --functions: measure only the functions that the
                 Score-P filter file FILE includes

GOPARI_WRAPPER=off runs the compiler untouched (for configure scripts).`,
		Action: func(c *cli.Context) error {
			if a := c.Args().First(); a == "-h" || a == "--help" {
				return cli.ShowCommandHelp(c.Lineage()[1], "cc")
			}
			return runCC(c.Args().Slice(), c.App.Reader, c.App.Writer, c.App.ErrWriter)
		},
	}
}

// parseCCOptions parses gopari's own options of gopari cc, which come
// before the compiler's name, and returns them and the compiler command.
func parseCCOptions(args []string) (*wrapper.Options, []string, error) {
	o := &wrapper.Options{}
	untied, disable, filterFile := "tie", "", ""
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			i++
			goto done
		case a == "--raw":
			o.Raw = true
		case a == "--keep-files":
			o.Keep = true
		case a == "--dry-run":
			o.DryRun = true
		case a == "-v" || a == "--verbose":
			o.Verbose = true
		case a == "--fallback":
			o.Fallback = true
		case a == "--chunks":
			o.Rewrite.Chunks = true
		case a == "--functions":
			o.Functions = true
		case a == "--filter":
			if i+1 >= len(args) {
				return nil, nil, usageErr("cc: --filter needs a FILE")
			}
			i++
			filterFile = args[i]
		case strings.HasPrefix(a, "--filter="):
			filterFile = a[len("--filter="):]
		case strings.HasPrefix(a, "--untied="):
			untied = a[len("--untied="):]
		case strings.HasPrefix(a, "--disable="):
			disable = a[len("--disable="):]
		case strings.HasPrefix(a, "-"):
			return nil, nil, usageErr("cc: unknown option %s before the compiler's name", a)
		default:
			goto done
		}
	}
done:
	var err error
	if o.Rewrite.Untied, err = rewrite.ParseUntied(untied); err != nil {
		return nil, nil, usageErr("%v", err)
	}
	if o.Rewrite.Disable, err = rewrite.ParseDisable(disable); err != nil {
		return nil, nil, usageErr("%v", err)
	}
	if i >= len(args) {
		return nil, nil, usageErr("cc: no compiler given: gopari cc gcc ARG...")
	}
	if filterFile != "" {
		if !o.Functions {
			return nil, nil, usageErr("cc: --filter FILE filters the functions that --functions measures: add --functions")
		}
		var fe *filter.Error
		switch o.Filter, o.FilterText, err = filter.ReadFile(filterFile); {
		case errors.As(err, &fe):
			return nil, nil, &exitError{code: 2, msg: err.Error(), bare: true}
		case err != nil:
			return nil, nil, usageErr("cc: --filter: cannot read %s: %v", filterFile, atomicfile.Cause(err))
		}
	}
	return o, args[i:], nil
}

// runCC runs one compiler command through the wrapper; a failed
// compiler command exits with its status.
func runCC(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	o, cmdline, err := parseCCOptions(args)
	if err != nil {
		return err
	}
	if v := os.Getenv("GOPARI_WRAPPER"); v == "off" || v == "0" {
		o.Off = true
	}
	o.PrintDiags, o.PauseGC = printDiags, pauseGC
	err = wrapper.Run(cmdline, *o, stdin, stdout, stderr)
	var ce *wrapper.CommandError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ce) && ce.Err != nil:
		return &exitError{code: ce.Status, msg: ce.Err.Error()}
	case errors.As(err, &ce):
		return &exitError{code: ce.Status}
	}
	return failure(err)
}
