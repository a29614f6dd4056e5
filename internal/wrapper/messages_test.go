package wrapper

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"gopari/internal/runtest"
	"gopari/parser"
)

// TestMain has the wrapper find the runtime of the build directory,
// which make fills: GOPARI_PREFIX, as gopari cc would find it beside
// bin/gopari.
func TestMain(m *testing.M) {
	if os.Getenv("GOPARI_PREFIX") == "" {
		if prefix, err := filepath.Abs("../../build"); err == nil {
			os.Setenv("GOPARI_PREFIX", prefix)
		}
	}
	os.Exit(m.Run())
}

// The compiler's messages through gopari cc are its messages on the
// user's source: TestCCMessages compiles every source in testdata/ccmsg
// with the compiler alone (the truth) and through gopari cc, in the
// default mode and with --raw, with gcc and clang, and compares what
// they print: the file, line, column, severity and text of every
// message, the notes (macro expansions, "previous statement is here"),
// the include chains and function contexts, and the exit status.
//
// A source may start with lines of
//
//	// flags: -std=gnu11
//	// differs COMPILER MODE /REGEXP/: REASON
//
// The second kind names messages that cannot agree, and why: those that
// match REGEXP (in either output) are left out of the comparison for
// COMPILER (gcc, clang or *) in MODE (default, raw or *). Such an
// exception must match something, so that none outlives its reason.

// ccCompiler is a C and C++ compiler pair.
type ccCompiler struct{ name, cc, cxx string }

func ccCompilers(t *testing.T) []ccCompiler {
	cs := []ccCompiler{{"gcc", "gcc", "g++"}}
	if runtest.ClangWorks() {
		cs = append(cs, ccCompiler{"clang", "clang-14", "clang++-14"})
	} else {
		t.Log("clang-14 cannot build OpenMP programs here: gcc only")
	}
	return cs
}

// ccTestEnv returns the environment of the commands that tests run,
// and skips the test when make has not built the runtime.
func ccTestEnv(t *testing.T) []string {
	t.Helper()
	if _, _, err := RuntimePaths(); err != nil {
		t.Skip("build/lib/libpomp.a not built: run make build")
	}
	return os.Environ()
}

// runCC runs a compiler command through the wrapper, as gopari cc
// [--raw] does, and returns what it printed on standard error and its
// exit status.
func runCC(t *testing.T, raw bool, argv ...string) ([]byte, int) {
	t.Helper()
	var stderr bytes.Buffer
	o := Options{Raw: raw, PrintDiags: printDiags}
	err := Run(argv, o, nil, nil, &stderr)
	var ce *CommandError
	switch {
	case err == nil:
		return stderr.Bytes(), 0
	case errors.As(err, &ce):
		return stderr.Bytes(), ce.Status
	}
	fmt.Fprintf(&stderr, "gopari: %v\n", err)
	return stderr.Bytes(), 1
}

// printDiags is Options.PrintDiags for tests: every diagnostic.
func printDiags(w io.Writer, diags parser.DiagnosticList) {
	for _, d := range diags {
		fmt.Fprintln(w, d.Error())
	}
}

// A msgException is a "differs" line of a source.
type msgException struct {
	compiler, mode string
	rx             *regexp.Regexp
	reason         string
	used           bool
}

var (
	flagsLine   = regexp.MustCompile(`^// flags: (.*)$`)
	differsLine = regexp.MustCompile(`^// differs (\S+) (\S+) /(.*)/: (.+)$`)
)

// ccCase reads the options of a source.
func ccCase(t *testing.T, path string) (flags []string, excs []*msgException) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		l := sc.Text()
		if m := flagsLine.FindStringSubmatch(l); m != nil {
			flags = append(flags, strings.Fields(m[1])...)
		} else if m := differsLine.FindStringSubmatch(l); m != nil {
			excs = append(excs, &msgException{compiler: m[1], mode: m[2], rx: regexp.MustCompile(m[3]), reason: m[4]})
		} else if !strings.HasPrefix(l, "//") {
			break
		}
	}
	return flags, excs
}

// messageLine matches what TestCCMessages compares of a compiler's
// output: located messages, function contexts and include chains of GCC,
// and clang's count of errors and warnings. Source lines and carets are
// left out: the compiler prints the line it compiled.
var messageLine = regexp.MustCompile(`^[^ :][^:]*:\d+:\d+: (fatal error|error|warning|note): |^[^ ].*: (In |At top level)|^In file included from |^ +from |^\d+ (warnings?|errors?)( and \d+ errors?)? generated\.$`)

// messages returns the lines of out that messageLine matches.
func messages(out []byte) []string {
	var m []string
	for _, l := range strings.Split(string(out), "\n") {
		if messageLine.MatchString(l) {
			m = append(m, l)
		}
	}
	return m
}

// runCompiler runs argv and returns its standard error and exit status.
func runCompiler(t *testing.T, env []string, argv ...string) ([]byte, int) {
	t.Helper()
	var stderr bytes.Buffer
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env, cmd.Stderr = env, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return stderr.Bytes(), 0
	case errors.As(err, &ee):
		return stderr.Bytes(), ee.ExitCode()
	}
	t.Fatalf("%s: %v", strings.Join(argv, " "), err)
	return nil, 0
}

