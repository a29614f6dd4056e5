package rewrite

import (
	"io"
	"runtime"
	"strings"
	"testing"

	generate "gopari/internal/gen"
	"gopari/parser"
)

// TestLinearWork instruments generated files of n and 4n units and checks
// that the work grows linearly: the parser's steps (parser.Result.Work),
// the rewrite's own (bytes counted for line numbers, lookups in the
// line table and the directive list), the number of
// allocations and the bytes allocated. Counts, not time. The dense file
// has every construct class, lock calls (about 6 omp_set_lock per 1,000
// lines), user regions, _Pragma, fake directives in comments and strings,
// nesting and long lines; the others stress one thing each.
func TestLinearWork(t *testing.T) {
	inputs := []struct {
		name string
		n    int
		gen  func(n int) []byte
	}{
		{"dense lines", 20_000, generate.Dense},
		{"nested regions", 1_000, func(n int) []byte {
			return []byte("void f(void) {\n" + strings.Repeat("#pragma omp parallel\n{ x++; omp_set_lock(&l);\n", n) + strings.Repeat("}\n", n) + "}\n")
		}},
		{"lock calls in constructs", 5_000, func(n int) []byte {
			return []byte("void f(void) {\n" + strings.Repeat("#pragma omp parallel\n{ omp_set_lock(&l); omp_unset_lock(&l); }\n#pragma omp simd\nfor (i = 0; i < 9; i++) omp_test_lock(&l);\n", n) + "}\n")
		}},
		{"lock calls inside n simd/target spans", 5_000, func(n int) []byte {
			var b strings.Builder
			b.WriteString("void f(int *a) {\n")
			for i := 0; i < n; i++ {
				b.WriteString("#pragma omp simd\nfor (i = 0; i < 9; i++) { omp_set_lock(&l); a[i]++; }\n#pragma omp target\n{ omp_test_lock(&l); }\nomp_set_lock(&l);\n")
			}
			b.WriteString("}\n")
			return []byte(b.String())
		}},
		{"line markers", 5_000, func(n int) []byte {
			var b strings.Builder
			for i := 0; i < n; i++ {
				b.WriteString("# 7 \"h.h\"\n#pragma omp barrier\n#line 99 \"x.c\"\n#pragma omp flush\n")
			}
			return []byte(b.String())
		}},
	}
	for _, in := range inputs {
		t.Run(in.name, func(t *testing.T) {
			a := measure(t, in.gen(in.n))
			b := measure(t, in.gen(4*in.n))
			for i, what := range []string{"parser steps", "rewrite steps", "allocations", "bytes allocated"} {
				if a[i] == 0 {
					if b[i] != 0 {
						t.Errorf("%s: 0 for n, %d for 4n", what, b[i])
					}
					continue
				}
				if ratio := float64(b[i]) / float64(a[i]); ratio > 4.6 {
					t.Errorf("%s: %d for %d units, %d for %d: %.2f times as many for 4 times the input", what, a[i], in.n, b[i], 4*in.n, ratio)
				}
			}
		})
	}
}

// measure instruments src and returns the parser's steps, the rewrite's
// steps, the allocations and the bytes allocated.
func measure(t *testing.T, src []byte) [4]uint64 {
	t.Helper()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	pr := parser.Parse(parser.NewFile("lin.c", src), parser.Config{})
	if pr.Diags.HasErrors() {
		t.Fatal(pr.Diags.Err())
	}
	g := newGen(pr, Options{})
	res := g.run()
	if res == nil {
		t.Fatal(pr.Diags.Err())
	}
	res.WriteTo(io.Discard)
	runtime.ReadMemStats(&after)
	return [4]uint64{uint64(pr.Work), uint64(g.work + pr.File.Steps()), after.Mallocs - before.Mallocs, after.TotalAlloc - before.TotalAlloc}
}
