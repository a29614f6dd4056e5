package wrapper

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"gopari/internal/atomicfile"
	"gopari/parser"
	"gopari/rewrite"
)

// The compile of one source through gopari: preprocess, instrument,
// compile. Every message the user sees names the user's files: the
// compiler's own errors come first when a source does not preprocess or
// parse, and intermediate files never show in the compiler's or the
// linker's messages.
//
// What the compiler compiles decides what its messages say. A source
// that instrumentation leaves as it is is compiled as the user wrote it,
// so every message is the compiler's own. A source whose text gopari can
// instrument to the same constructs as its preprocessed form (no
// directive comes from a macro or a header, no macro hides the shape of
// a block) is compiled from its instrumented text, macros unexpanded:
// the compiler then reports macro expansions as it would, and every line
// and column of the user's code is its own (rewrite/columns.go). Only the
// others are compiled from the instrumented preprocessed text, whose
// lines are the user's but whose macros are expanded, as the compiler's
// own -save-temps builds are.

// instrumentError is a failure to instrument a source; diags holds
// gopari's diagnostics, not yet printed.
type instrumentError struct {
	err   error
	diags parser.DiagnosticList
}

func (e *instrumentError) Error() string { return e.err.Error() }

// compile instruments and compiles one source.
func (p *plan) compile(src input) error {
	l := p.line
	obj := p.objectOf(src)
	cpp := src.lang == "c++" || src.lang == "c++-cpp-output"
	stem := p.stem(src, obj)
	text := src.lang == "c" || src.lang == "c++" // not preprocessed yet
	if p.o.Raw && text {
		res, err := p.instrument(src.path, src.path, parser.Config{CPlusPlus: cpp})
		if err != nil {
			return p.instrumentFailed(src, err, nil)
		}
		return p.compileText(src, res, stem, obj, true)
	}
	pre := src.path
	var preMsgs bytes.Buffer // what the preprocessor said, shown once gopari knows more
	if text {
		ext := ".i"
		if cpp {
			ext = ".ii"
		}
		pre = p.temp(stem + ext)
		argv := append(append([]string(nil), p.compiler...), p.flags(keepAll, preprocess)...)
		argv = append(argv, p.depFlags(src)...)
		argv = append(argv, "-E", "-x", src.lang, src.path, "-x", "none", "-o", pre)
		if err := p.command(argv, &preMsgs); err != nil {
			p.stderr.Write(preMsgs.Bytes())
			return err
		}
	}
	lang, ext := "cpp-output", ".pomp.i"
	if cpp {
		lang, ext = "c++-cpp-output", ".pomp.ii"
	}
	res, err := p.instrument(pre, src.path, parser.Config{CPlusPlus: cpp, Preprocessed: true})
	if err != nil {
		return p.instrumentFailed(src, err, preMsgs.Bytes())
	}
	if text && res.Result != nil && !p.saveTemps() {
		// The compile preprocesses the source again and says again what
		// preprocessing said.
		if !res.Changed() {
			p.o.PrintDiags(p.stderr, res.diags)
			return p.compileAsWritten(src, obj)
		}
		if res.kind != "" {
			if raw := p.sameInText(src, res, cpp); raw != nil {
				return p.compileText(src, raw, stem, obj, false)
			}
		}
	}
	p.stderr.Write(preMsgs.Bytes())
	if text && res.Result != nil && !p.saveTemps() {
		// The compiler's columns are the user's on the lines that
		// preprocessing only respaced (the compiler's own -save-temps
		// builds see them respaced).
		res = p.respaced(pre, src.path, cpp, res)
	}
	inst := p.temp(stem + ext)
	if err := p.write(res, src.path, inst, true); err != nil {
		return err
	}
	argv := append(append([]string(nil), p.compiler...), p.flags(keepAll)...)
	argv = append(argv, "-x", lang, inst, "-x", "none", p.modeFlag(), "-o", obj)
	if err := p.compileSource(argv, langOf(src), obj); err != nil {
		return err
	}
	if l.mode == 'l' {
		p.objects[src.index] = obj
	}
	return nil
}

