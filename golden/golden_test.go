// Package golden holds gopari's golden-file cases in testdata: C and C++
// inputs, the instrumented output expected for each (NAME.golden) and, for
// bad input, the diagnostics expected, written inline as comments.
//
// A case may start with a line of options:
//
//	// gopari: --untied=keep --disable=locks --chunks; cflags: -std=gnu11
//
// and "; original-fails: WHY" for an input that gcc rejects but whose
// instrumented output it must compile.
//
// Expected diagnostics are written on the line they are reported for:
//
//	x = 1; /* ERROR "unbalanced" */
//	/* WARNING "unknown OpenMP directive" */ /* NOTE "…" */
//
// Every diagnostic must be expected, and every expectation met. Cases with
// an ERROR have no golden output.
//
// Run "go test ./golden -update" to rewrite the .golden files after a
// deliberate change; inputs are never touched.
package golden

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"gopari/internal/verify"
	"gopari/parser"
	"gopari/rewrite"
)

var update = flag.Bool("update", false, "rewrite the .golden files")

func TestMain(m *testing.M) {
	flag.Parse()
	code := m.Run()
	verify.Cleanup()
	os.Exit(code)
}

// A goldenCase is one input file of this directory.
type goldenCase struct {
	name    string // file name, as recorded in #line
	src     []byte
	cfg     parser.Config
	opts    rewrite.Options
	cflags  []string
	expects []expect
	// origFails says that gcc rejects the input (it has constructs that
	// gcc 12 does not know) but must compile the instrumented output.
	origFails bool
}

type expect struct {
	line int
	sev  parser.Severity
	rx   *regexp.Regexp
	text string
}

var sources = map[string]bool{".c": true, ".cc": true, ".cpp": true, ".i": true, ".ii": true}

func loadCases(t *testing.T) []*goldenCase {
	t.Helper()
	ents, err := os.ReadDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	var out []*goldenCase
	for _, e := range ents {
		if !sources[filepath.Ext(e.Name())] {
			continue
		}
		src, err := os.ReadFile(filepath.Join("testdata", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, parseCase(t, e.Name(), src))
	}
	if len(out) == 0 {
		t.Fatal("no golden cases")
	}
	return out
}

var (
	optionRx = regexp.MustCompile(`^\s*(?://|/\*)\s*gopari:(.*?)(?:\*/)?\s*$`)
	expectRx = regexp.MustCompile(`/\* (ERROR|WARNING|NOTE) "((?:[^"\\]|\\.)*)" \*/`)
)

func parseCase(t *testing.T, name string, src []byte) *goldenCase {
	t.Helper()
	c := &goldenCase{name: name, src: src}
	ext := filepath.Ext(name)
	c.cfg.CPlusPlus = ext == ".cc" || ext == ".cpp" || ext == ".ii"
	c.cfg.Preprocessed = ext == ".i" || ext == ".ii"
	lines := strings.Split(string(src), "\n")
	if m := optionRx.FindStringSubmatch(lines[0]); m != nil {
		parts := strings.Split(m[1], ";")
		for _, f := range strings.Fields(parts[0]) {
			k, v, _ := strings.Cut(f, "=")
			var err error
			switch k {
			case "--untied":
				c.opts.Untied, err = rewrite.ParseUntied(v)
			case "--disable":
				c.opts.Disable, err = rewrite.ParseDisable(v)
			case "--chunks":
				c.opts.Chunks = true
			default:
				err = fmt.Errorf("unknown option %q", f)
			}
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
		for _, part := range parts[1:] {
			part = strings.TrimSpace(part)
			switch {
			case strings.HasPrefix(part, "cflags:"):
				c.cflags = strings.Fields(strings.TrimPrefix(part, "cflags:"))
			case strings.HasPrefix(part, "original-fails:"):
				c.origFails = true
			default:
				t.Fatalf("%s: unknown part %q of the options line", name, part)
			}
		}
	}
	for i, l := range lines {
		for _, m := range expectRx.FindAllStringSubmatch(l, -1) {
			sev := map[string]parser.Severity{"ERROR": parser.Error, "WARNING": parser.Warning, "NOTE": parser.Note}[m[1]]
			text := strings.ReplaceAll(m[2], `\"`, `"`)
			c.expects = append(c.expects, expect{line: i + 1, sev: sev, rx: regexp.MustCompile(text), text: text})
		}
	}
	return c
}

func (c *goldenCase) hasError() bool {
	for _, e := range c.expects {
		if e.sev == parser.Error {
			return true
		}
	}
	return false
}

// instrument runs gopari on the case.
func (c *goldenCase) instrument() ([]byte, parser.DiagnosticList) {
	res, diags := rewrite.Source(c.name, c.src, c.cfg, c.opts)
	if res == nil {
		return nil, diags
	}
	return res.Bytes(), diags
}

// checkDiags matches diagnostics and expectations one to one.
func (c *goldenCase) checkDiags(t *testing.T, diags parser.DiagnosticList) {
	t.Helper()
	used := make([]bool, len(c.expects))
	for _, d := range diags {
		found := false
		for i, e := range c.expects {
			if !used[i] && e.line == d.Pos.Line && e.sev == d.Severity && e.rx.MatchString(d.Msg) {
				used[i], found = true, true
				break
			}
		}
		if !found {
			t.Errorf("unexpected diagnostic: %s", d.Error())
		}
	}
	for i, e := range c.expects {
		if !used[i] {
			t.Errorf("%s:%d: expected %v matching %q, got none", c.name, e.line, sevName(e.sev), e.text)
		}
	}
}

func sevName(s parser.Severity) string {
	return [...]string{"error", "warning", "note"}[s]
}

// TestGolden instruments every case and compares the result with its
// golden file, or checks the errors the case expects.
func TestGolden(t *testing.T) {
	for _, c := range loadCases(t) {
		c := c
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got, diags := c.instrument()
			c.checkDiags(t, diags)
			golden := filepath.Join("testdata", c.name+".golden")
			if c.hasError() {
				if got != nil {
					t.Errorf("output produced despite errors")
				}
				if _, err := os.Stat(golden); err == nil {
					t.Errorf("%s exists for a case with errors", golden)
				}
				return
			}
			if got == nil {
				t.Fatalf("no output")
			}
			again, _ := c.instrument()
			if !bytes.Equal(got, again) {
				t.Errorf("two runs gave different output")
			}
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./golden -update)", err)
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("%s differs (-want +got):\n%s", golden, diff)
			}
		})
	}
}

