package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"gopari/internal/verify"
	"gopari/parser"
	"gopari/pomprt/include"
	"gopari/rewrite"
)

// instrumentFlags are shared by instrument and diff.
func instrumentFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "lang", Usage: "source language `c|c++` (default: from the file suffix)"},
		&cli.BoolFlag{Name: "preprocessed", Usage: "input carries GCC line markers; instrument only the user's files, not system headers (default for .i and .ii)"},
		&cli.StringFlag{Name: "untied", Value: "tie", Usage: "untied tasks: `keep|tie|error`; tie removes untied so task identities stay exact"},
		&cli.StringFlag{Name: "disable", Usage: "comma-separated `groups` not to instrument: " + strings.Join(rewrite.GroupNames(), ", ")},
		&cli.StringFlag{Name: "name", Usage: "file `name` recorded in #line and in the region table (default: the path as given; for stdin: <stdin>)"},
	}
}

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
		),
		Action: runInstrument,
	}
}

// settings are the parsed instrumentation flags.
type settings struct {
	lang         string
	preprocessed bool
	opts         rewrite.Options
	name         string
}

func parseSettings(c *cli.Context) (*settings, error) {
	s := &settings{lang: c.String("lang"), preprocessed: c.Bool("preprocessed"), name: c.String("name")}
	switch s.lang {
	case "", "c", "c++":
	default:
		return nil, usageErr("--lang must be c or c++, not %q", s.lang)
	}
	var err error
	if s.opts.Untied, err = rewrite.ParseUntied(c.String("untied")); err != nil {
		return nil, usageErr("%v", err)
	}
	if s.opts.Disable, err = rewrite.ParseDisable(c.String("disable")); err != nil {
		return nil, usageErr("%v", err)
	}
	return s, nil
}

// config returns the parser configuration for a file.
func (s *settings) config(file string) parser.Config {
	ext := strings.ToLower(filepath.Ext(file))
	cfg := parser.Config{Preprocessed: s.preprocessed || ext == ".i" || ext == ".ii"}
	switch s.lang {
	case "c++":
		cfg.CPlusPlus = true
	case "":
		switch filepath.Ext(file) {
		case ".cc", ".cpp", ".cxx", ".c++", ".C", ".CC", ".CPP", ".hh", ".hpp", ".hxx", ".h++", ".H", ".ii", ".tcc", ".ipp", ".inl":
			cfg.CPlusPlus = true
		}
	}
	return cfg
}

// recordName is the name a file is known by in #line and the region
// table: the path as the user gave it, cleaned, with forward slashes.
func (s *settings) recordName(file string) string {
	if s.name != "" {
		return s.name
	}
	if file == "-" {
		return "<stdin>"
	}
	return filepath.ToSlash(filepath.Clean(file))
}

// instrument reads and instruments one file, printing its diagnostics.
// It returns nil after errors.
func (s *settings) instrument(file string, stdin io.Reader, stderr io.Writer) *rewrite.Result {
	src, err := readSource(file, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "gopari: %v\n", err)
		return nil
	}
	name := s.recordName(file)
	cfg, opts := s.config(file), s.opts
	if cfg.Preprocessed {
		// Preprocessed input is compiled without a preprocessor: GCC
		// ignores _Pragma there and #include "pomp.h" would not be read.
		opts.PragmaLines = true
		opts.Interface = include.PompC
		if cfg.CPlusPlus {
			opts.Interface = include.PompCXX
		}
	}
	out, diags := rewrite.Source(name, src, cfg, opts)
	printDiags(stderr, diags)
	if diags.HasErrors() {
		return nil
	}
	return out
}

// maxErrors caps the errors printed per file.
const maxErrors = 10

func printDiags(w io.Writer, diags parser.DiagnosticList) {
	n := 0
	for _, d := range diags {
		if d.Severity == parser.Error {
			n++
			if n > maxErrors {
				continue
			}
		}
		fmt.Fprintln(w, d.Error())
	}
	if n > maxErrors {
		fmt.Fprintf(w, "gopari: %d more errors not shown\n", n-maxErrors)
	}
}

func runInstrument(c *cli.Context) error {
	s, err := parseSettings(c)
	if err != nil {
		return err
	}
	files := c.Args().Slice()
	if len(files) == 0 {
		return usageErr("instrument: no input files")
	}
	out, dir, inPlace := c.String("output"), c.String("out-dir"), c.Bool("in-place")
	modes := 0
	for _, m := range []bool{out != "", dir != "", inPlace} {
		if m {
			modes++
		}
	}
	switch {
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
	if c.Bool("verify") {
		if err := verify.Setup(); err != nil {
			return &exitError{code: 2, msg: err.Error()}
		}
	}
	stdout, stderr := c.App.Writer, c.App.ErrWriter
	bad := false
	for _, file := range files {
		res := s.instrument(file, c.App.Reader, stderr)
		if res == nil {
			bad = true
			continue
		}
		if c.Bool("verify") && !s.config(file).CPlusPlus {
			if errs := verify.C(s.recordName(file), res.Bytes()); len(errs) > 0 {
				for _, e := range errs {
					fmt.Fprintln(stderr, e)
				}
				bad = true
				continue
			}
		}
		var dest string
		switch {
		case inPlace:
			dest = file
		case dir != "":
			if dest, err = outPath(dir, file); err != nil {
				fmt.Fprintf(stderr, "gopari: %v\n", err)
				bad = true
				continue
			}
			if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
				fmt.Fprintf(stderr, "gopari: %v\n", err)
				bad = true
				continue
			}
		case out != "" && out != "-":
			dest = out
			if same(dest, file) {
				fmt.Fprintf(stderr, "gopari: %s: -o names the input file; use --in-place to overwrite a source\n", file)
				bad = true
				continue
			}
		default:
			bw := bufio.NewWriterSize(stdout, 1<<16)
			if _, err := res.WriteTo(bw); err == nil {
				err = bw.Flush()
			}
			if err != nil {
				return &exitError{code: 1, msg: err.Error()}
			}
			continue
		}
		if err := writeAtomic(dest, func(w io.Writer) error { _, err := res.WriteTo(w); return err }); err != nil {
			fmt.Fprintf(stderr, "gopari: %v\n", err)
			bad = true
		}
	}
	if bad {
		return failed
	}
	return nil
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// same reports whether two paths name the same existing file.
func same(a, b string) bool {
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}