// respaced instruments the preprocessed source pre again with the lines
// that preprocessing only respaced as the user wrote them
// (parser.Respace), or returns res when there are none.
func (p *plan) respaced(pre, name string, cpp bool, res *instrumented) *instrumented {
	b, err := os.ReadFile(pre)
	if err != nil || len(b) == 0 {
		return res
	}
	nb := parser.Respace(b, func(file string) ([]byte, bool) {
		src, err := os.ReadFile(file)
		return src, err == nil
	})
	if &nb[0] == &b[0] {
		return res
	}
	again, err := p.instrumentBytes(nb, pre, name, parser.Config{CPlusPlus: cpp, Preprocessed: true})
	if err != nil {
		return res // never worse than without respacing
	}
	again.kind = res.kind
	return again
}

// modeFlag is the option that makes the compiler stop at an object, or
// at assembly for -S.
func (p *plan) modeFlag() string {
	if p.line.mode == 'S' {
		return "-S"
	}
	return "-c"
}

// compileAsWritten compiles a source that instrumentation does not
// change as the user wrote it: the compiler sees the user's file.
func (p *plan) compileAsWritten(src input, obj string) error {
	argv := append(append([]string(nil), p.compiler...), p.flags(keepAll, preprocess)...)
	argv = append(argv, "-x", src.lang, src.path, "-x", "none", p.modeFlag(), "-o", obj)
	if err := p.compileSource(argv, langOf(src), obj); err != nil {
		return err
	}
	if p.line.mode == 'l' {
		p.objects[src.index] = obj
	}
	return nil
}

// compileText compiles the instrumented text of a source (not
// preprocessed) so that the compiler sees it as the source: its messages,
// and the object's records of the file compiled (its file symbol, which
// the linker's messages show, and its debug information), name the
// source, and #include "..." finds the same headers under the same
// names. How depends on the compiler, which preprocessing revealed
// (compilerKind):
//
//   - clang reads the copy in place of the source through a virtual file
//     system overlay (-ivfsoverlay), unless a launcher such as ccache
//     runs it, which would not cache such a compile;
//   - otherwise the copy lies in the source's directory, named after the
//     output, when the output goes there too, so that its headers are
//     found as the source's are; elsewhere it has the source's name in a
//     directory of its own, and -iquote names the source's directory
//     first. GCC (11 or later) records the source's name through
//     -ffile-prefix-map; clang under a launcher, and any compiler with
//     --raw (which does not preprocess, and so does not know it), record
//     it in debug information (-fdebug-prefix-map) and may leave the
//     copy's name in the file symbol.
//
// deps adds the dependency options (--raw: otherwise preprocessing wrote
// the dependency file).
func (p *plan) compileText(src input, res *instrumented, stem, obj string, deps bool) error {
	argv := append([]string(nil), p.compiler...)
	in := src.path
	var inst string
	if res.kind == "clang" && len(p.compiler) == 1 {
		inst = p.temp(stem + ".pomp" + filepath.Ext(src.path))
		overlay, err := p.overlay(src, inst, stem)
		if err != nil {
			return err
		}
		argv = append(argv, p.flags(keepAll, preprocess)...)
		argv = append(argv, "-ivfsoverlay", overlay)
	} else {
		base := filepath.Base(src.path)
		prefix := strings.TrimSuffix(src.path, base) // the source's directory as the user wrote it
		name := stem + ".pomp" + filepath.Ext(src.path)
		switch {
		case p.sameDir(filepath.Dir(src.path), p.outDir()) && p.saveTemps():
			inst = prefix + name
		case p.sameDir(filepath.Dir(src.path), p.outDir()):
			inst = prefix + ".gopari-" + name
			p.temps = append(p.temps, inst)
		case prefix == "" && !p.saveTemps() && p.canWrite("."):
			// A source named without a directory finds its headers
			// under bare names, which only a file in the current
			// directory shares; the output's directory in the name
			// keeps builds of one source into several outputs apart.
			h := fnv.New32a()
			abs, _ := filepath.Abs(p.outDir())
			h.Write([]byte(abs))
			inst = fmt.Sprintf(".gopari-%s-%08x.pomp%s", stem, h.Sum32(), filepath.Ext(src.path))
			p.temps = append(p.temps, inst)
		default:
			dir := p.temp(stem + ".pomp")
			if !p.o.DryRun {
				if err := os.Mkdir(dir, 0o777); err != nil && !os.IsExist(err) {
					return &instrumentError{err: fmt.Errorf("cannot write the instrumented copy of %s beside %s: %v", src.path, p.userOutput(), atomicfile.Cause(err))}
				}
			}
			inst = filepath.Join(dir, base)
			p.temps = append(p.temps, inst)
			argv = append(argv, "-iquote", filepath.Dir(src.path))
		}
		argv = append(argv, p.flags(keepAll, preprocess)...)
		switch {
		case res.kind == "gcc":
			argv = append(argv, "-ffile-prefix-map="+inst+"="+src.path)
		case p.debugInfo():
			argv = append(argv, "-fdebug-prefix-map="+inst+"="+src.path)
		}
		in = inst
	}
	if err := p.write(res, src.path, inst, false); err != nil {
		return err
	}
	argv = append(argv, "-isystem", p.includeDir)
	if deps {
		argv = append(argv, p.depFlags(src)...)
	}
	argv = append(argv, "-x", src.lang, in, "-x", "none", p.modeFlag(), "-o", obj)
	if err := p.compileSource(argv, langOf(src), obj); err != nil {
		return err
	}
	if p.line.mode == 'l' {
		p.objects[src.index] = obj
	}
	if deps && in != src.path {
		return p.fixDeps(src, inst)
	}
	return nil
}

