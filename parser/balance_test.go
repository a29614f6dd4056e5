package parser

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestBalanceFastPath checks that balance's pass over every token, taken
// where no conditional group has two branches that can be compiled,
// warns exactly as its walk of the configuration does, and that the
// pass beside the parse (tokenPass) warns as that pass does.
func TestBalanceFastPath(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	pieces := []string{"{", "}", "(", ")", "[", "]", "x;", "\n#if 0\n{ ( ]\n#endif\n", "\n#ifdef A\n{\n#endif\n",
		"\n#ifdef A\n}\n#endif\n", "\n#if 0\n)\n#else\n(\n#endif\n", "\n#if 1\n[\n#else\n{\n#endif\n", "\n#define M {\n", "<%", "%>"}
	warned := 0
	for iter := 0; iter < 3000; iter++ {
		var b strings.Builder
		for n := r.IntN(12); n > 0; n-- {
			b.WriteString(pieces[r.IntN(len(pieces))])
			b.WriteByte(' ')
		}
		src := b.String()
		fast, p := balanceDiags(src, balanceFast)
		if p.ambiguous {
			t.Fatalf("%q: ambiguous", src)
		}
		if walked, _ := balanceDiags(src, balanceWalk); fast != walked {
			t.Fatalf("%q:\nfast pass: %s\nwalk:      %s", src, fast, walked)
		}
		if beside, _ := balanceDiags(src, balanceBeside); fast != beside {
			t.Fatalf("%q:\nfast pass:   %s\ntoken pass: %s", src, fast, beside)
		}
		if fast != "" {
			warned++
		}
	}
	if warned < 1000 {
		t.Fatalf("only %d of 3000 inputs warned: the test checks too little", warned)
	}
}

// How balanceDiags runs balance.
const (
	balanceFast   = iota // the tight pass
	balanceWalk          // the walk of the configuration
	balanceBeside        // the tight pass of tokenPass
)

// balanceDiags scans src and runs balance as mode says.
func balanceDiags(src string, mode int) (string, *parser) {
	var diags DiagnosticList
	f := NewFile("b.c", []byte(src))
	sc := scan(f, Options{}, &diags)
	p := &parser{f: f, src: f.Src, diags: &diags, toks: sc.toks, pp: sc.pp}
	p.w.p, p.w.toks = p, p.toks
	p.buildGroups()
	amb := p.ambiguous
	var warn func()
	switch mode {
	case balanceBeside:
		warn = startTokenPass(p.toks, len(src)%2 == 0).balance(p)
	default:
		p.ambiguous = mode == balanceWalk
		warn = p.balance()
	}
	p.ambiguous = amb
	if warn != nil {
		warn()
	}
	var out []string
	for _, d := range diags {
		out = append(out, d.Error())
	}
	return strings.Join(out, "\n"), p
}

// TestOpenParens checks the table of open parentheses against the
// depth counted token by token.
func TestOpenParens(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	pieces := []string{"(", ")", "[", "]", "{", "}", "x", "f(a)", "((", "))"}
	for iter := 0; iter < 2000; iter++ {
		var b strings.Builder
		for n := r.IntN(20); n > 0; n-- {
			b.WriteString(pieces[r.IntN(len(pieces))])
			b.WriteByte(' ')
		}
		var diags DiagnosticList
		toks := scan(NewFile("p.c", []byte(b.String())), Options{}, &diags).toks
		open := OpenParens(toks)
		if len(open) != len(toks)+1 {
			t.Fatalf("%q: %d entries for %d tokens", b.String(), len(open), len(toks))
		}
		d := 0
		for k := 0; k <= len(toks); k++ {
			if open[k] != (d > 0) {
				t.Fatalf("%q: token %d: open %v, depth %d", b.String(), k, open[k], d)
			}
			if k < len(toks) && toks[k].Kind == Punct {
				switch {
				case toks[k].Sub == '(':
					d++
				case toks[k].Sub == ')' && d > 0:
					d--
				}
			}
		}
	}
}

// TestBalanceBeside checks that ParseAsync, which on a large file runs
// balance's pass beside the parse, warns and counts its steps as Parse
// does, and hands over the table of open parentheses.
func TestBalanceBeside(t *testing.T) {
	t.Parallel()
	body := strings.Repeat("int f(int a) { return g((a), [1]); }\n", tokenPassMin/16+1)
	for _, tail := range []string{"", "int x = (1;\n", "}\n", "int y[2) ;\n", "#pragma omp parallel\n{ (\n"} {
		src := []byte(body + tail + body)
		want := Parse(NewFile("big.c", src), Config{})
		got, wait := ParseAsync(NewFile("big.c", src), Config{})
		if got.OpenParens == nil {
			t.Fatalf("%q: no table of open parentheses", tail)
		}
		if open := got.OpenParens(); !slices.Equal(open, OpenParens(got.Toks)) {
			t.Fatalf("%q: the table differs from OpenParens's", tail)
		}
		wait()
		if g, w := got.Diags.Error(), want.Diags.Error(); g != w || got.Work != want.Work {
			t.Fatalf("%q: ParseAsync: %s (work %d)\nParse: %s (work %d)", tail, g, got.Work, w, want.Work)
		}
		if tail != "" && len(got.Diags) == 0 {
			t.Fatalf("%q: no warning", tail)
		}
	}
}
