package rewrite

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	omp "gopari/parser"
)

// TestTablesAgree checks the tables that adding a construct touches
// (CONTRIBUTING.md, "Adding a construct") against each other: the
// parser's directive table, rewrite's construct classes, leaves and
// --disable groups, pomp.h (region kinds, flags, the calls), the
// preprocessed copies of pomp.h, the runtime's C files and the
// collector's JSON names. A construct one of them has and another lacks
// fails here, naming both.
func TestTablesAgree(t *testing.T) {
	rt := readRuntime(t)
	t.Run("directives", func(t *testing.T) { checkDirectives(t) })
	t.Run("kinds", func(t *testing.T) { checkKinds(t, rt) })
	t.Run("calls", func(t *testing.T) { checkCalls(t, rt) })
	t.Run("flags", func(t *testing.T) { checkFlags(t, rt) })
	t.Run("groups", func(t *testing.T) { checkGroups(t) })
}

// runtimeText is the runtime's side of the tables, as text.
type runtimeText struct {
	pompH, pompC, pompCXX, collect string
	cFiles                         map[string]string // pomprt/*.c
}

func readRuntime(t *testing.T) *runtimeText {
	t.Helper()
	read := func(path string) string {
		b, err := os.ReadFile(filepath.Join("..", path))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	rt := &runtimeText{
		pompH:   read("pomprt/include/pomp.h"),
		pompC:   read("pomprt/include/pomp_c.i"),
		pompCXX: read("pomprt/include/pomp_cxx.ii"),
		collect: read("pomprt/collect.go"),
		cFiles:  map[string]string{},
	}
	cs, _ := filepath.Glob("../pomprt/*.c")
	for _, c := range cs {
		rt.cFiles[filepath.Base(c)] = read(filepath.Join("pomprt", filepath.Base(c)))
	}
	if len(rt.cFiles) == 0 {
		t.Fatal("no pomprt/*.c files")
	}
	return rt
}

// checkDirectives checks that every directive the parser knows is either
// instrumented by a class of construct.go, split into leaves that are,
// counted as offload, deliberately ignored, or a POMP directive of
// user.go.
func checkDirectives(t *testing.T) {
	for _, d := range omp.Directives() {
		c := d.Class
		switch {
		case d.Pomp:
			if c == omp.ClassUserInit || c == omp.ClassUserOnOff {
				if controlCalls[d.Name] == "" {
					t.Errorf("pomp directive %q has no call in user.go's controlCalls", d.Name)
				}
			} else if c != omp.ClassUserBegin && c != omp.ClassUserEnd {
				t.Errorf("pomp directive %q has class %d, which user.go does not handle", d.Name, c)
			}
		case c == omp.ClassCombined:
			for _, l := range d.Leaves {
				lc, ok := leafClasses[l]
				switch {
				case !ok:
					t.Errorf("combined %q: leaf %q missing from construct.go's leafClasses", d.Name, l)
				case classes[lc].kind == "":
					t.Errorf("combined %q: leaf %q has a class without an entry in construct.go's classes", d.Name, l)
				}
				if leafClauses[l] == nil {
					t.Errorf("combined %q: leaf %q missing from split.go's leafClauses", d.Name, l)
				}
			}
		case c == omp.ClassOffload || ignored[c]:
			if classes[c].kind != "" {
				t.Errorf("%q: class %d is both instrumented and passed over", d.Name, c)
			}
		case classes[c].kind == "":
			t.Errorf("directive %q (class %d) has no entry in construct.go's classes, and is not in ignored", d.Name, c)
		}
	}
	checkClassesReached(t)
}

// checkClassesReached checks the other direction: every class that
// construct.go instruments is the class of a directive in the parser's
// table, or of a leaf of a combined one. A directive dropped from the
// parser's table would otherwise leave its instrumentation unreachable.
func checkClassesReached(t *testing.T) {
	var reached [omp.NumClasses]bool
	for _, d := range omp.Directives() {
		reached[d.Class] = true
		for _, l := range d.Leaves {
			if lc, ok := leafClasses[l]; ok {
				reached[lc] = true
			}
		}
	}
	for c, cl := range classes {
		if cl.kind != "" && !reached[c] {
			t.Errorf("construct.go's classes instruments class %d (kind %q), but no directive in parser/directive.go's table has it", c, cl.kind)
		}
	}
}

// regionKinds returns the region kinds of pomp.h's enum, in order.
func regionKinds(t *testing.T, h string) []string {
	t.Helper()
	m := regexp.MustCompile(`(?s)/\* Region kinds\. \*/\s*enum \{(.*?)\};`).FindStringSubmatch(h)
	if m == nil {
		t.Fatal("pomp.h: no 'Region kinds' enum")
	}
	return regexp.MustCompile(`\bPOMP_[A-Z_]+\b`).FindAllString(m[1], -1)
}

// checkKinds checks that the region kinds agree: every kind rewrite
// writes is in pomp.h's enum, in its preprocessed copies and among the
// collector's JSON names, and every kind of the enum is written by
// rewrite and named by the collector.
func checkKinds(t *testing.T, rt *runtimeText) {
	enum := regionKinds(t, rt.pompH)
	named := map[string]bool{}
	for _, m := range regexp.MustCompile(`C\.(POMP_[A-Z_]+):`).FindAllStringSubmatch(rt.collect, -1) {
		named[m[1]] = true
	}
	written := map[string]bool{}
	for _, c := range classes {
		if c.kind != "" {
			written[c.kind] = true
		}
	}
	for _, s := range literals(t) {
		for _, k := range regexp.MustCompile(`^POMP_[A-Z_]+$`).FindAllString(s, -1) {
			if slices.Contains(enum, k) {
				written[k] = true // POMP_USER, POMP_LOCK in user.go
			}
		}
	}
	// Kinds that a measurement library of the runtime writes itself:
	// libpomp_mpi.a's MPI calls.
	mpi, err := os.ReadFile("../pomprt/mpi/pomp_mpi.c")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range regexp.MustCompile(`\.kind = (POMP_[A-Z_]+);`).FindAllStringSubmatch(string(mpi), -1) {
		written[m[1]] = true
	}
	for k := range written {
		if !slices.Contains(enum, k) {
			t.Errorf("rewrite writes region kind %s; pomp.h's enum lacks it", k)
		}
		for name, text := range map[string]string{"pomp_c.i": rt.pompC, "pomp_cxx.ii": rt.pompCXX} {
			if !word(text, k) {
				t.Errorf("%s lacks region kind %s (go generate ./pomprt/include)", name, k)
			}
		}
	}
	for _, k := range enum {
		if k == "POMP_KIND_COUNT" {
			continue
		}
		if !written[k] {
			t.Errorf("pomp.h's region kind %s is written by no class of construct.go, nor by user.go, nor by pomprt/mpi", k)
		}
		if !named[k] {
			t.Errorf("pomp.h's region kind %s has no JSON name in pomprt/collect.go's kindNames", k)
		}
	}
	for k := range named {
		if !slices.Contains(enum, k) {
			t.Errorf("pomprt/collect.go names kind %s, which pomp.h lacks", k)
		}
	}
}

// cxxOnly are the POMP functions that rewrite writes into C++ only.
var cxxOnly = map[string]bool{"POMP_Chunk_value": true}

// checkCalls checks that every POMP function rewrite writes is declared
// in pomp.h and its preprocessed copies, and that those pomp.h does not
// define inline are defined in one of the runtime's C files.
func checkCalls(t *testing.T, rt *runtimeText) {
	fnRx := regexp.MustCompile(`\bPOMP_[A-Z][a-z]\w*`)
	calls := map[string]bool{}
	for _, c := range classes {
		for _, fn := range []string{c.enter, c.exit, c.begin, c.end, c.cleanup} {
			if fn != "" {
				calls[fn] = true
			}
		}
	}
	for _, s := range literals(t) {
		for _, fn := range fnRx.FindAllString(s, -1) {
			calls[fn] = true
		}
	}
	if len(calls) < 40 {
		t.Fatalf("found only %d POMP functions in rewrite's code", len(calls))
	}
	for fn := range calls {
		if !word(rt.pompH, fn) {
			t.Errorf("rewrite calls %s; pomp.h does not declare it", fn)
			continue
		}
		for name, text := range map[string]string{"pomp_c.i": rt.pompC, "pomp_cxx.ii": rt.pompCXX} {
			if !word(text, fn) && !(name == "pomp_c.i" && cxxOnly[fn]) {
				t.Errorf("%s lacks %s (go generate ./pomprt/include)", name, fn)
			}
		}
		if isType(rt.pompH, fn) || inline(rt.pompH, fn) {
			continue
		}
		defined := false
		for _, src := range rt.cFiles {
			defined = defined || definesC(src, fn)
		}
		if !defined {
			t.Errorf("pomp.h declares %s out of line; no pomprt/*.c file defines it", fn)
		}
	}
}

// checkFlags checks that rewrite's flag names are pomp.h's POMP_FLAG_*
// bits in order, and that the collector names as many.
func checkFlags(t *testing.T, rt *runtimeText) {
	h := regexp.MustCompile(`(POMP_FLAG_[A-Z_]+) = 1 << (\d+)`).FindAllStringSubmatch(rt.pompH, -1)
	if len(h) != len(flagNames) {
		t.Errorf("pomp.h has %d POMP_FLAG_* bits, rewrite's flagNames %d", len(h), len(flagNames))
	}
	for i, m := range h {
		if bit, _ := strconv.Atoi(m[2]); bit != i || i >= len(flagNames) || flagNames[i] != m[1] {
			t.Errorf("pomp.h's bit %s of %s does not match rewrite's flagNames[%d]", m[2], m[1], i)
		}
	}
	m := regexp.MustCompile(`(?s)var flagNames = \[\]string\{(.*?)\}`).FindStringSubmatch(rt.collect)
	if m == nil {
		t.Fatal("pomprt/collect.go: no flagNames")
	}
	if n := len(regexp.MustCompile(`"[a-z_]+"`).FindAllString(m[1], -1)); n != len(flagNames) {
		t.Errorf("pomprt/collect.go names %d flags, rewrite has %d", n, len(flagNames))
	}
}

// checkGroups checks that every class's --disable group exists, names
// itself, and belongs to the group "omp".
func checkGroups(t *testing.T) {
	for c, cl := range classes {
		if cl.kind == "" {
			continue
		}
		g := cl.group
		if !slices.Contains(Groups[g], g) {
			t.Errorf("class %d (%s): --disable group %q missing from options.go's Groups, or not naming itself", c, cl.kind, g)
		}
		if !slices.Contains(Groups["omp"], g) {
			t.Errorf("class %d (%s): group %q missing from the group \"omp\"", c, cl.kind, g)
		}
	}
}

// literals returns the string literals of rewrite's non-test Go files.
func literals(t *testing.T) []string {
	t.Helper()
	files, _ := filepath.Glob("*.go")
	var out []string
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if s, err := strconv.Unquote(lit.Value); err == nil {
					out = append(out, s)
				}
			}
			return true
		})
	}
	return out
}