// overlay writes the virtual file system overlay that shows clang the
// instrumented copy inst under the source's name, and returns its path.
func (p *plan) overlay(src input, inst, stem string) (string, error) {
	path := p.temp(stem + ".vfs.yaml")
	if p.o.DryRun {
		return path, nil
	}
	dir, err1 := filepath.Abs(filepath.Dir(src.path))
	copyPath, err2 := filepath.Abs(inst)
	if err := errors.Join(err1, err2); err != nil {
		return "", err
	}
	type entry struct {
		Name     string  `json:"name"`
		Type     string  `json:"type"`
		External string  `json:"external-contents,omitempty"`
		Contents []entry `json:"contents,omitempty"`
	}
	doc, _ := json.Marshal(struct {
		Version  int     `json:"version"`
		External bool    `json:"use-external-names"`
		Roots    []entry `json:"roots"`
	}{0, false, []entry{{Name: dir, Type: "directory", Contents: []entry{{Name: filepath.Base(src.path), Type: "file", External: copyPath}}}}})
	if err := atomicfile.WriteFile(path, append(doc, '\n')); err != nil {
		return "", &instrumentError{err: fmt.Errorf("cannot write beside %s: %v", p.userOutput(), atomicfile.Cause(err))}
	}
	return path, nil
}

// canWrite reports whether files can be made in directory dir.
func (p *plan) canWrite(dir string) bool {
	if p.o.DryRun {
		return true
	}
	f, err := os.CreateTemp(dir, ".gopari-probe-*")
	if err != nil {
		return false
	}
	f.Close()
	os.Remove(f.Name())
	return true
}

// sameDir reports whether directories a and b are one.
func (p *plan) sameDir(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}

// debugInfo reports whether the command asks for debug information.
func (p *plan) debugInfo() bool {
	for _, a := range p.line.args {
		if strings.HasPrefix(a, "-g") && a != "-g0" {
			return true
		}
	}
	return false
}

