package parser

import (
	"os"
	"path/filepath"
	"testing"
)

// addSeeds adds the golden inputs and a few hand-made hazards to the
// corpus of a fuzz target.
func addSeeds(f *testing.F) {
	files, _ := filepath.Glob("../golden/testdata/*.c")
	more, _ := filepath.Glob("../golden/testdata/*.cpp")
	for _, name := range append(files, more...) {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	for _, s := range []string{
		"", "\n", "#", "#pragma omp", "_Pragma(", `_Pragma("omp parallel")`,
		"#pragma omp parallel\n{", "/*", "//\\\n", "'", `"`, `R"x(`, "1'000",
		"#if 0\n#else\n#endif\n", "#if\n", "#endif\n", "\\\n\\\n",
		"#pragma omp for\nfor(;;)\n#pragma omp single\n{}\n",
		"#pragma pomp inst begin(a)\n#pragma pomp inst end(b)\n",
		"\xef\xbb\xbf#pragma omp barrier\r\n",
	} {
		f.Add([]byte(s))
	}
}

// FuzzScan checks that the scanner never panics and that its tokens are
// in order, inside the file and never overlap.
func FuzzScan(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, cpp := range []bool{false, true} {
			var diags DiagnosticList
			toks := Scan(NewFile("f.c", src), Options{CPlusPlus: cpp}, &diags)
			end := int32(0)
			for i, tk := range toks {
				if tk.Pos < end || tk.End < tk.Pos || int(tk.End) > len(src) {
					t.Fatalf("token %d [%d,%d) after %d, file of %d bytes", i, tk.Pos, tk.End, end, len(src))
				}
				end = tk.End
			}
			for _, d := range diags {
				// Line 0 is possible: after "# 0", as GCC prints it too.
				if d.Pos.Offset < 0 || d.Pos.Offset > len(src) || d.Pos.Line < 0 {
					t.Fatalf("diagnostic outside the file: %v", d)
				}
			}
		}
	})
}

// FuzzDirective parses arbitrary text as the text of a pragma.
func FuzzDirective(f *testing.F) {
	for _, s := range []string{"pragma omp parallel", "omp for schedule(static, 1'0) nowait",
		"pragma omp critical(x) hint(", "pragma omp declare reduction(+: int: omp_out += omp_in)",
		"pragma pomp inst begin(a)", "pragma omp target teams distribute parallel for simd collapse(2)",
		"pragma omp task depend(in: a[0:n], b) if(task: x > \"(\")"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var diags DiagnosticList
		file := NewFile("f.c", []byte(s))
		p := &parser{f: file, src: file.Src, diags: &diags}
		txt := normalizePP(&p.txt, file.Src, 0, len(s))
		d := p.parseDirective(txt)
		if d == nil {
			return
		}
		for _, c := range d.Clauses {
			if c.Off < 0 || c.Off > len(s) {
				t.Fatalf("clause %q at offset %d of %d", c.Name, c.Off, len(s))
			}
		}
	})
}

// FuzzExtents checks the statement extents the parser finds for
// structured blocks: inside the file, after their directive, and nested
// properly.
func FuzzExtents(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		r := Parse(NewFile("f.c", src), Config{CPlusPlus: len(src)%2 == 1})
		if r.Diags.HasErrors() {
			return
		}
		for _, c := range r.Constructs {
			if c.Last < 0 {
				continue
			}
			if c.First <= c.Dir.LastTok || c.Last < c.First || c.Last >= len(r.Toks) {
				t.Fatalf("block [%d,%d] of directive at token %d (%d tokens)", c.First, c.Last, c.Dir.LastTok, len(r.Toks))
			}
			if p := c.Parent; p != nil && (c.Dir.Tok <= p.Dir.Tok || p.Last >= 0 && c.Last > p.Last) {
				t.Fatalf("construct at token %d is not inside its parent at %d..%d", c.Dir.Tok, p.Dir.Tok, p.Last)
			}
		}
	})
}
