package wrapper

import (
	"bytes"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"gopari/internal/atomicfile"
	"gopari/internal/filter"
	"gopari/internal/symbols"
)

// Clang's compile-time exclusions (gopari cc --functions with clang).
//
// Clang has no option that leaves functions out of
// -finstrument-functions-after-inlining. What it does have is where the
// option lives: the front end marks each function with the attributes
// "instrument-function-entry-inlined" and "instrument-function-exit-
// inlined", and the optimiser's post-inlining pass adds the hook calls
// to the functions that carry them. So the wrapper compiles a source in
// two steps: the front end alone to textual IR (-emit-llvm
// -Xclang -disable-llvm-passes), where excludeInIR takes the attributes
// off the functions the run would leave out, then the IR to the object
// with the user's options, which runs the whole optimiser as one compile
// would. The functions left out are exactly those the run's filter
// leaves out (filter.DefaultExcluded, then the --filter file by
// demangled and mangled name, and by source file where the IR has debug
// information); the run applies the whole filter again, so nothing is
// lost where the IR cannot tell (a file rule without -g).

// instrumentAttrs are the function attributes of -finstrument-functions
// (and its -after-inlining form) in clang's IR.
var instrumentAttrs = []string{
	`"instrument-function-entry-inlined"="__cyg_profile_func_enter"`,
	`"instrument-function-exit-inlined"="__cyg_profile_func_exit"`,
	`"instrument-function-entry"="__cyg_profile_func_enter"`,
	`"instrument-function-exit"="__cyg_profile_func_exit"`,
}

// irFunc is a function definition of an IR module.
type irFunc struct {
	line  int    // its define line
	name  string // mangled
	group string // its attribute group, "#3"; "" for none
	dbg   string // its DISubprogram, "!12"; "" for none
}

// excludeInIR returns the IR module ll with the instrumentation attributes
// taken off the functions that f (nil for none) and the default
// exclusions leave out, and how many functions it left out.
func excludeInIR(ll []byte, f *filter.Filter) ([]byte, int) {
	lines := bytes.Split(ll, []byte("\n"))
	groups := map[string]int{}  // "#3" → its line
	meta := map[string]string{} // "!12" → the line's text after "= "
	var fns []irFunc
	for i, l := range lines {
		switch {
		case bytes.HasPrefix(l, []byte("define ")):
			if fn, ok := parseDefine(string(l)); ok {
				fn.line = i
				fns = append(fns, fn)
			}
		case bytes.HasPrefix(l, []byte("attributes #")):
			if eq := bytes.Index(l, []byte(" = ")); eq > 0 {
				groups[string(l[len("attributes "):eq])] = i
			}
		case bytes.HasPrefix(l, []byte("!")) && f != nil && len(f.Files) > 0:
			if eq := bytes.Index(l, []byte(" = ")); eq > 0 {
				meta[string(l[:eq])] = string(l[eq+3:])
			}
		}
	}
	next := 0
	for g := range groups {
		if n, err := strconv.Atoi(g[1:]); err == nil && n >= next {
			next = n + 1
		}
	}
	bare := map[string]string{} // an instrumented group → its copy without the attributes
	var added []string
	n := 0
	for _, fn := range fns {
		gl, ok := groups[fn.group]
		if !ok || !asksHooks(lines[gl]) || measured(fn, f, meta) {
			continue
		}
		g, ok := bare[fn.group]
		if !ok {
			g = "#" + strconv.Itoa(next)
			next++
			bare[fn.group] = g
			text := string(lines[gl])
			for _, a := range instrumentAttrs {
				text = strings.Replace(text, " "+a, "", 1)
			}
			added = append(added, "attributes "+g+text[len("attributes ")+len(fn.group):])
		}
		lines[fn.line] = []byte(replaceGroup(string(lines[fn.line]), fn.group, g))
		n++
	}
	if n == 0 {
		return ll, 0
	}
	out := bytes.Join(lines, []byte("\n"))
	for _, a := range added {
		out = append(append(out, a...), '\n')
	}
	return out, n
}

