package main

import (
	"fmt"
	"io"
	"strings"

	"gopari/parser"
)

// Errors of subcommands and how they end a run: run (main.go) prints an
// exitError's message, "gopari: " first, and exits with its code.

// exitError carries an exit status through urfave/cli.
type exitError struct {
	code int
	msg  string
	// help, when set, is the command whose help the message points to
	// ("" for gopari itself, "report" for gopari report).
	help *string
	// bare prints msg as it is: a diagnostic, file:line:col: message.
	bare bool
}

func (e *exitError) Error() string { return e.msg }

// print writes the message of e, if any, to w.
func (e *exitError) print(w io.Writer) {
	switch {
	case e.bare:
		fmt.Fprintln(w, e.msg)
	case e.help != nil:
		cmd := strings.TrimSpace("gopari " + *e.help)
		fmt.Fprintf(w, "%s: %s\nrun '%s --help' for usage\n", cmd, e.msg, cmd)
	case e.msg != "":
		fmt.Fprintf(w, "gopari: %s\n", e.msg)
	}
}

// usageErr is a command-line mistake: exit status 2.
func usageErr(format string, args ...any) error {
	return &exitError{code: 2, msg: fmt.Sprintf(format, args...)}
}

// flagErr is a command line that urfave/cli could not parse for the
// command cmd ("" for gopari itself): exit status 2, and a pointer to
// the command's help.
func flagErr(cmd string, err error) error {
	return &exitError{code: 2, msg: err.Error(), help: &cmd}
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
