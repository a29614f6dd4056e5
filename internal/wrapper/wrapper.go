// Package wrapper runs a compiler command through gopari (gopari cc):
// it instruments the C and C++ sources of commands that enable OpenMP,
// compiles what the compiler's messages should be about, and links
// libpomp.a into programs that use OpenMP or instrumented objects.
// Options, help and exit statuses are the command's (cmd/gopari).
package wrapper

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"gopari/internal/atomicfile"
	"gopari/internal/filter"
	"gopari/parser"
	"gopari/rewrite"
)

// Options are gopari's own options of a compiler command, and what the
// wrapper borrows from the command that runs it.
type Options struct {
	Raw      bool // instrument the source as written, without preprocessing
	Keep     bool // keep the intermediate files
	DryRun   bool // print the commands and run none
	Verbose  bool // print the commands as they run
	Fallback bool // when instrumenting fails, compile uninstrumented, with a warning
	Off      bool // run the compiler untouched (GOPARI_WRAPPER=off)
	Rewrite  rewrite.Options

	// Functions adds the compiler's function instrumentation to every C
	// and C++ compile and links the runtime (functions.go). Filter, if
	// set, is the --filter file, parsed, and FilterText its bytes.
	Functions  bool
	Filter     *filter.Filter
	FilterText []byte

	// PrintDiags prints gopari's diagnostics about a source.
	PrintDiags func(w io.Writer, diags parser.DiagnosticList)
	// PauseGC, if set, pauses garbage collection while a source of size
	// bytes is instrumented and returns what resumes it.
	PauseGC func(size int64) (resume func())
}

// A CommandError is a command that gopari ran and that failed: Status is
// its exit status (128+N for signal N), or 127 when it could not start,
// with Err saying why. The command printed its own messages.
type CommandError struct {
	Status int
	Err    error
}

func (e *CommandError) Error() string {
	if e.Err != nil {
		return e.Err.Error()
	}
	return fmt.Sprintf("exit status %d", e.Status)
}

// launchers run the compiler named after them.
var launchers = map[string]bool{"ccache": true, "sccache": true, "distcc": true, "icecc": true}

// Run runs one compiler command through gopari: cmdline is the
// compiler's name, after a launcher such as ccache if there is one, and
// the compiler's arguments. A command that fails returns a
// *CommandError; any other error is gopari's, its message for the user.
func Run(cmdline []string, o Options, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(cmdline) == 0 {
		return errors.New("cc: no compiler given")
	}
	p := &plan{o: &o, stdin: stdin, stdout: stdout, stderr: stderr}
	if o.Off {
		return p.command(cmdline, stderr)
	}
	n := 1
	if launchers[filepath.Base(cmdline[0])] && len(cmdline) > 1 && !strings.HasPrefix(cmdline[1], "-") {
		n = 2
	}
	line, err := parseCC(cmdline[n:])
	if err != nil {
		return err
	}
	p.compiler, p.line = cmdline[:n], line
	return p.run()
}

// A plan carries out one compiler command through gopari.
type plan struct {
	o               *Options
	compiler        []string
	line            *cmdline
	stdin           io.Reader
	stdout, stderr  io.Writer
	temps           []string
	includeDir, lib string
	objects         map[int]string      // input index -> object replacing it on the link line
	noMeta          map[bool]string     // by language: the compiler, if it ignores metadirectives
	linkObjs        map[int]string      // input index -> its object, when linking
	warnings        []string            // about the link, printed when it runs
	fnFlags         map[string][]string // --functions flags by languages (functionFlags)
}

func (p *plan) run() error {
	l := p.line
	defer p.cleanup()
	if l.mode == 'E' || l.mode == 'M' {
		return p.passThrough()
	}
	var sources []input
	for _, in := range l.inputs {
		if l.openmp && (in.lang != "" || in.fortran) && in.path != "-" {
			sources = append(sources, in)
		} else if l.openmp && passedOver(in) { // fortran.go
			fmt.Fprintf(p.stderr, "gopari: warning: %s: not a C, C++ or Fortran source by its suffix; compiled without instrumentation\n", in.path)
		}
	}
	linking := l.mode == 'l'
	needLib := linking && (p.linkObjects() || l.openmp || p.o.Functions) // objects.go
	if len(sources) == 0 && !needLib {
		return p.passThrough()
	}
	var err error
	if p.includeDir, p.lib, err = RuntimePaths(); err != nil {
		return fmt.Errorf("cc: %v", err)
	}
	if len(sources) > 0 {
		if err := p.checkWritable(); err != nil {
			return err
		}
	}
	stop := p.trapSignals()
	defer stop()
	p.objects = make(map[int]string)
	for _, src := range sources {
		compile := p.compile
		if src.fortran {
			compile = p.compileFortran
		}
		if err := compile(src); err != nil {
			if ee, ok := err.(*instrumentError); ok && p.o.Fallback {
				fmt.Fprintf(p.stderr, "gopari: warning: %s: %v; compiling without instrumentation (--fallback)\n", src.path, ee.err)
				p.cleanup()
				return p.passThrough()
			}
			return err
		}
	}
	if !linking {
		return nil
	}
	return p.link()
}