// asksHooks reports whether an attribute group's line asks for the
// hooks.
func asksHooks(group []byte) bool {
	for _, a := range instrumentAttrs {
		if bytes.Contains(group, []byte(a)) {
			return true
		}
	}
	return false
}

// measured reports whether the run would measure fn.
func measured(fn irFunc, f *filter.Filter, meta map[string]string) bool {
	name := symbols.Demangle(fn.name)
	if filter.DefaultExcluded(name) || filter.DefaultExcluded(fn.name) {
		return false
	}
	return f.Function(name, fn.name, irFile(fn.dbg, meta))
}

// parseDefine reads a define line: the function's name, its attribute
// group (the "#N" after the parameter list) and its !dbg.
func parseDefine(l string) (irFunc, bool) {
	at := strings.Index(l, " @")
	if at < 0 {
		return irFunc{}, false
	}
	rest := l[at+2:]
	var fn irFunc
	if strings.HasPrefix(rest, `"`) {
		end := strings.Index(rest[1:], `"`)
		if end < 0 {
			return irFunc{}, false
		}
		fn.name, rest = unescapeIR(rest[1:1+end]), rest[2+end:]
	} else {
		end := strings.IndexByte(rest, '(')
		if end < 0 {
			return irFunc{}, false
		}
		fn.name, rest = rest[:end], rest[end:]
	}
	// The parameter list: parentheses nest (function pointer types).
	depth, end := 0, -1
	for i := 0; i < len(rest) && end < 0; i++ {
		switch rest[i] {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				end = i
			}
		}
	}
	if end < 0 {
		return irFunc{}, false
	}
	rest = rest[end+1:]
	if k := strings.IndexByte(rest, '{'); k >= 0 {
		rest = rest[:k]
	}
	for _, w := range strings.Fields(rest) {
		if strings.HasPrefix(w, "#") {
			fn.group = w
			break
		}
	}
	if k := strings.Index(rest, "!dbg "); k >= 0 {
		if w := strings.Fields(rest[k+len("!dbg "):]); len(w) > 0 {
			fn.dbg = w[0]
		}
	}
	return fn, true
}

