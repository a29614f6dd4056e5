package main

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

	"github.com/urfave/cli/v2"

	"gopari/internal/atomicfile"
	"gopari/rewrite"
)

func ccCommand() *cli.Command {
	return &cli.Command{
		Name:            "cc",
		Usage:           "compile and link through gopari",
		ArgsUsage:       "[--raw] [--keep-files] [--dry-run] [-v] [--fallback] [--untied=…] [--disable=…] [--chunks] COMPILER ARG...",
		SkipFlagParsing: true,
		Description: `Runs COMPILER with ARG... as given, instrumenting the C and C++ sources of
commands that enable OpenMP (-fopenmp, -fopenmp=libomp, ...) and linking
libpomp.a into programs that use OpenMP or instrumented objects. Use it as
CC = gopari cc gcc, or as CMake's compiler launcher.

By default every source is first preprocessed with the same compiler and
flags, so that directives from macros (_Pragma in #define), from the user's
headers and behind #ifdef _OPENMP are instrumented; system headers are not.
--raw instruments the source text instead.

Options (before COMPILER):
  --raw          instrument the source as written, without preprocessing
  --keep-files   keep the intermediate files (beside the output)
  --dry-run      print the commands and do nothing
  -v             print the commands as they run
  --fallback     when instrumenting fails, compile uninstrumented, with a warning
  --untied, --disable, --chunks   as for gopari instrument

GOPARI_WRAPPER=off runs the compiler untouched (for configure scripts).`,
		Action: func(c *cli.Context) error {
			return runCC(c.Args().Slice(), c.App.Reader, c.App.Writer, c.App.ErrWriter)
		},
	}
}

// ccOptions are gopari's own options of gopari cc.
type ccOptions struct {
	raw, keep, dry, verbose, fallback bool
	opts                              rewrite.Options
}

func parseCCOptions(args []string) (*ccOptions, []string, error) {
	o := &ccOptions{}
	untied, disable := "tie", ""
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			i++
			goto done
		case a == "--raw":
			o.raw = true
		case a == "--keep-files":
			o.keep = true
		case a == "--dry-run":
			o.dry = true
		case a == "-v" || a == "--verbose":
			o.verbose = true
		case a == "--fallback":
			o.fallback = true
		case a == "--chunks":
			o.opts.Chunks = true
		case strings.HasPrefix(a, "--untied="):
			untied = a[len("--untied="):]
		case strings.HasPrefix(a, "--disable="):
			disable = a[len("--disable="):]
		case strings.HasPrefix(a, "-"):
			return nil, nil, usageErr("cc: unknown option %s before the compiler's name", a)
		default:
			goto done
		}
	}
done:
	var err error
	if o.opts.Untied, err = rewrite.ParseUntied(untied); err != nil {
		return nil, nil, usageErr("%v", err)
	}
	if o.opts.Disable, err = rewrite.ParseDisable(disable); err != nil {
		return nil, nil, usageErr("%v", err)
	}
	if i >= len(args) {
		return nil, nil, usageErr("cc: no compiler given: gopari cc gcc ARG...")
	}
	return o, args[i:], nil
}

// launchers run the compiler named after them.
var launchers = map[string]bool{"ccache": true, "sccache": true, "distcc": true, "icecc": true}

// runCC runs one compiler command.
func runCC(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	o, cmdline, err := parseCCOptions(args)
	if err != nil {
		return err
	}
	if v := os.Getenv("GOPARI_WRAPPER"); v == "off" || v == "0" {
		return execute(cmdline, stdin, stdout, stderr, o)
	}
	n := 1
	if launchers[filepath.Base(cmdline[0])] && len(cmdline) > 1 && !strings.HasPrefix(cmdline[1], "-") {
		n = 2
	}
	compiler, rest := cmdline[:n], cmdline[n:]
	line, err := parseCC(rest)
	if err != nil {
		return &exitError{code: 1, msg: err.Error()}
	}
	p := &ccPlan{o: o, compiler: compiler, line: line, stdin: stdin, stdout: stdout, stderr: stderr}
	return p.run()
}

