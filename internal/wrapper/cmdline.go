package wrapper

import (
	"fmt"
	"os"
	"strings"

	"gopari/rewrite/fortran"
)

// A compiler command line, classified as GCC's driver reads it. Clang
// reads it the same way.
type cmdline struct {
	args   []string // after response-file expansion
	inputs []input
	output string // -o, "" if none
	mode   byte   // 'l' link, 'c' -c, 'S' -S, 'E' -E, 'M' -M/-MM without -E
	openmp bool   // -fopenmp and friends, last one wins
	// Dependency flags: -MD or -MMD, with their -MF, -MT, -MQ, -MP.
	depMode    string // "", "-MD" or "-MMD"
	depFile    string
	depTargets []string // -MT and -MQ arguments, each with its flag: "-MT x"
	depPhony   bool     // -MP
}

// A input is one input file of the command.
type input struct {
	index int // position in args
	path  string
	lang  string // "c", "c++", "cpp-output", "c++-cpp-output", or "" for anything else
	xlang string // the -x in effect, "" if none
	// fortran says that the input is a Fortran source (fortran.go).
	fortran bool
}

// argWithValue lists options whose value may be the next argument.
var argWithValue = map[string]bool{
	"-o": true, "-x": true, "-I": true, "-L": true, "-l": true, "-D": true, "-U": true,
	"-include": true, "-imacros": true, "-isystem": true, "-idirafter": true, "-iprefix": true,
	"-iwithprefix": true, "-iwithprefixbefore": true, "-isysroot": true, "-iquote": true,
	"-imultilib": true, "-MF": true, "-MT": true, "-MQ": true, "-Xlinker": true,
	"-Xassembler": true, "-Xpreprocessor": true, "-Xclang": true, "-aux-info": true, "-T": true,
	"-u": true, "-z": true, "-e": true, "--param": true, "-arch": true, "-target": true,
	"-gcc-toolchain": true, "-dumpbase": true, "-dumpdir": true, "--sysroot": true,
	"-mllvm": true, "-Xopenmp-target": true, "-isystem-after": true, "-B": true,
	"-wrapper": true, "-specs": true, "-G": true,
}

// normLang maps a -x argument to the languages gopari instruments.
func normLang(x string) string {
	switch x {
	case "c", "c++", "cpp-output", "c++-cpp-output":
		return x
	}
	return ""
}

// newInput returns the input file a, at index i of the command line,
// under the -x in effect (xlang) or else by its suffix.
func newInput(i int, a, xlang string) input {
	in := input{index: i, path: a, xlang: xlang}
	if xlang != "" {
		in.lang = normLang(xlang)
		in.fortran = strings.HasPrefix(xlang, "f77") || strings.HasPrefix(xlang, "f95")
	} else if l := LanguageOf(a); !l.Header {
		in.lang = l.Name
		_, _, in.fortran = fortran.FormOf(a)
	}
	return in
}

// parseCC classifies a compiler command line (the arguments after the
// compiler's name).
func parseCC(args []string) (*cmdline, error) {
	expanded, err := expandResponseFiles(args, 0)
	if err != nil {
		return nil, err
	}
	l := &cmdline{args: expanded, mode: 'l'}
	xlang := ""
	sawE, sawM := false, false
	for i := 0; i < len(expanded); i++ {
		a := expanded[i]
		value := func() string {
			if i+1 < len(expanded) {
				i++
				return expanded[i]
			}
			return ""
		}
		switch {
		case a == "-" || !strings.HasPrefix(a, "-"):
			l.inputs = append(l.inputs, newInput(i, a, xlang))
		case a == "-c":
			if l.mode == 'l' {
				l.mode = 'c'
			}
		case a == "-S":
			if l.mode == 'l' || l.mode == 'c' {
				l.mode = 'S'
			}
		case a == "-E":
			sawE = true
		case a == "-M" || a == "-MM":
			sawM = true
		case a == "-MD" || a == "-MMD":
			l.depMode = a
		case a == "-MP":
			l.depPhony = true
		case a == "-MF":
			l.depFile = value()
		case strings.HasPrefix(a, "-MF"):
			l.depFile = a[3:]
		case a == "-MT" || a == "-MQ":
			l.depTargets = append(l.depTargets, a, value())
		case strings.HasPrefix(a, "-MT") || strings.HasPrefix(a, "-MQ"):
			l.depTargets = append(l.depTargets, a[:3], a[3:])
		case a == "-o":
			l.output = value()
		case strings.HasPrefix(a, "-o"):
			l.output = a[2:]
		case a == "-x":
			xlang = value()
			if xlang == "none" {
				xlang = ""
			}
		case strings.HasPrefix(a, "-x"):
			xlang = a[2:]
			if xlang == "none" {
				xlang = ""
			}
		case a == "-fopenmp" || a == "-fiopenmp" || a == "-qopenmp" || a == "-openmp" ||
			strings.HasPrefix(a, "-fopenmp=") || strings.HasPrefix(a, "-qopenmp="):
			l.openmp = true
		case a == "-fno-openmp" || a == "-qno-openmp":
			l.openmp = false
		case argWithValue[a]:
			value()
		}
	}
	switch {
	case sawE:
		l.mode = 'E'
	case sawM:
		l.mode = 'M'
	}
	return l, nil
}