// unescapeIR undoes IR's \XX escapes of a quoted name.
func unescapeIR(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+2 < len(s) {
			if v, err := strconv.ParseUint(s[i+1:i+3], 16, 8); err == nil {
				b.WriteByte(byte(v))
				i += 2
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// replaceGroup replaces the attribute group old by new in a define line:
// the first " #N " (or " #N" at the end) after the parameter list.
func replaceGroup(l, old, new string) string {
	for _, sep := range []string{" " + old + " ", " " + old + "\n"} {
		if i := strings.Index(l, sep); i >= 0 {
			return l[:i] + " " + new + sep[len(old)+1:] + l[i+len(sep):]
		}
	}
	if strings.HasSuffix(l, " "+old) {
		return strings.TrimSuffix(l, old) + new
	}
	return l
}

// irFile returns the source file of the DISubprogram dbg, from the
// module's metadata meta ("" when unknown).
func irFile(dbg string, meta map[string]string) string {
	sp, ok := meta[dbg]
	if !ok {
		return ""
	}
	ref := field(sp, "file: ")
	fl, ok := meta[ref]
	if !ok {
		return ""
	}
	name, dir := quoted(fl, "filename: "), quoted(fl, "directory: ")
	if name == "" || path.IsAbs(name) || dir == "" {
		return name
	}
	return path.Join(dir, name)
}

// field returns the value of key in a metadata node's text, up to the
// next comma or parenthesis.
func field(s, key string) string {
	i := strings.Index(s, key)
	if i < 0 {
		return ""
	}
	v := s[i+len(key):]
	if j := strings.IndexAny(v, ",)"); j >= 0 {
		v = v[:j]
	}
	return v
}

// quoted returns the quoted string value of key in a metadata node.
func quoted(s, key string) string {
	i := strings.Index(s, key+`"`)
	if i < 0 {
		return ""
	}
	v := s[i+len(key)+1:]
	j := strings.IndexByte(v, '"')
	if j < 0 {
		return ""
	}
	return unescapeIR(v[:j])
}

// clangFunctionsFlag is clang's function instrumentation (FunctionCFlags).
const clangFunctionsFlag = "-finstrument-functions-after-inlining"

// compileSource runs argv, the compile of one source of language lang
// into obj, which ends in the mode option, "-o" and obj, with the flags of
// --functions. With clang it compiles in two steps through IR
// (excludeInIR), unless the command asks for something the steps would
// change (irSteps).
func (p *plan) compileSource(argv []string, lang, obj string) error {
	full := p.withFunctionFlags(argv, lang)
	if fl := p.functionFlags(lang); len(fl) == 0 || fl[0] != clangFunctionsFlag || !irSteps(p.line.args) {
		return p.exec(full)
	}
	ll := p.temp(filepath.Base(obj) + ".fn.ll")
	front := append(append([]string(nil), full[:len(full)-3]...), "-S", "-emit-llvm", "-Xclang", "-disable-llvm-passes", "-o", ll)
	if err := p.exec(front); err != nil {
		return err
	}
	if !p.o.DryRun {
		b, err := os.ReadFile(ll)
		if err != nil {
			return err
		}
		if out, n := excludeInIR(b, p.o.Filter); n > 0 {
			if err := os.WriteFile(ll, out, 0o666); err != nil {
				return fmt.Errorf("cannot write beside %s: %v", p.userOutput(), atomicfile.Cause(err))
			}
		}
	}
	// The second step runs the post-inlining pass only when asked; it
	// adds hooks to the functions whose attributes ask for them.
	back := append(append([]string(nil), p.compiler...), clangFunctionsFlag)
	back = append(append(back, p.flags(keepAll)...), "-Wno-unused-command-line-argument", "-x", "ir", ll, "-x", "none", p.modeFlag(), "-o", obj)
	return p.exec(back)
}

// irSteps reports whether a compile with the user's options args can go
// through IR in two steps and give what one compile gives: not when the
// user asks for IR, bitcode or the compiler's temporaries, offloading,
// or passes options to the front end that the second step would see too.
func irSteps(args []string) bool {
	for _, a := range args {
		switch {
		case a == "-emit-llvm", a == "-Xclang", a == "-fsyntax-only", a == "-###",
			strings.HasPrefix(a, "-flto"), strings.HasPrefix(a, "-save-temps"),
			strings.HasPrefix(a, "-fembed-bitcode"), strings.HasPrefix(a, "-fopenmp-targets"),
			strings.HasPrefix(a, "--offload"), strings.HasPrefix(a, "-fsave-optimization-record"):
			return false
		}
	}
	return true
}

// clangSteps reports whether a command that gopari passes through
// compiles its sources with clang's steps through IR: a compile (-c or
// -S, no link) of C and C++ sources only, under --functions with clang.
func (p *plan) clangSteps() bool {
	if m := p.line.mode; (m != 'c' && m != 'S') || !irSteps(p.line.args) || len(p.line.inputs) == 0 {
		return false
	}
	for _, in := range p.line.inputs {
		if in.lang == "" || in.path == "-" {
			return false
		}
	}
	fl := p.functionFlags(p.sourceLangs()...)
	return len(fl) > 0 && fl[0] == clangFunctionsFlag
}

// compileEach compiles the sources of a command that gopari passes
// through one at a time, each through compileSource, as the command
// would: the same options, objects and dependency files.
func (p *plan) compileEach() error {
	for _, src := range p.line.inputs {
		argv := append(append([]string(nil), p.compiler...), p.flags(keepAll, preprocess)...)
		argv = append(argv, p.depFlags(src)...)
		argv = append(argv, "-x", src.lang, src.path, "-x", "none", p.modeFlag(), "-o", p.objectOf(src))
		if err := p.compileSource(argv, langOf(src), p.objectOf(src)); err != nil {
			return err
		}
	}
	return nil
}
