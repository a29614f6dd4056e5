package main

import (
	"fmt"
	"io"

	"gopari/parser"
)

// Errors of subcommands and how they end a run: run (main.go) prints an
// exitError's message, "gopari: " first, and exits with its code.

// exitError carries an exit status through urfave/cli.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

// usageErr is a command-line mistake: exit status 2.
func usageErr(format string, args ...any) error {
	return &exitError{code: 2, msg: fmt.Sprintf(format, args...)}
}

// failed reports that diagnostics were printed: exit status 1.
var failed = &exitError{code: 1}

// failure is an error of a run: exit status 1, with err's message.
func failure(err error) error { return &exitError{code: 1, msg: err.Error()} }

// maxErrors caps the errors printed per file.
const maxErrors = 10

// printDiags prints a file's diagnostics, at most maxErrors errors.
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
