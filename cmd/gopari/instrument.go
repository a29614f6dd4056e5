package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"gopari/internal/atomicfile"
	"gopari/internal/srcfile"
	"gopari/internal/verify"
	"gopari/rewrite"
	"gopari/rewrite/fortran"
)

func instrumentCommand() *cli.Command {
	return &cli.Command{
		Name:      "instrument",
		Usage:     "rewrite OpenMP directives into POMP calls",
		ArgsUsage: "FILE... (- for standard input)",
		Description: `Instruments each FILE. With one FILE and no -o, --out-dir or --in-place,
the result goes to standard output. Exit status: 0 success, 1 errors in a
source file, 2 usage errors. Files are written atomically; nothing is written
for a file with errors, and a source is only overwritten with --in-place.`,
		Flags: append(instrumentFlags(),
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the single FILE's result to `OUT` (- for standard output)"},
			&cli.StringFlag{Name: "out-dir", Usage: "write each result to `DIR`/FILE, keeping relative paths"},
			&cli.BoolFlag{Name: "in-place", Usage: "overwrite each FILE with its result"},
			&cli.BoolFlag{Name: "verify", Usage: "parse each C result with modernc.org/cc/v4 and report what it rejects"},
			&cli.BoolFlag{Name: "free", Usage: "read Fortran sources as free form (default: from the suffix; .f90 .F90 ... free, .f .F .for ... fixed)"},
			&cli.BoolFlag{Name: "fixed", Usage: "read Fortran sources as fixed form"},
			&cli.BoolFlag{Name: "functions", Usage: "not here: functions are measured through compiler flags (gopari cc --functions, or gopari config --functions-cflags)"},
		),
		Action: runInstrument,
	}
}

func runInstrument(c *cli.Context) error {
	if c.Bool("functions") {
		return usageErr("instrument: --functions is the compiler's work, which a source rewrite cannot do: " +
			"build with gopari cc --functions, or compile every file with $(gopari config --functions-cflags COMPILER)")
	}
	s, err := parseSettings(c)
	if err != nil {
		return err
	}
	files := c.Args().Slice()
	out, dir, inPlace := c.String("output"), c.String("out-dir"), c.Bool("in-place")
	if err := checkOutputs(files, out, dir, inPlace); err != nil {
		return err
	}
	if c.Bool("verify") {
		if err := verify.Setup(); err != nil {
			return &exitError{code: 2, msg: err.Error()}
		}
	}
	bad := false
	for _, file := range files {
		ok, err := s.instrumentOne(c, file, out, dir, inPlace)
		if err != nil {
			return err
		}
		bad = bad || !ok
	}
	if bad {
		return failed
	}
	return nil
}

// instrumentOne instruments file and writes the result where the flags
// say. It reports false after errors about the file, and returns the
// error that ends the command (standard output failed).
func (s *settings) instrumentOne(c *cli.Context, file, out, dir string, inPlace bool) (bool, error) {
	if !s.verify { // --verify's parser makes garbage
		defer pauseGC(sourceSize(file))()
	}
	stderr := c.App.ErrWriter
	if _, _, f := fortran.FormOf(file); f || c.Bool("free") || c.Bool("fixed") {
		return s.instrumentFortran(c, file, out, dir, inPlace)
	}
	res := s.instrument(file, c.App.Reader, stderr)
	if res == nil || !s.verified(file, res, stderr) {
		return false, nil
	}
	write := func(w io.Writer) error { _, err := res.WriteTo(w); return err }
	var err error
	switch {
	case inPlace:
		err = atomicfile.Write(file, write)
	case dir != "":
		err = atomicfile.WriteBelow(dir, file, write)
	case out != "" && out != "-":
		if srcfile.Same(out, file) {
			err = fmt.Errorf("%s: -o names the input file; use --in-place to overwrite a source", file)
		} else {
			err = atomicfile.Write(out, write)
		}
	default:
		if err := atomicfile.WriteTo("standard output", c.App.Writer, write); err != nil {
			return false, failure(err)
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "gopari: %v\n", err)
		return false, nil
	}
	return true, nil
}

// checkOutputs checks that the output flags fit the files.
func checkOutputs(files []string, out, dir string, inPlace bool) error {
	modes := 0
	for _, m := range []bool{out != "", dir != "", inPlace} {
		if m {
			modes++
		}
	}
	switch {
	case len(files) == 0:
		return usageErr("instrument: no input files")
	case modes > 1:
		return usageErr("instrument: use only one of -o, --out-dir and --in-place")
	case out != "" && len(files) > 1:
		return usageErr("instrument: -o takes a single input file; use --out-dir for several")
	case modes == 0 && len(files) > 1:
		return usageErr("instrument: several input files need --out-dir or --in-place")
	case inPlace && contains(files, "-"):
		return usageErr("instrument: --in-place cannot rewrite standard input")
	case dir != "" && contains(files, "-"):
		return usageErr("instrument: --out-dir cannot place standard input; use -o")
	}
	return nil
}

// instrumentFortran writes a Fortran file's result and its region table
// (fortran.InstrumentFile): two files, so standard output cannot hold it.
func (s *settings) instrumentFortran(c *cli.Context, file, out, dir string, inPlace bool) (bool, error) {
	form := map[bool]string{true: "free", false: "fixed"}[c.Bool("free")]
	if !c.Bool("free") && !c.Bool("fixed") {
		form = ""
	}
	switch {
	case c.Bool("free") && c.Bool("fixed"):
		return false, usageErr("instrument: --free and --fixed exclude each other")
	case inPlace:
		out = file
	case dir != "":
		var err error
		if out, err = atomicfile.OutPath(dir, file); err == nil {
			err = os.MkdirAll(filepath.Dir(out), 0o755)
		}
		if err != nil {
			fmt.Fprintf(c.App.ErrWriter, "gopari: %v\n", err)
			return false, nil
		}
	case out == "" || out == "-":
		return false, usageErr("instrument: %s: a Fortran result is two files (the source and its region table in C): give -o, --out-dir or --in-place", file)
	}
	diags, err := fortran.InstrumentFile(file, out, form, fortran.Options{Name: s.name,
		KeepUntied: s.opts.Untied == rewrite.UntiedKeep, Disable: s.opts.Disable, Chunks: s.opts.Chunks})
	for _, d := range diags {
		fmt.Fprintln(c.App.ErrWriter, d)
	}
	if err != nil {
		fmt.Fprintf(c.App.ErrWriter, "gopari: %v\n", err)
		return false, nil
	}
	return true, nil
}
