package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// usageCases are, per command, command lines whose operands are wrong
// (missing or one too many): each must be a usage error. A command whose
// operands are all optional and unbounded has what it can get wrong.
var usageCases = map[string][][]string{
	"instrument": {
		{"instrument"}, // no input file
		{"instrument", "-o", "x.c", "a.c", "b.c"}, // -o takes one
		{"instrument", "x.f90"},                   // a Fortran result is two files: no standard output
		{"instrument", "--free", "--fixed", "-o", "y.f", "x.f"},
	},
	"diff": {{"diff"}}, // no input file
	"report": {
		{"report", "a", "b"},               // one directory at a time (none: the newest run here)
		{"report", "--ranks", "some", "a"}, // --ranks takes all
		{"report", "--ranks", "all", "."},  // for a job's directory only
	},
	"cc":     {{"cc"}},                                  // no compiler; what follows it is the compiler's
	"config": {{"config"}, {"config", "--cflags", "a"}}, // no question; no operands
	"trace": {
		{"trace", "a"}, // no output asked for
		{"trace", "--chrome", "x.json", "a", "b"},                     // one directory at a time
		{"trace", "--perfetto", "x.pftrace", "--window", "2", "a"},    // no END
		{"trace", "--perfetto", "x.pftrace", "--window", "2:1", "a"},  // END before START
		{"trace", "--perfetto", "x.pftrace", "--window", "a:b", "a"},  // not seconds
		{"trace", "--perfetto", "x.pftrace", "--threads", "0.x", "a"}, // not a team path
	},
	"model":  {{"model"}},                   // no directories
	"scale":  {{"scale"}},                   // no program; what follows it is the program's
	"grains": {{"grains", "a", "b"}},        // one directory at a time (none: the newest run here)
	"help":   {{"help", "report", "trace"}}, // one command at a time
	"pprof": {
		{"pprof", "a"},                             // no output asked for
		{"pprof", "-o", "p.pb.gz", "a", "b"},       // one directory at a time
		{"pprof", "-o", "-", "--folded", "-", "a"}, // both to standard output
	},
	"filter": {
		{"filter", "a", "b"},                    // one directory at a time
		{"filter", "--min-visits", "many", "a"}, // not a number
		{"filter", "--max-mean", "5", "a"},      // a duration needs its unit
		{"filter", "--max-mean", "-1ms", "a"},   // a negative one
	},
}

// TestUsageErrors runs every command of gopari with a flag it does not
// have and with wrong operands: each ends with exit status 2, a short
// message on stderr and nothing on stdout. The commands come from the
// app, so that a new command must say here what its usage errors are.
func TestUsageErrors(t *testing.T) {
	t.Parallel()
	var unknown bool
	for _, c := range newApp(nil, nil, nil, &unknown).Commands {
		cases, ok := usageCases[c.Name]
		if !ok {
			t.Errorf("command %s: add its wrong operands to usageCases", c.Name)
		}
		cases = append([][]string{{c.Name, "--no-such-flag"}, {c.Name, "-x", "a"}}, cases...)
		for _, args := range cases {
			expectUsageError(t, args)
		}
	}
	expectUsageError(t, []string{"--no-such-flag"})
	expectUsageError(t, []string{"no-such-command"})
}

// expectUsageError runs gopari with args and checks that it ended as a
// usage error.
func expectUsageError(t *testing.T, args []string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(append([]string{"gopari"}, args...), strings.NewReader(""), &stdout, &stderr)
	line := "gopari " + strings.Join(args, " ")
	msg := stderr.String()
	if code != 2 {
		t.Errorf("%s: exit status %d, want 2; stderr:\n%s", line, code, msg)
	}
	if stdout.Len() > 0 {
		t.Errorf("%s: wrote %d bytes to stdout, want none:\n%s", line, stdout.Len(), stdout.String())
	}
	if n := strings.Count(msg, "\n"); n < 1 || n > 2 || len(msg) > 300 || !strings.HasPrefix(msg, "gopari") {
		t.Errorf("%s: stderr is not a short message (1 or 2 lines from gopari):\n%s", line, msg)
	}
}

// TestFlagErrorMessage checks the whole message of a flag urfave/cli
// cannot parse: the command, the mistake and where to read more.
func TestFlagErrorMessage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ args, want string }{
		{"report -x", "gopari report: flag provided but not defined: -x\nrun 'gopari report --help' for usage\n"},
		{"report --top many", "gopari report: invalid value \"many\" for flag -top: parse error\nrun 'gopari report --help' for usage\n"},
		{"-x", "gopari: flag provided but not defined: -x\nrun 'gopari --help' for usage\n"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"gopari"}, strings.Fields(tc.args)...), strings.NewReader(""), &stdout, &stderr)
		if code != 2 || stderr.String() != tc.want {
			t.Errorf("gopari %s: exit status %d, stderr:\n%s\nwant exit status 2, stderr:\n%s", tc.args, code, stderr.String(), tc.want)
		}
	}
}

// TestOutputErrorPrefix: an error of making a command's output is not an
// error of writing it: no "write standard output:" before it.
func TestOutputErrorPrefix(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var runs []string
	for _, n := range []string{"1", "2"} {
		d := filepath.Join(dir, "t"+n)
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		prof := `{"format": "gopari-profile", "version": 1, "program": "./prog", "pid": 1, "mode": "profile", "clock": "tsc", "wall_ns": 1000000, "exit": "exit", "regions": [{"id": 1, "kind": "parallel", "name": "parallel", "file": "prog.c", "begin_line": 10, "end_line": 20}], "threads": [], "os_threads": ` + n + `, "stats": [{"region": 1, "thread": 0, "construct": {"visits": 10, "incl_ns": 30000, "excl_ns": 30000}}], "tasks": [], "creation_tree": {"edges": [], "max_depth": 0}, "unmatched_events": 0}`
		if err := os.WriteFile(filepath.Join(d, "profile.json"), []byte(prof), 0o644); err != nil {
			t.Fatal(err)
		}
		runs = append(runs, d)
	}
	for _, cmd := range [][]string{{"model"}, {"model", "--json"}} {
		var stdout, stderr bytes.Buffer
		code := run(append(append([]string{"gopari"}, cmd...), runs...), strings.NewReader(""), &stdout, &stderr)
		want := "gopari: the profiles ran at 1, 2 threads: a model needs runs at 3 or more thread counts\n"
		if code != 1 || stderr.String() != want || stdout.Len() > 0 {
			t.Errorf("gopari %s: exit status %d, stdout %q, stderr:\n%s\nwant exit status 1, no stdout, stderr:\n%s", strings.Join(cmd, " "), code, stdout.String(), stderr.String(), want)
		}
	}
}
