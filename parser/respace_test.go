package parser

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRespace checks which lines of preprocessed text Respace puts back
// as the user wrote them: those whose tokens are their source line's.
func TestRespace(t *testing.T) {
	sources := map[string]string{
		"a.c": strings.Join([]string{
			"#include \"h.h\"",                  // 1
			"#define N 4",                       // 2
			"int  f(int    x)",                  // 3: respaced
			"{",                                 // 4
			"  \t#pragma   omp parallel for",    // 5: a directive: '#' first
			"  for (int i = 0; i <  N; i++)",    // 6: a macro expanded
			"\tx +=  i; // a comment",           // 7: the comment goes back too
			"  x = x /* open",                   // 8: a comment left open
			"  */ + 1;",                         // 9
			"  char *s = \"a  b\";   return x;", // 10: a literal, byte for byte
			"  int  y = 1 \\",                   // 11: a line splice
			"  + 2;",                            // 12
			"}",                                 // 13
		}, "\n") + "\n",
		"h.h":                  "int   h(void);\n",
		"/usr/include/stdio.h": "int   printf(const char *, ...);\n",
	}
	pre := strings.Join([]string{
		`# 0 "a.c"`,
		`# 1 "/usr/include/stdio.h" 1 3 4`,
		`int printf(const char *, ...);`,
		`# 2 "a.c" 2`,
		`# 1 "h.h" 1`,
		`int h(void);`,
		`# 2 "a.c" 2`,
		``,
		`int f(int x)`,
		`{`,
		`#pragma omp parallel for`,
		`  for (int i = 0; i < 4; i++)`,
		`        x += i;`,
		`  x = x`,
		`    + 1;`,
		`  char *s = "a  b"; return x;`,
		`  int y = 1`,
		`  + 2;`,
		`}`,
	}, "\n") + "\n"
	want := strings.Join([]string{
		`# 0 "a.c"`,
		`# 1 "/usr/include/stdio.h" 1 3 4`,
		`int printf(const char *, ...);`, // a system header stays
		`# 2 "a.c" 2`,
		`# 1 "h.h" 1`,
		`int   h(void);`,
		`# 2 "a.c" 2`,
		``,
		`int  f(int    x)`,
		`{`,
		"#  \tpragma   omp parallel for",
		`  for (int i = 0; i < 4; i++)`,
		"\tx +=  i; // a comment",
		`  x = x`,
		`    + 1;`,
		`  char *s = "a  b";   return x;`,
		`  int y = 1`,
		`  + 2;`,
		`}`,
	}, "\n") + "\n"
	got := Respace([]byte(pre), func(name string) ([]byte, bool) {
		s, ok := sources[name]
		return []byte(s), ok
	})
	if d := cmp.Diff(want, string(got)); d != "" {
		t.Errorf("Respace (-want +got):\n%s", d)
	}
	same := []byte("int x;\n")
	if out := Respace(same, func(string) ([]byte, bool) { return nil, false }); &out[0] != &same[0] {
		t.Errorf("Respace copied text it did not change")
	}
}