// checkWritable makes sure that intermediate files can be written beside
// the output before the compiler is asked to write one, so that a failure
// names the user's output, not a temporary file.
func (p *plan) checkWritable() error {
	if p.o.DryRun {
		return nil
	}
	f, err := os.CreateTemp(p.outDir(), ".gopari-probe-*")
	if err != nil {
		return fmt.Errorf("cannot write %s: %v", p.userOutput(), atomicfile.Cause(err))
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

// userOutput names the file the user's command writes, for messages.
func (p *plan) userOutput() string {
	l := p.line
	switch {
	case l.output != "":
		return l.output
	case l.mode == 'l':
		return "a.out"
	}
	for _, in := range l.inputs {
		if in.lang != "" && in.path != "-" {
			return p.objectOf(in)
		}
	}
	return "the output"
}

// passThrough runs the user's command unchanged, but for the flags of
// --functions when it compiles.
func (p *plan) passThrough() error {
	p.printWarnings()
	argv := append(append([]string(nil), p.compiler...), p.line.args...)
	if m := p.line.mode; m == 'c' || m == 'S' || m == 'l' {
		p.objects = nil // the command compiles every source itself
		if p.clangSteps() {
			return p.compileEach()
		}
		argv = p.withFunctionFlags(argv, p.sourceLangs()...)
	}
	return p.exec(argv)
}

// outDir is where intermediate files go: beside the output.
func (p *plan) outDir() string {
	if o := p.line.output; o != "" && o != "-" {
		return filepath.Dir(o)
	}
	return "."
}

// objectOf returns the file the compile of src produces: the -o output
// for one source, otherwise its base name with .o (or .s) in the current
// directory, or an intermediate object when linking.
func (p *plan) objectOf(src input) string {
	l := p.line
	base := strings.TrimSuffix(filepath.Base(src.path), filepath.Ext(src.path))
	switch l.mode {
	case 'c', 'S':
		if l.output != "" && p.sourceCount() == 1 {
			return l.output
		}
		if l.mode == 'S' {
			return base + ".s"
		}
		return base + ".o"
	}
	if obj, ok := p.linkObjs[src.index]; ok {
		return obj
	}
	out := l.output
	if out == "" {
		out = "a.out"
	}
	// Named as gcc -save-temps names it, which the linker's messages
	// show; a hidden name if a file of that name is there already.
	name := filepath.Base(out) + "-" + base + ".o"
	obj := filepath.Join(p.outDir(), name)
	if _, err := os.Lstat(obj); err == nil && !p.saveTemps() {
		obj = p.temp(name)
	} else if !p.saveTemps() {
		p.temps = append(p.temps, obj)
	}
	if p.linkObjs == nil {
		p.linkObjs = make(map[int]string)
	}
	p.linkObjs[src.index] = obj
	return obj
}

// saveTemps reports whether the command has -save-temps: gopari then
// keeps its intermediate files, under the names gcc gives its own.
func (p *plan) saveTemps() bool {
	for _, a := range p.line.args {
		if a == "-save-temps" || strings.HasPrefix(a, "-save-temps=") {
			return true
		}
	}
	return false
}

func (p *plan) sourceCount() int {
	n := 0
	for _, in := range p.line.inputs {
		if in.path != "-" {
			n++
		}
	}
	return n
}

// temp returns the path of an intermediate file named after name, beside
// the output. Names derive from the output, so that parallel builds never
// collide and repeated builds use the same paths (ccache hashes them into
// debug information).
func (p *plan) temp(name string) string {
	if p.saveTemps() {
		return filepath.Join(p.outDir(), name)
	}
	path := filepath.Join(p.outDir(), ".gopari-"+name)
	p.temps = append(p.temps, path)
	return path
}

func (p *plan) cleanup() {
	if p.o.Keep {
		return
	}
	for i := len(p.temps) - 1; i >= 0; i-- {
		os.Remove(p.temps[i]) // files before the directories that hold them
	}
	p.temps = nil
}

// flags returns the options of the command that a step keeps.
func (p *plan) flags(keep ...flagClass) []string {
	var out []string
	args := p.line.args
	for i := 0; i < len(args); {
		c, n := classify(args, i)
		for _, k := range keep {
			if c == k {
				out = append(out, args[i:i+n]...)
				break
			}
		}
		i += n
	}
	return out
}

// depFlags returns the dependency options that make the preprocessing of
// src write the file the original command would write, as GCC names it:
// with -o, the output with its suffix replaced by .d, naming the output
// as target; otherwise the source's base name with .d, naming its .o.
func (p *plan) depFlags(src input) []string {
	l := p.line
	if l.depMode == "" {
		return nil
	}
	base := strings.TrimSuffix(filepath.Base(src.path), filepath.Ext(src.path))
	file, target := base+".d", base+".o"
	if l.output != "" && (l.mode == 'l' || p.sourceCount() == 1) {
		file = strings.TrimSuffix(l.output, filepath.Ext(l.output)) + ".d"
		target = l.output
	}
	if l.depFile != "" {
		file = l.depFile
	}
	out := []string{l.depMode, "-MF", file}
	if len(l.depTargets) > 0 {
		out = append(out, l.depTargets...)
	} else {
		out = append(out, "-MT", target)
	}
	if l.depPhony {
		out = append(out, "-MP")
	}
	return out
}

// link runs the link step with the instrumented objects and libpomp.a.
func (p *plan) link() error {
	argv := append([]string(nil), p.compiler...)
	args := p.line.args
	inputs := make(map[int]input)
	for _, in := range p.line.inputs {
		inputs[in.index] = in
	}
	for i := 0; i < len(args); {
		if in, ok := inputs[i]; ok {
			switch obj, replaced := p.objects[i]; {
			case replaced:
				argv = append(argv, obj)
			case in.xlang != "":
				argv = append(argv, "-x", in.xlang, in.path, "-x", "none")
			default:
				argv = append(argv, in.path)
			}
			i++
			continue
		}
		c, n := classify(args, i)
		a := args[i]
		switch {
		case c != keepNone:
			argv = append(argv, args[i:i+n]...)
		case a == "-o" || strings.HasPrefix(a, "-o"):
			argv = append(argv, args[i:i+n]...)
		}
		i += n
	}
	argv = p.withFunctionFlags(argv, p.sourceLangs()...) // sources the link compiles
	filterObj, err := p.filterObject()
	if err != nil {
		return err
	}
	p.printWarnings()
	argv = p.withMPILib(argv)
	if filterObj != "" {
		argv = append(argv, filterObj)
	}
	return p.exec(append(argv, p.lib, "-lpthread"))
}

// exec runs a command with the user's standard streams.
func (p *plan) exec(argv []string) error {
	return p.command(argv, p.stderr)
}

// command runs argv with the user's standard input and output, and
// stderr for its messages, which a step may hold back (preprocessing
// does). Under -v and --dry-run it first prints argv to the user's
// standard error, never to stderr: every step shows as it runs, in the
// order the steps run. --dry-run runs nothing.
func (p *plan) command(argv []string, stderr io.Writer) error {
	p.step(shellQuote(argv))
	if p.o.DryRun {
		return nil
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = p.stdin, p.stdout, stderr
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code := ee.ExitCode()
			if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
				code = 128 + int(ws.Signal())
			}
			return &CommandError{Status: code}
		}
		return &CommandError{Status: 127, Err: err}
	}
	return nil
}