// compilerKind tells the compiler from the line markers at the top of
// its preprocessed output: "gcc" for GCC 11 or later, which numbers
// the first lines 0, "clang", or "" for another.
func compilerKind(pre []byte) string {
	head := pre[:min(len(pre), 4096)]
	switch {
	case bytes.HasPrefix(head, []byte("# 0 \"")) && bytes.Contains(head, []byte("\n# 0 \"<command-line>\"\n")):
		return "gcc"
	case bytes.Contains(head, []byte("\n# 1 \"<command line>\" 1\n")):
		return "clang"
	}
	return ""
}

// sameInText instruments the text of src, as written, and returns it if
// it has the same outline as res, the instrumentation of its
// preprocessed form: every construct, lock call and user region
// instrumented, in the same files and lines, with the same clauses and
// the same code. It returns nil otherwise: a directive that comes from a
// macro or a header, a construct behind a conditional that preprocessing
// removed, a macro that hides a brace or a loop's shape.
func (p *plan) sameInText(src input, res *instrumented, cpp bool) *instrumented {
	b, err := os.ReadFile(src.path)
	if err != nil {
		return nil
	}
	cfg := parser.Config{CPlusPlus: cpp, IgnoresMetadirective: p.ignoresMetadirective(b, cpp)}
	raw, _ := rewrite.Source(src.path, b, cfg, p.optsFor(src.path))
	if raw == nil || raw.Outline() != res.Outline() {
		if p.o.Verbose {
			fmt.Fprintf(p.stderr, "gopari: %s: instrumenting the preprocessed source (its text does not show every construct as preprocessing does)\n", src.path)
		}
		return nil
	}
	// gopari's diagnostics are those about the preprocessed form, which
	// name the same lines; write prints them after its step.
	return &instrumented{Result: raw, in: src.path, diags: res.diags, kind: res.kind}
}

// stem returns the name the intermediate files of src derive from: the
// object's name, or, when linking, the output's and the source's.
func (p *plan) stem(src input, obj string) string {
	stem := filepath.Base(obj)
	if p.line.mode == 'l' {
		stem = strings.TrimPrefix(stem, ".gopari-")
	}
	if p.saveTemps() {
		// the names gcc -save-temps gives: prog-ok.i, or ok.i for -c
		stem = strings.TrimSuffix(stem, filepath.Ext(stem))
	}
	return stem
}

// instrumentFailed reports a source that gopari could not instrument.
// When gopari found errors in it, the compiler checks the source first:
// if the compiler rejects it too (a broken header, a macro that leaves a
// string open), its own errors, at their own files and lines, are all the
// user sees, with its exit status. preMsgs is what preprocessing printed.
func (p *plan) instrumentFailed(src input, err error, preMsgs []byte) error {
	ie, ok := err.(*instrumentError)
	if !ok || !ie.diags.HasErrors() || p.o.DryRun {
		p.stderr.Write(preMsgs)
		return err
	}
	argv := append(append([]string(nil), p.compiler...), p.flags(keepAll, preprocess)...)
	argv = append(argv, "-fsyntax-only", "-x", src.lang, src.path)
	if cerr := p.exec(argv); cerr != nil {
		return cerr
	}
	p.stderr.Write(preMsgs)
	p.o.PrintDiags(p.stderr, ie.diags)
	return err
}

// An instrumented source: the file it was made from, the result (nil
// for --dry-run), gopari's diagnostics about it and, for preprocessed
// input, the compiler that preprocessed it (compilerKind).
type instrumented struct {
	*rewrite.Result
	in    string
	diags parser.DiagnosticList
	kind  string
}

// optsFor returns the instrumentation options for a source named name.
// #line directives and the region table name it as the user did, as
// the compiler does in its messages and in __FILE__.
func (p *plan) optsFor(name string) rewrite.Options {
	opts := p.o.Rewrite
	opts.Name = name
	return opts
}

// instrument instruments file in, the source name or its preprocessed
// form. Its diagnostics are not printed yet (write prints them).
func (p *plan) instrument(in, name string, cfg parser.Config) (*instrumented, error) {
	if p.o.DryRun {
		return &instrumented{in: in}, nil
	}
	src, err := os.ReadFile(in)
	if err != nil {
		return nil, &instrumentError{err: fmt.Errorf("cannot read %s: %v", name, atomicfile.Cause(err))}
	}
	return p.instrumentBytes(src, in, name, cfg)
}

