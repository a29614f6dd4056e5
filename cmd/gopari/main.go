// Command gopari instruments OpenMP C and C++ programs with POMP calls
// and reads the profiles that its runtime writes.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"

	"github.com/urfave/cli/v2"

	"gopari/internal/verify"
)

// version is the gopari release; it appears in profiles, not in
// instrumented files, so that upgrading gopari does not change them.
const version = "0.1.0"

func main() {
	if os.Getenv("GOGC") == "" {
		// gopari runs for a moment inside a build and keeps most of what it
		// allocates until it exits: collecting less often saves time.
		debug.SetGCPercent(200)
	}
	os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr))
}

// wrapperName matches the one-word compiler wrappers, links to gopari
// named gopari-COMPILER (gopari-gcc, gopari-clang++-14, gopari-mpicc,
// gopari-gfortran): Makefiles that run "which $(CC)" or print $(CC)
// need one word.
var wrapperName = regexp.MustCompile(`^gopari-((gcc|g\+\+|cc|c\+\+|clang|clang\+\+|mpicc|mpicxx|mpic\+\+|mpiCC|icx|icpx|icc|icpc|gfortran|flang|flang-new|mpif90|mpif77|mpifort)(-[0-9][0-9.]*)?)$`)

// run runs gopari with args and returns its exit status. Called as
// gopari-COMPILER, it is gopari cc COMPILER.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		if m := wrapperName.FindStringSubmatch(filepath.Base(args[0])); m != nil {
			args = append([]string{"gopari", "cc", "--", m[1]}, args[1:]...)
		}
	}
	unknown := false
	app := newApp(stdin, stdout, stderr, &unknown)
	defer verify.Cleanup()
	err := app.Run(permute(args, app.Commands))
	if unknown {
		return 2
	}
	if err == nil {
		return 0
	}
	var ee *exitError
	if errors.As(err, &ee) {
		ee.print(stderr)
		return ee.code
	}
	fmt.Fprintf(stderr, "gopari: %v\n", err)
	return 1
}

// newApp returns gopari's commands; unknown is set when the command named
// is none of them.
func newApp(stdin io.Reader, stdout, stderr io.Writer, unknown *bool) *cli.App {
	app := &cli.App{
		Name:      "gopari",
		Usage:     "instrument OpenMP C/C++ programs and read their profiles",
		Version:   version,
		Reader:    stdin,
		Writer:    stdout,
		ErrWriter: stderr,
		// urfave/cli adds --help only where it adds its own help command.
		Flags: []cli.Flag{cli.HelpFlag},
		Commands: []*cli.Command{
			instrumentCommand(),
			diffCommand(),
			reportCommand(),
			ccCommand(),
			configCommand(),
			traceCommand(),
			modelCommand(),
			scaleCommand(),
			grainsCommand(),
			pprofCommand(),
			filterCommand(),
			helpCommand(),
		},
		ExitErrHandler: func(*cli.Context, error) {},
		OnUsageError: func(_ *cli.Context, err error, _ bool) error {
			return flagErr("", err)
		},
		CommandNotFound: func(c *cli.Context, name string) {
			fmt.Fprintf(stderr, "gopari: unknown command %q; see 'gopari help'\n", name)
			*unknown = true
		},
	}
	for _, c := range app.Commands {
		// An argument "h" or "help" is a file or directory of that name,
		// not a request for help: --help asks for help.
		c.HideHelpCommand = true
		// A flag urfave/cli cannot parse is a usage error like any other:
		// a short message on stderr and exit status 2, not the help.
		name := c.Name
		c.OnUsageError = func(_ *cli.Context, err error, _ bool) error {
			return flagErr(name, err)
		}
	}
	return app
}

// helpCommand is urfave/cli's help command, declared here so that its
// usage errors end as every other command's do.
func helpCommand() *cli.Command {
	return &cli.Command{
		Name:      "help",
		Aliases:   []string{"h"},
		Usage:     "Shows a list of commands or help for one command",
		ArgsUsage: "[command]",
		Action: func(c *cli.Context) error {
			switch c.NArg() {
			case 0:
				return cli.ShowAppHelp(c)
			case 1:
				return cli.ShowCommandHelp(c, c.Args().First())
			}
			return usageErr("help: one command at a time")
		},
	}
}
