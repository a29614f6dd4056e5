package main

import (
	"strings"

	"github.com/urfave/cli/v2"
)

// permute moves the flags of a subcommand in front of its operands, so
// that "gopari instrument a.c -o out.c" works as it does with a compiler.
// Arguments after "--" stay operands.
func permute(args []string, cmds []*cli.Command) []string {
	if len(args) < 2 {
		return args
	}
	var cmd *cli.Command
	for _, c := range cmds {
		if c.Name == args[1] || contains(c.Aliases, args[1]) {
			cmd = c
		}
	}
	if cmd == nil || cmd.SkipFlagParsing {
		return args
	}
	takesValue := make(map[string]bool)
	for _, f := range cmd.Flags {
		_, isBool := f.(*cli.BoolFlag)
		for _, n := range f.Names() {
			takesValue[n] = !isBool
		}
	}
	flags := []string{}
	var operands []string
	rest := args[2:]
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if a == "--" {
			operands = append(operands, rest[i+1:]...)
			break
		}
		if len(a) > 1 && a[0] == '-' {
			flags = append(flags, a)
			name := strings.TrimLeft(a, "-")
			if !strings.Contains(name, "=") && takesValue[name] && i+1 < len(rest) {
				i++
				flags = append(flags, rest[i])
			}
			continue
		}
		operands = append(operands, a)
	}
	out := append([]string{args[0], args[1]}, flags...)
	if len(operands) > 0 {
		out = append(out, "--")
		out = append(out, operands...)
	}
	return out
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