// expandResponseFiles replaces @file arguments with the arguments the
// file holds, as GCC reads them: separated by white space, with single
// and double quotes and backslash escapes. A file that cannot be read
// stays as it is, as GCC leaves it.
func expandResponseFiles(args []string, depth int) ([]string, error) {
	var out []string
	for _, a := range args {
		if !strings.HasPrefix(a, "@") || len(a) == 1 {
			out = append(out, a)
			continue
		}
		b, err := os.ReadFile(a[1:])
		if err != nil {
			out = append(out, a)
			continue
		}
		if depth > 10 {
			return nil, fmt.Errorf("%s: response files nested too deeply", a[1:])
		}
		inner, err := expandResponseFiles(splitResponse(string(b)), depth+1)
		if err != nil {
			return nil, err
		}
		out = append(out, inner...)
	}
	return out, nil
}

// splitResponse splits the text of a response file into arguments.
func splitResponse(s string) []string {
	var out []string
	var cur strings.Builder
	in := false // inside an argument
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' && i+1 < len(s) {
				i++
				cur.WriteByte(s[i])
			} else {
				cur.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote, in = c, true
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			in = true
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if in {
		out = append(out, cur.String())
	}
	return out
}

// flagClass says which steps of an instrumented compile keep an option.
type flagClass int

const (
	keepAll    flagClass = iota
	keepNone             // inputs, -o, -c, -S, -E, -x, dependency options: gopari sets these
	preprocess           // only when preprocessing: -D, -I, -include, ...
	link                 // only when linking: -l, -L, -Wl,...
)

// classify returns the class of option args[i] and how many arguments
// it spans.
func classify(args []string, i int) (flagClass, int) {
	a := args[i]
	two := func(c flagClass) (flagClass, int) {
		if i+1 < len(args) {
			return c, 2
		}
		return c, 1
	}
	switch a {
	case "-o", "-x", "-MF", "-MT", "-MQ":
		return two(keepNone)
	case "-c", "-S", "-E", "-MD", "-MMD", "-MP", "-MG", "-M", "-MM":
		return keepNone, 1
	case "-D", "-U", "-I", "-include", "-imacros", "-isystem", "-idirafter", "-iprefix",
		"-iwithprefix", "-iwithprefixbefore", "-iquote", "-imultilib", "-isystem-after", "-Xpreprocessor":
		return two(preprocess)
	case "-undef", "-nostdinc", "-nostdinc++", "-C", "-CC", "-P", "-H", "-trigraphs", "-traditional-cpp":
		return preprocess, 1
	case "-l", "-L", "-Xlinker", "-T", "-u", "-z", "-e":
		return two(link)
	case "-shared", "-static", "-static-libgcc", "-static-libstdc++", "-rdynamic", "-pie", "-no-pie",
		"-nostdlib", "-nostartfiles", "-nodefaultlibs", "-s":
		return link, 1
	}
	if argWithValue[a] {
		return two(keepAll)
	}
	if a == "-" || !strings.HasPrefix(a, "-") {
		return keepNone, 1
	}
	switch {
	case strings.HasPrefix(a, "-o"), strings.HasPrefix(a, "-x"), strings.HasPrefix(a, "-MF"),
		strings.HasPrefix(a, "-MT"), strings.HasPrefix(a, "-MQ"):
		return keepNone, 1
	case strings.HasPrefix(a, "-D"), strings.HasPrefix(a, "-U"), strings.HasPrefix(a, "-I"), strings.HasPrefix(a, "-Wp,"):
		return preprocess, 1
	case strings.HasPrefix(a, "-l"), strings.HasPrefix(a, "-L"), strings.HasPrefix(a, "-Wl,"):
		return link, 1
	}
	return keepAll, 1
}
