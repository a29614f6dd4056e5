package parser

import (
	"strings"
	"testing"
)

// TestCanonicalLoop reads loop headers of for constructs into their
// canonical form, or says why there is none.
func TestCanonicalLoop(t *testing.T) {
	tests := []struct {
		src  string // the construct, after "#pragma omp "
		cxx  bool
		want string // var|decl|lb|rel|ub|step|down per level, separated by " / "; or "note: …"
	}{
		// Every increment form, increasing.
		{"for\nfor (int i = 0; i < n; i++) f(i);", false, "i|int|0|<|n||false"},
		{"for\nfor (int i = 0; i < n; ++i) f(i);", false, "i|int|0|<|n||false"},
		{"for\nfor (i = lo(); i <= hi; i += 3) f(i);", false, "i||lo()|<=|hi|3|false"},
		{"for\nfor (i = 0; i < n; i = i + s) f(i);", false, "i||0|<|n|s|false"},
		{"for\nfor (i = 0; i < n; i = s + i) f(i);", false, "i||0|<|n|s|false"},
		// Decreasing, and the bound on the left.
		{"for\nfor (long i = n - 1; i >= 0; i--) f(i);", false, "i|long|n - 1|>=|0||true"},
		{"for\nfor (unsigned i = n; 0 < i; --i) f(i);", false, "i|unsigned|n|>|0||true"},
		{"for\nfor (i = n; i > 0; i -= k) f(i);", false, "i||n|>|0|k|true"},
		{"for\nfor (i = n; i > 0; i = i - k) f(i);", false, "i||n|>|0|k|true"},
		{"for\nfor (int i = 0; i != n; i++) f(i);", false, "i|int|0|!=|n||false"},
		// Pointers, iterators, qualified types.
		{"for\nfor (double *p = a; p < a + n; p++) f(p);", false, "p|double *|a|<|a + n||false"},
		{"for\nfor (std::vector<int>::iterator it = v.begin(); it != v.end(); ++it) f(*it);", true, "it|std::vector<int>::iterator|v.begin()|!=|v.end()||false"},
		{"for\nfor (unsigned long long i = 0; i < f(a, b); i++) g(i);", false, "i|unsigned long long|0|<|f(a, b)||false"},
		// Comments, line breaks and splices inside a header become one blank.
		{"for\nfor (int i = lo /* low */; // bound\n i < f(a,\n b); i += \\\n 2) g(i);", false, "i|int|lo|<|f(a, b)|2|false"},
		// Combined constructs and collapse.
		{"parallel for collapse(2)\nfor (int i = 0; i < n; i++)\n  for (int j = 0; j < m; j += 2) f(i, j);", false, "i|int|0|<|n||false / j|int|0|<|m|2|false"},
		{"for collapse(2)\nfor (int i = 0; i < n; i++) {\n  for (int j = 0; j < m; j++) f(i, j);\n}", false, "i|int|0|<|n||false / j|int|0|<|m||false"},
		// Refusals.
		{"for\nfor (auto x : v) f(x);", true, "note: range-based"},
		{"for\nfor (int i = 0, j = 0; i < n; i++) f(i);", false, "note: initialisation"},
		{"for\nfor (int i = 0; n > 2 * i; i++) f(i);", false, "note: test"},
		{"for\nfor (int i = 0; i < n; i *= 2) f(i);", false, "note: increment"},
		{"for\nfor (int i = 0; i != n; i += 2) f(i);", false, "note: != and its step"},
		{"for collapse(2)\nfor (int i = 0; i < n; i++)\n  for (int j = i; j < n; j++) f(i, j);", false, "note: not rectangular"},
		{"for collapse(c)\nfor (int i = 0; i < n; i++) f(i);", false, "note: collapse count"},
		{"for\nfor (int i = 0; i < n;\n#ifdef X\n i++\n#else\n ++i\n#endif\n) f(i);", false, "note: preprocessor"},
	}
	for _, tc := range tests {
		src := "void g(void) {\n#pragma omp " + tc.src + "\n}\n"
		r := Parse(NewFile("t.c", []byte(src)), Config{CPlusPlus: tc.cxx})
		if r.Diags.HasErrors() {
			t.Errorf("%q: %v", tc.src, r.Diags.Err())
			continue
		}
		c := r.Constructs[0]
		var got string
		if c.Loop == nil {
			got = "note: " + c.LoopNote
		} else {
			var lv []string
			for _, l := range c.Loop.Levels {
				text := func(s Span) string {
					txt, ok := r.LoopText(s)
					if !ok {
						t.Errorf("%q: span %v spans lines", tc.src, s)
					}
					return txt
				}
				lv = append(lv, strings.Join([]string{text(Span{l.Var, l.Var + 1}), text(l.Decl), text(l.LB),
					l.Rel, text(l.UB), text(l.Step), map[bool]string{true: "true", false: "false"}[l.Down]}, "|"))
			}
			got = strings.Join(lv, " / ")
		}
		if strings.HasPrefix(tc.want, "note: ") {
			if !strings.HasPrefix(got, "note: ") || !strings.Contains(got, strings.TrimPrefix(tc.want, "note: ")) {
				t.Errorf("%q: got %q, want a note with %q", tc.src, got, tc.want)
			}
			continue
		}
		if got != tc.want {
			t.Errorf("%q:\n got %s\nwant %s", tc.src, got, tc.want)
		}
		if c.Body < 0 {
			t.Errorf("%q: no body", tc.src)
		}
	}
}