func TestCCMessages(t *testing.T) {
	env := ccTestEnv(t)
	sources, _ := filepath.Glob("testdata/ccmsg/*.c")
	cpp, _ := filepath.Glob("testdata/ccmsg/*.cpp")
	sources = append(sources, cpp...)
	if len(sources) == 0 {
		t.Fatal("no sources in testdata/ccmsg")
	}
	for _, c := range ccCompilers(t) {
		for _, src := range sources {
			t.Run(c.name+"/"+filepath.Base(src), func(t *testing.T) {
				t.Parallel()
				flags, excs := ccCase(t, src)
				cc := c.cc
				if strings.HasSuffix(src, ".cpp") {
					cc = c.cxx
				}
				tmp := t.TempDir()
				args := append(append([]string{cc, "-fopenmp", "-Wall", "-Wextra"}, flags...), "-c", src)
				truth, status := runCompiler(t, env, append(args, "-o", filepath.Join(tmp, "plain.o"))...)
				want := messages(truth)
				if len(want) == 0 {
					t.Fatalf("%s prints no message on %s: nothing to compare\n%s", cc, src, truth)
				}
				for _, mode := range []string{"default", "raw"} {
					argv := append(append([]string(nil), args...), "-o", filepath.Join(tmp, mode+".o"))
					out, got := runCC(t, mode == "raw", argv...)
					if (got == 0) != (status == 0) {
						t.Errorf("%s: exit status %d, the compiler alone %d\n%s", mode, got, status, out)
					}
					w, g := want, messages(out)
					for _, e := range excs {
						if (e.compiler == c.name || e.compiler == "*") && (e.mode == mode || e.mode == "*") {
							w, g = drop(w, e), drop(g, e)
						}
					}
					if diff := cmp.Diff(w, g); diff != "" {
						t.Errorf("%s %s: messages differ from the compiler's alone (-want +got):\n%s\nall of gopari cc's output:\n%s", cc, mode, diff, out)
					}
				}
				for _, e := range excs {
					if !e.used && (e.compiler == c.name || e.compiler == "*") {
						t.Errorf("differs %s %s /%s/ matches nothing: remove it (%s)", e.compiler, e.mode, e.rx, e.reason)
					}
				}
			})
		}
	}
}

// drop returns msgs without the lines that e matches.
func drop(msgs []string, e *msgException) []string {
	var out []string
	for _, m := range msgs {
		if e.rx.MatchString(m) {
			e.used = true
			continue
		}
		out = append(out, m)
	}
	return out
}

// TestCCPositionsAtRunTime builds programs that print __FILE__, __LINE__
// and (C++) __builtin_COLUMN() inside directives and then fail an
// assert, with the compiler alone and through gopari cc in both modes,
// and compares what the programs print and how they end.
func TestCCPositionsAtRunTime(t *testing.T) {
	env := ccTestEnv(t)
	for _, c := range ccCompilers(t) {
		for _, name := range []string{"positions.c", "positions.cpp"} {
			t.Run(c.name+"/"+name, func(t *testing.T) {
				t.Parallel()
				tmp := t.TempDir()
				src, err := filepath.Abs(filepath.Join("testdata/ccrun", name))
				if err != nil {
					t.Fatal(err)
				}
				cc := c.cc
				if strings.HasSuffix(name, ".cpp") {
					cc = c.cxx
				}
				run := func(exe string) string {
					var out bytes.Buffer
					cmd := exec.Command(exe)
					cmd.Args[0] = "positions" // the assert's message names the program
					cmd.Dir, cmd.Env = tmp, append(env, "GOPARI_MODE=off")
					cmd.Stdout, cmd.Stderr = &out, &out
					err := cmd.Run()
					return fmt.Sprintf("%s[%v]", out.String(), err)
				}
				exe := filepath.Join(tmp, "plain")
				flags := []string{"-fopenmp"}
				if strings.HasSuffix(name, ".cpp") {
					flags = append(flags, "-std=c++20")
				}
				if out, status := runCompiler(t, env, append(append([]string{cc}, flags...), src, "-o", exe)...); status != 0 {
					t.Fatalf("%s:\n%s", cc, out)
				}
				want := run(exe)
				if !strings.Contains(want, "Assertion") {
					t.Fatalf("the program's assert did not fail:\n%s", want)
				}
				for _, mode := range []string{"default", "raw"} {
					exe := filepath.Join(tmp, mode)
					argv := append(append([]string{cc}, flags...), src, "-o", exe)
					if out, status := runCC(t, mode == "raw", argv...); status != 0 {
						t.Fatalf("gopari cc (%s) %s:\n%s", mode, strings.Join(argv, " "), out)
					}
					if got := run(exe); got != want {
						t.Errorf("%s: the program prints (-want +got):\n%s", mode, cmp.Diff(want, got))
					}
				}
			})
		}
	}
}