// instrumentBytes is instrument for the bytes src of file in.
func (p *plan) instrumentBytes(src []byte, in, name string, cfg parser.Config) (*instrumented, error) {
	if p.o.PauseGC != nil {
		defer p.o.PauseGC(int64(len(src)))()
	}
	cfg.IgnoresMetadirective = p.ignoresMetadirective(src, cfg.CPlusPlus)
	res, diags := rewrite.Source(name, src, cfg, p.optsFor(name))
	if res == nil {
		return nil, &instrumentError{err: errors.New("instrumentation failed"), diags: diags}
	}
	out := &instrumented{Result: res, in: in, diags: diags}
	if cfg.Preprocessed {
		out.kind = compilerKind(src)
	}
	return out, nil
}

// write prints gopari's diagnostics about res and writes it to out. The
// preprocessed form starts with a line marker naming the source, so that
// the compiler records the user's source as the file compiled: in debug
// information and in the linker's messages, not the intermediate file.
func (p *plan) write(res *instrumented, name, out string, preprocessed bool) error {
	p.step("gopari instrument " + res.in + " -o " + out)
	if res.Result == nil { // --dry-run
		return nil
	}
	p.o.PrintDiags(p.stderr, res.diags)
	write := func(w io.Writer) error {
		if preprocessed {
			if _, err := w.Write(rewrite.LineMarker(0, name)); err != nil {
				return err
			}
		}
		_, err := res.WriteTo(w)
		return err
	}
	if err := atomicfile.Write(out, write); err != nil {
		return &instrumentError{err: fmt.Errorf("cannot write the instrumented copy of %s beside %s: %v", name, p.userOutput(), atomicfile.Cause(err))}
	}
	return nil
}

// fixDeps makes a dependency file written by a compile of the instrumented
// copy inst name the user's source instead.
func (p *plan) fixDeps(src input, inst string) error {
	if p.line.depMode == "" || p.o.DryRun {
		return nil
	}
	file := p.depFlags(src)[2]
	b, err := os.ReadFile(file)
	if err != nil {
		return nil // the compiler wrote none; nothing to fix
	}
	fixed := bytes.ReplaceAll(b, []byte(inst), []byte(src.path))
	if bytes.Equal(fixed, b) {
		return nil
	}
	return atomicfile.WriteFile(file, fixed)
}

// metaProbe is a program whose metadirective a compiler that does not
// implement them warns about (-Wunknown-pragmas).
const metaProbe = "int main(void) {\n#pragma omp metadirective default(parallel)\n{ }\nreturn 0; }\n"

// ignoresMetadirective returns the compiler's name when src holds a
// metadirective and the compiler ignores them (GCC before 13): gopari
// then passes them through, so that the program keeps the meaning the
// compiler gives it. It asks the compiler once per language.
func (p *plan) ignoresMetadirective(src []byte, cplusplus bool) string {
	if !bytes.Contains(src, []byte("metadirective")) {
		return ""
	}
	if who, ok := p.noMeta[cplusplus]; ok {
		return who
	}
	lang := "c"
	if cplusplus {
		lang = "c++"
	}
	argv := append(append([]string(nil), p.compiler...), p.flags(keepAll, preprocess)...)
	argv = append(argv, "-fsyntax-only", "-Werror=unknown-pragmas", "-x", lang, "-")
	p.step(shellQuote(argv) + " <<< (does it implement metadirectives?)")
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin = strings.NewReader(metaProbe)
	who := ""
	if cmd.Run() != nil {
		who = filepath.Base(p.compiler[len(p.compiler)-1])
	}
	if p.noMeta == nil {
		p.noMeta = make(map[bool]string)
	}
	p.noMeta[cplusplus] = who
	return who
}

// writeFile writes data to name atomically.
func (p *plan) writeFile(name string, data []byte) error {
	return atomicfile.Write(name, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}