// ccPlan carries out one compiler command through gopari.
type ccPlan struct {
	o               *ccOptions
	compiler        []string
	line            *ccLine
	stdin           io.Reader
	stdout, stderr  io.Writer
	temps           []string
	includeDir, lib string
	objects         map[int]string  // input index -> object replacing it on the link line
	noMeta          map[bool]string // by language: the compiler, if it ignores metadirectives
	linkObjs        map[int]string  // input index -> its object, when linking
}

func (p *ccPlan) run() error {
	l := p.line
	defer p.cleanup()
	if l.mode == 'E' || l.mode == 'M' {
		return p.passThrough()
	}
	var sources []ccInput
	for _, in := range l.inputs {
		if l.openmp && in.lang != "" && in.path != "-" {
			sources = append(sources, in)
		}
	}
	linking := l.mode == 'l'
	needLib := linking && (p.linkObjects() || l.openmp) // cc_objects.go
	if len(sources) == 0 && !needLib {
		return p.passThrough()
	}
	var err error
	if p.includeDir, p.lib, err = runtimePaths(); err != nil {
		return &exitError{code: 1, msg: "cc: " + err.Error()}
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
		if err := p.compile(src); err != nil {
			if ee, ok := err.(*instrumentError); ok && p.o.fallback {
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
func (p *ccPlan) checkWritable() error {
	if p.o.dry {
		return nil
	}
	f, err := os.CreateTemp(p.outDir(), ".gopari-probe-*")
	if err != nil {
		return failure(fmt.Errorf("cannot write %s: %v", p.userOutput(), atomicfile.Cause(err)))
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

// userOutput names the file the user's command writes, for messages.
func (p *ccPlan) userOutput() string {
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

// passThrough runs the user's command unchanged.
func (p *ccPlan) passThrough() error {
	return p.exec(append(append([]string(nil), p.compiler...), p.line.args...))
}

// outDir is where intermediate files go: beside the output.
func (p *ccPlan) outDir() string {
	if o := p.line.output; o != "" && o != "-" {
		return filepath.Dir(o)
	}
	return "."
}

// objectOf returns the file the compile of src produces: the -o output
// for one source, otherwise its base name with .o (or .s) in the current
// directory, or an intermediate object when linking.
func (p *ccPlan) objectOf(src ccInput) string {
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
func (p *ccPlan) saveTemps() bool {
	for _, a := range p.line.args {
		if a == "-save-temps" || strings.HasPrefix(a, "-save-temps=") {
			return true
		}
	}
	return false
}

func (p *ccPlan) sourceCount() int {
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
func (p *ccPlan) temp(name string) string {
	if p.saveTemps() {
		return filepath.Join(p.outDir(), name)
	}
	path := filepath.Join(p.outDir(), ".gopari-"+name)
	p.temps = append(p.temps, path)
	return path
}

func (p *ccPlan) cleanup() {
	if p.o.keep {
		return
	}
	for i := len(p.temps) - 1; i >= 0; i-- {
		os.Remove(p.temps[i]) // files before the directories that hold them
	}
	p.temps = nil
}

// flags returns the options of the command that a step keeps.
func (p *ccPlan) flags(keep ...flagClass) []string {
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
func (p *ccPlan) depFlags(src ccInput) []string {
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
func (p *ccPlan) link() error {
	argv := append([]string(nil), p.compiler...)
	args := p.line.args
	inputs := make(map[int]ccInput)
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
	argv = append(p.withMPILib(argv), p.lib, "-lpthread")
	return p.exec(argv)
}

// exec runs a command with the user's standard streams; a failure carries
// the command's exit status.
func (p *ccPlan) exec(argv []string) error {
	return execute(argv, p.stdin, p.stdout, p.stderr, p.o)
}

func execute(argv []string, stdin io.Reader, stdout, stderr io.Writer, o *ccOptions) error {
	if o.verbose || o.dry {
		fmt.Fprintln(stderr, shellQuote(argv))
	}
	if o.dry {
		return nil
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, stdout, stderr
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code := ee.ExitCode()
			if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
				code = 128 + int(ws.Signal())
			}
			return &exitError{code: code}
		}
		return &exitError{code: 127, msg: err.Error()}
	}
	return nil
}

// trapSignals lets the compiler handle SIGINT and SIGTERM, which the
// terminal sends to it as well, so that gopari lives to remove its
// intermediate files.
func (p *ccPlan) trapSignals() func() {
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