var warningRx = regexp.MustCompile(`^[^:\n]*:(\d+):\d+: warning: (.*)$`)

// compile compiles src, named name, in dir and returns whether it
// succeeded, its warnings as "line: message", and all its output.
func compile(t *testing.T, dir, name string, cflags []string, cplusplus bool) (bool, []string, string) {
	t.Helper()
	cc := "gcc"
	if cplusplus {
		cc = "g++"
	}
	args := append([]string{"-fopenmp", "-Wall", "-c", "-o", os.DevNull, "-I", pompInclude(t)}, cflags...)
	if filepath.Ext(name) == ".i" {
		args = append(args, "-x", "cpp-output")
	} else if filepath.Ext(name) == ".ii" {
		args = append(args, "-x", "c++-cpp-output")
	}
	cmd := exec.Command(cc, append(args, name)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	var warns []string
	for _, l := range strings.Split(string(out), "\n") {
		if m := warningRx.FindStringSubmatch(l); m != nil {
			warns = append(warns, m[1]+": "+m[2])
		}
	}
	sort.Strings(warns)
	return err == nil, warns, string(out)
}

func pompInclude(t *testing.T) string {
	p, err := filepath.Abs("../pomprt/include")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestGoldenCompile compiles every golden output with gcc or g++ -fopenmp
// -Wall against the real pomp.h, and checks that it compiles exactly when
// the original does and adds no warning the original did not have. C
// outputs must also parse with modernc.org/cc/v4.
func TestGoldenCompile(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc not installed")
	}
	for _, c := range loadCases(t) {
		c := c
		if c.hasError() {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			out, _ := c.instrument()
			if out == nil {
				t.Fatal("no output")
			}
			okOrig, warnOrig, msgOrig := compile(t, "testdata", c.name, c.cflags, c.cfg.CPlusPlus)
			if c.origFails {
				if okOrig {
					t.Fatalf("gcc compiles the original, which the case says it rejects")
				}
				okOrig, warnOrig = true, nil
			}
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, c.name), out, 0o644); err != nil {
				t.Fatal(err)
			}
			okInst, warnInst, msgInst := compile(t, dir, c.name, c.cflags, c.cfg.CPlusPlus)
			if okOrig != okInst {
				t.Fatalf("original compiles: %v, instrumented compiles: %v\noriginal:\n%s\ninstrumented:\n%s", okOrig, okInst, msgOrig, msgInst)
			}
			have := make(map[string]int)
			for _, w := range warnOrig {
				have[w]++
			}
			for _, w := range warnInst {
				if have[w] == 0 {
					t.Errorf("new warning at line %s\ninstrumented:\n%s", w, msgInst)
				}
				have[w]--
			}
			if !c.cfg.CPlusPlus && okOrig {
				if errs := verify.C(c.name, out); len(errs) > 0 {
					t.Errorf("modernc.org/cc/v4 rejects the output:\n%s", strings.Join(errs, "\n"))
				}
			}
		})
	}
}
