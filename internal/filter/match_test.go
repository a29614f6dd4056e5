package filter

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// matchCases are patterns and names with fnmatch(3)'s answer (flags 0).
var matchCases = []struct {
	pattern, s string
	want       bool
}{
	{"*", "", true},
	{"*", "a/b.c", true}, // '*' crosses '/'
	{"?", "/", true},
	{"*.c", ".c", true}, // and a leading '.'
	{"main", "main", true},
	{"main", "main2", false},
	{"ma?n", "main", true},
	{"ma?n", "man", false},
	{"*get*", "Mesh::getX() const", true},
	{"a*b*c", "aXbYbZc", true},
	{"a*b*c", "aXbYbZ", false},
	{"*a*a*a*b", "aaaaaaaaaaaaaaaaaaaaaaaaaaaa", false},
	{"[abc]x", "bx", true},
	{"[!abc]x", "bx", false},
	{"[^abc]x", "dx", true},
	{"[a-c]", "b", true},
	{"[a-c]", "d", false},
	{"[]a]", "]", true},
	{"[!]a]", "]", false},
	{"[a-]", "-", true},
	{"[[:digit:]]x", "7x", true},
	{"[[:alpha:]_]*", "_init", true},
	{"[[:upper:]]", "a", false},
	{"[[:nope:]]", "a", false},
	{"operator[]", "operator[]", true}, // '[' without ']' is itself
	{"a[", "a[", true},
	{"a[b", "a[b", true},
	{`\*`, "*", true},
	{`\*`, "x", false},
	{`a\ b`, "a b", true},
	{`\`, `\`, false}, // a final backslash matches nothing
	{`a\`, `a\`, false},
	{`[\]]`, "]", true},
	{`[\\]`, `\`, true},
	{"[a-\\z]", "m", true},
	{"", "", true},
	{"", "a", false},
	{"*x", "yyyyx", true},
	{"x*", "x", true},
	{"é*", "éclair", true},
}

func TestMatch(t *testing.T) {
	t.Parallel()
	for _, c := range matchCases {
		if got := Match(c.pattern, c.s); got != c.want {
			t.Errorf("Match(%q, %q) = %v, want %v", c.pattern, c.s, got, c.want)
		}
	}
}

// fnmatchProgram answers, for each line "pattern\tname" on its input,
// with 1 or 0: what the C library's fnmatch says.
const fnmatchProgram = `#include <fnmatch.h>
#include <stdio.h>
#include <string.h>
int main(void) {
	char line[4096];
	while (fgets(line, sizeof line, stdin)) {
		line[strcspn(line, "\n")] = 0;
		char *tab = strchr(line, '\t');
		if (!tab) return 2;
		*tab = 0;
		printf("%d\n", fnmatch(line, tab + 1, 0) == 0);
	}
	return 0;
}
`

// TestMatchFnmatch checks Match against the C library's fnmatch on the
// cases above and on every pattern of this package's tests' filters.
func TestMatchFnmatch(t *testing.T) {
	t.Parallel()
	cc, err := exec.LookPath("cc")
	if err != nil {
		t.Skip("no C compiler")
	}
	dir := t.TempDir()
	src, prog := filepath.Join(dir, "fnmatch.c"), filepath.Join(dir, "fnmatch")
	if err := os.WriteFile(src, []byte(fnmatchProgram), 0o666); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(cc, src, "-o", prog).CombinedOutput(); err != nil {
		t.Fatalf("cc: %v\n%s", err, out)
	}
	type pair struct{ p, s string }
	var pairs []pair
	names := []string{"", "a", "main", "a/b.c", "operator[]", "]", "-", `\`, "a b", "*", "7x", "ns::f(int)", "aXbYbZc"}
	for _, c := range matchCases {
		pairs = append(pairs, pair{c.pattern, c.s})
		for _, n := range names {
			pairs = append(pairs, pair{c.pattern, n})
		}
	}
	var in strings.Builder
	for _, p := range pairs {
		in.WriteString(p.p + "\t" + p.s + "\n")
	}
	cmd := exec.Command(prog)
	cmd.Stdin = strings.NewReader(in.String())
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for _, p := range pairs {
		if !sc.Scan() {
			t.Fatal("fnmatch program answered too little")
		}
		if want := sc.Text() == "1"; Match(p.p, p.s) != want {
			t.Errorf("Match(%q, %q) = %v, fnmatch says %v", p.p, p.s, !want, want)
		}
	}
}

// FuzzParse: Parse never panics; what it reads, WriteTo writes back so
// that Parse reads the same rules; deciding a function never panics.
func FuzzParse(f *testing.F) {
	f.Add([]byte(scorepTestFilter), "main", "filter_test.c")
	f.Add([]byte("SCOREP_REGION_NAMES_BEGIN\n EXCLUDE MANGLED _Z* [!a-c]\\ x\\#\r\n INCLUDE operator[]\nSCOREP_REGION_NAMES_END\n"), "_Zfoo", "")
	f.Add([]byte("SCOREP_FILE_NAMES_BEGIN EXCLUDE *[[:alpha:]]* SCOREP_FILE_NAMES_END"), "f", "a.c")
	f.Fuzz(func(t *testing.T, src []byte, name, file string) {
		flt, err := Parse("fuzz", src)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		flt.Function(name, name, file)
		flt.CompilerExclusions()
		var b strings.Builder
		if _, err := flt.WriteTo(&b); err != nil {
			t.Fatalf("WriteTo: %v", err)
		}
		again, err := Parse("again", []byte(b.String()))
		if err != nil {
			t.Fatalf("written filter does not parse: %v\n%s", err, b.String())
		}
		if !sameRules(flt, again) {
			t.Fatalf("written filter reads back differently:\n%s", b.String())
		}
		if q := Quote(name); name != "" && !strings.ContainsAny(name, "\n\x00") && !Match(q, name) {
			t.Fatalf("Quote(%q) = %q does not match it", name, q)
		}
	})
}

// TestMatchLiterals checks Match's shortcut for a literal with a '*' on
// either side against the general matcher.
func TestMatchLiterals(t *testing.T) {
	for _, p := range []string{"", "*", "**", "***", "a", "*a", "a*", "*a*", "ab", "*ab*", "*::get*", "std::*", "*(int)", "a**", "**a"} {
		for _, s := range []string{"", "a", "b", "ab", "ba", "aab", "xaby", "ns::get(int)", "std::vector", "f(int)", "*a*"} {
			if got, want := Match(p, s), wildcard(p, s); got != want {
				t.Errorf("Match(%q, %q) = %v, the general matcher %v", p, s, got, want)
			}
		}
	}
}