// word reports whether name occurs in text as a whole word.
func word(text, name string) bool {
	return regexp.MustCompile(`\b` + name + `\b`).MatchString(text)
}

// isType reports whether pomp.h declares name as a type.
func isType(h, name string) bool {
	return regexp.MustCompile(`(typedef [^;]*\b` + name + `;)|(\} ` + name + `;)`).MatchString(h)
}

// inline reports whether pomp.h defines name inline: with POMP_INLINE, or
// through one of its POMP_PAIR_ and POMP_EVENT_ macros.
func inline(h, name string) bool {
	return regexp.MustCompile(`POMP_INLINE [^(;]*\b`+name+`\(`).MatchString(h) ||
		regexp.MustCompile(`(?m)^POMP_(PAIR|EVENT)_\([^)]*\b`+name+`\b`).MatchString(h)
}

// definesC reports whether C source src defines function name: a line
// that starts with its return type and name, whose parameter list is
// followed by a body.
func definesC(src, name string) bool {
	rx := regexp.MustCompile(`(?m)^\w[\w \t\*]*\b` + name + `\s*\(`)
	for _, loc := range rx.FindAllStringIndex(src, -1) {
		depth, i := 0, loc[1]-1
		for ; i < len(src); i++ {
			if src[i] == '(' {
				depth++
			} else if src[i] == ')' {
				if depth--; depth == 0 {
					break
				}
			}
		}
		rest := strings.TrimLeft(src[min(i+1, len(src)):], " \t\r\n")
		if strings.HasPrefix(rest, "{") {
			return true
		}
	}
	return false
}
