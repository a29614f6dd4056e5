package parser

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestBalanceFastPath checks that balance's pass over every token, taken
// where no conditional group has two branches that can be compiled,
// warns exactly as its walk of the configuration does.
func TestBalanceFastPath(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	pieces := []string{"{", "}", "(", ")", "[", "]", "x;", "\n#if 0\n{ ( ]\n#endif\n", "\n#ifdef A\n{\n#endif\n",
		"\n#ifdef A\n}\n#endif\n", "\n#if 0\n)\n#else\n(\n#endif\n", "\n#if 1\n[\n#else\n{\n#endif\n", "\n#define M {\n", "<%", "%>"}
	for iter := 0; iter < 3000; iter++ {
		var b strings.Builder
		for n := r.IntN(12); n > 0; n-- {
			b.WriteString(pieces[r.IntN(len(pieces))])
			b.WriteByte(' ')
		}
		src := b.String()
		fast, p := balanceDiags(src, false)
		if p.ambiguous {
			t.Fatalf("%q: ambiguous", src)
		}
		if walked, _ := balanceDiags(src, true); fast != walked {
			t.Fatalf("%q:\nfast pass: %s\nwalk:      %s", src, fast, walked)
		}
	}
}

// balanceDiags scans src and runs balance, by the walk if walk is set.
func balanceDiags(src string, walk bool) (string, *parser) {
	var diags DiagnosticList
	f := NewFile("b.c", []byte(src))
	sc := scan(f, Options{}, &diags)
	p := &parser{f: f, src: f.Src, diags: &diags, toks: sc.toks, pp: sc.pp}
	p.w.p, p.w.toks = p, p.toks
	p.buildGroups()
	amb := p.ambiguous
	p.ambiguous = walk
	p.balance()
	p.ambiguous = amb
	var out []string
	for _, d := range diags {
		out = append(out, d.Error())
	}
	return strings.Join(out, "\n"), p
}