// step prints a step that is about to run, under -v and --dry-run.
func (p *plan) step(line string) {
	if p.o.Verbose || p.o.DryRun {
		fmt.Fprintln(p.stderr, line)
	}
}

// printWarnings prints the warnings about the link (linkObjects) just
// before it runs: what is said about a step comes with the step.
func (p *plan) printWarnings() {
	for _, w := range p.warnings {
		fmt.Fprintln(p.stderr, w)
	}
	p.warnings = nil
}

// trapSignals lets the compiler handle SIGINT and SIGTERM, which the
// terminal sends to it as well, so that gopari lives to remove its
// intermediate files.
func (p *plan) trapSignals() func() {
	c := make(chan os.Signal, 1)
	signal.Notify(c, os.Interrupt, syscall.SIGTERM)
	return func() { signal.Stop(c) }
}

// shellQuote renders argv as a shell command line.
func shellQuote(argv []string) string {
	var b strings.Builder
	for i, a := range argv {
		if i > 0 {
			b.WriteByte(' ')
		}
		if a != "" && strings.IndexFunc(a, func(r rune) bool {
			return !(r == '-' || r == '_' || r == '.' || r == '/' || r == '=' || r == ',' || r == ':' || r == '+' ||
				r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
		}) < 0 {
			b.WriteString(a)
			continue
		}
		b.WriteString("'" + strings.ReplaceAll(a, "'", `'\''`) + "'")
	}
	return b.String()
}
