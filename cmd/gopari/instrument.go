package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"gopari/internal/verify"
	"gopari/parser"
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
	verify       bool // only instrument has --verify
}

func parseSettings(c *cli.Context) (*settings, error) {
	s := &settings{lang: c.String("lang"), preprocessed: c.Bool("preprocessed"), name: c.String("name"), verify: c.Bool("verify")}
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

// config returns the parser configuration for a file: the language
// from --lang or the file's suffix, preprocessed input from
// --preprocessed or the suffix (.i, .ii).
func (s *settings) config(file string) parser.Config {
	l := languageOf(file)
	cfg := parser.Config{Preprocessed: s.preprocessed || l.preprocessed(), CPlusPlus: l.cplusplus()}
	if s.lang != "" {
		cfg.CPlusPlus = s.lang == "c++"
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
	out, diags := rewrite.Source(name, src, s.config(file), s.opts)
	printDiags(stderr, diags)
	if diags.HasErrors() {
		return nil
	}
	return out
}

func runInstrument(c *cli.Context) error {
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
	stderr := c.App.ErrWriter
	bad := false
	for _, file := range files {
		res := s.instrument(file, c.App.Reader, stderr)
		if res == nil || !s.verified(file, res, stderr) {
			bad = true
			continue
		}
		write := func(w io.Writer) error { _, err := res.WriteTo(w); return err }
		var err error
		switch {
		case inPlace:
			err = writeAtomic(file, write)
		case dir != "":
			err = writeBelow(dir, file, write)
		case out != "" && out != "-":
			if same(out, file) {
				err = fmt.Errorf("%s: -o names the input file; use --in-place to overwrite a source", file)
			} else {
				err = writeAtomic(out, write)
			}
		default:
			if err := writeTo("standard output", c.App.Writer, write); err != nil {
				return failure(err)
			}
		}
		if err != nil {
			fmt.Fprintf(stderr, "gopari: %v\n", err)
			bad = true
		}
	}
	if bad {
		return failed
	}
	return nil
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

// verified reports whether a C result passes --verify, printing what
// modernc.org/cc/v4 rejects; without --verify, and for C++, it is true.
func (s *settings) verified(file string, res *rewrite.Result, stderr io.Writer) bool {
	if !s.verify || s.config(file).CPlusPlus {
		return true
	}
	errs := verify.C(s.recordName(file), res.Bytes())
	for _, e := range errs {
		fmt.Fprintln(stderr, e)
	}
	return len(errs) == 0
}
