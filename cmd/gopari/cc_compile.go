package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"gopari/parser"
	"gopari/rewrite"
)

// The compile of one source through gopari: preprocess, instrument,
// compile the instrumented copy. Every message the user sees names the
// user's files: the compiler's own errors come first when a source does
// not preprocess or parse, and intermediate files never show in the
// compiler's or the linker's messages.

// instrumentError is a failure to instrument a source; diags holds
// gopari's diagnostics, not yet printed.
type instrumentError struct {
	err   error
	diags parser.DiagnosticList
}

func (e *instrumentError) Error() string { return e.err.Error() }

// compile instruments and compiles one source.
func (p *ccPlan) compile(src ccInput) error {
	l := p.line
	obj := p.objectOf(src)
	cpp := src.lang == "c++" || src.lang == "c++-cpp-output"
	stem := p.stem(src, obj)
	modeFlag := "-c"
	if l.mode == 'S' {
		modeFlag = "-S"
	}
	if p.o.raw && (src.lang == "c" || src.lang == "c++") {
		ext := filepath.Ext(src.path)
		inst := p.temp(stem + ".pomp" + ext)
		if err := p.instrument(src.path, src.path, inst, parser.Config{CPlusPlus: cpp}); err != nil {
			return p.instrumentFailed(src, err, nil)
		}
		argv := append(append([]string(nil), p.compiler...), p.flags(keepAll, preprocess)...)
		argv = append(argv, "-isystem", p.includeDir, "-iquote", filepath.Dir(src.path))
		argv = append(argv, p.depFlags(src)...)
		argv = append(argv, "-x", src.lang, inst, "-x", "none", modeFlag, "-o", obj)
		if err := p.exec(argv); err != nil {
			return err
		}
		return p.fixDeps(src, inst)
	}
	pre := src.path
	var preMsgs bytes.Buffer // what the preprocessor said, shown once gopari knows more
	if src.lang == "c" || src.lang == "c++" {
		ext := ".i"
		if cpp {
			ext = ".ii"
		}
		pre = p.temp(stem + ext)
		argv := append(append([]string(nil), p.compiler...), p.flags(keepAll, preprocess)...)
		argv = append(argv, p.depFlags(src)...)
		argv = append(argv, "-E", "-x", src.lang, src.path, "-x", "none", "-o", pre)
		err := execute(argv, p.stdin, p.stdout, &preMsgs, p.o)
		if err != nil {
			p.stderr.Write(preMsgs.Bytes())
			return err
		}
	}
	lang, ext := "cpp-output", ".pomp.i"
	if cpp {
		lang, ext = "c++-cpp-output", ".pomp.ii"
	}
	inst := p.temp(stem + ext)
	if err := p.instrument(pre, src.path, inst, parser.Config{CPlusPlus: cpp, Preprocessed: true}); err != nil {
		return p.instrumentFailed(src, err, preMsgs.Bytes())
	}
	p.stderr.Write(preMsgs.Bytes())
	argv := append(append([]string(nil), p.compiler...), p.flags(keepAll)...)
	argv = append(argv, "-x", lang, inst, "-x", "none", modeFlag, "-o", obj)
	if err := p.exec(argv); err != nil {
		return err
	}
	if l.mode == 'l' {
		p.objects[src.index] = obj
	}
	return nil
}

// stem returns the name the intermediate files of src derive from: the
// object's name, or, when linking, the output's and the source's.
func (p *ccPlan) stem(src ccInput, obj string) string {
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
func (p *ccPlan) instrumentFailed(src ccInput, err error, preMsgs []byte) error {
	ie, ok := err.(*instrumentError)
	if !ok || !ie.diags.HasErrors() || p.o.dry {
		p.stderr.Write(preMsgs)
		return err
	}
	argv := append(append([]string(nil), p.compiler...), p.flags(keepAll, preprocess)...)
	argv = append(argv, "-fsyntax-only", "-x", src.lang, src.path)
	if cerr := p.exec(argv); cerr != nil {
		return cerr
	}
	p.stderr.Write(preMsgs)
	printDiags(p.stderr, ie.diags)
	return err
}

// instrument instruments file in into out, recording name. Its
// diagnostics are printed unless it fails with errors: instrumentFailed
// decides then.
func (p *ccPlan) instrument(in, name, out string, cfg parser.Config) error {
	if p.o.verbose || p.o.dry {
		fmt.Fprintf(p.stderr, "gopari instrument %s -o %s\n", in, out)
	}
	if p.o.dry {
		return nil
	}
	src, err := os.ReadFile(in)
	if err != nil {
		return &instrumentError{err: fmt.Errorf("cannot read %s: %v", name, cause(err, ""))}
	}
	defer pauseGC(int64(len(src)))()
	cfg.IgnoresMetadirective = p.ignoresMetadirective(src, cfg.CPlusPlus)
	opts := p.o.opts
	opts.Name = filepath.ToSlash(filepath.Clean(name))
	res, diags := rewrite.Source(opts.Name, src, cfg, opts)
	if res == nil {
		return &instrumentError{err: errors.New("instrumentation failed"), diags: diags}
	}
	printDiags(p.stderr, diags)
	write := func(w io.Writer) error {
		if cfg.Preprocessed {
			// A first line marker makes the compiler record the user's
			// source as the file compiled: in debug information and in
			// the linker's messages, not the intermediate file.
			if _, err := w.Write(rewrite.LineMarker(0, opts.Name)); err != nil {
				return err
			}
		}
		_, err := res.WriteTo(w)
		return err
	}
	if err := writeAtomic(out, write); err != nil {
		return &instrumentError{err: fmt.Errorf("cannot write the instrumented copy of %s beside %s: %v", name, p.userOutput(), cause(err, ""))}
	}
	return nil
}

// fixDeps makes a dependency file written by a compile of the instrumented
// copy inst name the user's source instead.
func (p *ccPlan) fixDeps(src ccInput, inst string) error {
	if p.line.depMode == "" || p.o.dry {
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
	return writeFileAtomic(file, fixed)
}

// metaProbe is a program whose metadirective a compiler that does not
// implement them warns about (-Wunknown-pragmas).
const metaProbe = "int main(void) {\n#pragma omp metadirective default(parallel)\n{ }\nreturn 0; }\n"

// ignoresMetadirective returns the compiler's name when src holds a
// metadirective and the compiler ignores them (GCC before 13): gopari
// then passes them through, so that the program keeps the meaning the
// compiler gives it. It asks the compiler once per language.
func (p *ccPlan) ignoresMetadirective(src []byte, cplusplus bool) string {
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
	if p.o.verbose {
		fmt.Fprintln(p.stderr, shellQuote(argv), "<<< (does it implement metadirectives?)")
	}
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
