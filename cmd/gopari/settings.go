// The instrumentation settings that instrument and diff share: their
// flags, and how one file is instrumented under them.

package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"gopari/internal/srcfile"
	"gopari/internal/verify"
	"gopari/internal/wrapper"
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
		&cli.BoolFlag{Name: "chunks", Usage: "record the chunks of for loops as grains (GOPARI_GRAINS=1 at run time)"},
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
	s.opts.Chunks = c.Bool("chunks")
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
	l := wrapper.LanguageOf(file)
	cfg := parser.Config{Preprocessed: s.preprocessed || l.Preprocessed(), CPlusPlus: l.CPlusPlus()}
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
	src, err := srcfile.Read(file, stdin)
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
