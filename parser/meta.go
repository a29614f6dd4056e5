package parser

import (
	"strconv"
	"strings"
)

// Metadirectives (OpenMP 5.0, 5.1): the directive chooses one of its
// variants by context,
//
//	#pragma omp metadirective when(device={kind(host)}: parallel for) default(for)
//	#pragma omp begin metadirective when(user={condition(1)}: parallel) … #pragma omp end metadirective
//
// gopari instruments the variant when it can tell at compile time which
// one applies: no when clause, or when clauses whose selectors are
// decided without running the program (device kind on the host, which is
// where instrumented code runs; user conditions that are literals).
// Anything else (a condition known only at run time, vendor, isa, arch,
// construct selectors, or several matching when clauses, which OpenMP
// ranks by score) is passed through with a warning, and so is every
// metadirective when the compiler does not implement them
// (Config.IgnoresMetadirective).

// resolveMeta chooses the variant of metadirective d, whose text is t, and
// makes d that variant: its class, name and clauses, with Meta naming the
// metadirective. When it cannot, d stays ClassMeta and metaWarn says why.
func (p *parser) resolveMeta(d *Directive, t *text) {
	if who := p.cfg.IgnoresMetadirective; who != "" {
		d.metaWarn = "'" + d.Name + "' passed through without instrumentation: " + who + " does not implement metadirectives: it ignores this one"
		return
	}
	var fallback, chosen *[2]int // variants, as ranges of t.s
	matches := 0
	pos := 0
	for _, c := range d.Clauses {
		a, b, ok := clauseArgs(t, c, &pos)
		if !ok {
			d.metaWarn = "'" + d.Name + "' passed through without instrumentation: cannot read its clause '" + c.Name + "'"
			return
		}
		switch c.Name {
		case "default", "otherwise":
			fallback = &[2]int{a, b}
		case "when":
			colon := topColon(t.s, a, b)
			if colon < 0 {
				d.metaWarn = "'" + d.Name + "' passed through without instrumentation: its 'when' clause has no ':'"
				return
			}
			match, why := selectorMatches(string(t.s[a:colon]))
			if why != "" {
				d.metaWarn = "'" + d.Name + "' passed through without instrumentation: " + why
				return
			}
			if match {
				matches++
				chosen = &[2]int{colon + 1, b}
			}
		default:
			d.metaWarn = "'" + d.Name + "' passed through without instrumentation: unknown clause '" + c.Name + "'"
			return
		}
	}
	if matches > 1 {
		d.metaWarn = "'" + d.Name + "' passed through without instrumentation: several 'when' clauses match, and gopari does not rank context selectors by score"
		return
	}
	if chosen == nil {
		chosen = fallback
	}
	p.takeVariant(d, t, chosen)
}

// takeVariant makes d the variant at t.s[r[0]:r[1]] (nothing when r is nil
// or blank).
func (p *parser) takeVariant(d *Directive, t *text, r *[2]int) {
	meta := d.Name
	if r != nil {
		for r[0] < r[1] && t.s[r[0]] == ' ' {
			r[0]++
		}
		for r[1] > r[0] && t.s[r[1]-1] == ' ' {
			r[1]--
		}
	}
	if r == nil || r[0] == r[1] {
		d.class, d.stmt, d.Name, d.Clauses, d.Meta = ClassPassthrough, StmtNone, "nothing", nil, meta
		return
	}
	sub := &text{s: t.s[r[0]:r[1]]}
	if t.own {
		sub.own, sub.offs = true, t.offs[r[0]:r[1]]
	} else {
		sub.base = t.base + r[0]
	}
	v := p.parseBody(sub, 0, false)
	if v.class == ClassMeta {
		d.metaWarn = "'" + meta + "' passed through without instrumentation: a variant cannot be a metadirective"
		return
	}
	*d = Directive{Form: d.Form, Pos: d.Pos, End: d.End, Tok: d.Tok, LastTok: d.LastTok, Attr: d.Attr, Text: d.Text,
		Name: v.Name, Arg: v.Arg, HasArg: v.HasArg, Clauses: v.Clauses, NameOff: v.NameOff,
		class: v.class, stmt: v.stmt, Leaves: v.Leaves, Meta: meta}
	if meta == "begin metadirective" && d.stmt == StmtNone && d.class != ClassPassthrough {
		d.class, d.Meta = ClassMeta, ""
		d.Name = meta
		d.metaWarn = "'begin metadirective' passed through without instrumentation: its variant '" + v.Name + "' takes no block"
	}
}

// clauseArgs returns the range of t.s inside the parentheses of clause
// c, searching from *pos on.
func clauseArgs(t *text, c Clause, pos *int) (a, b int, ok bool) {
	s := t.s
	for i := *pos; i < len(s); i++ {
		if t.off(i) != c.Off {
			continue
		}
		j := skipBlanks(s, i+len(c.Name))
		if j >= len(s) || s[j] != '(' {
			return 0, 0, false
		}
		k, ok := matchParen(s, j, t.nums.restart())
		if !ok {
			return 0, 0, false
		}
		*pos = k + 1
		return j + 1, k, true
	}
	return 0, 0, false
}

// topColon returns the index of the first ':' of s[a:b] outside
// parentheses, braces and brackets, or -1.
func topColon(s []byte, a, b int) int {
	depth := 0
	for i := a; i < b; i++ {
		switch s[i] {
		case '(', '{', '[':
			depth++
		case ')', '}', ']':
			depth--
		case ':':
			if depth == 0 && (i+1 >= b || s[i+1] != ':') && (i == a || s[i-1] != ':') {
				return i
			}
		}
	}
	return -1
}

// selectorMatches evaluates a context selector specification,
// set={trait, …}, …, on the host at compile time. why is non-empty when
// that cannot be done.
func selectorMatches(spec string) (match bool, why string) {
	match = true
	for _, set := range SplitTop(spec) {
		name, traits, ok := strings.Cut(set, "=")
		name, traits = strings.TrimSpace(name), strings.TrimSpace(traits)
		if !ok || !strings.HasPrefix(traits, "{") || !strings.HasSuffix(traits, "}") {
			return false, "cannot read its context selector '" + strings.TrimSpace(set) + "'"
		}
		for _, trait := range SplitTop(traits[1 : len(traits)-1]) {
			m, why := traitMatches(name, strings.TrimSpace(trait))
			if why != "" {
				return false, why
			}
			match = match && m
		}
	}
	return match, ""
}

// traitMatches evaluates one trait of selector set set.
func traitMatches(set, trait string) (bool, string) {
	name, args, _ := strings.Cut(trait, "(")
	name = strings.TrimSpace(name)
	args = strings.TrimSuffix(strings.TrimSpace(args), ")")
	if _, rest, ok := strings.Cut(args, ":"); ok && strings.HasPrefix(strings.TrimSpace(args), "score") {
		args = rest
	}
	switch {
	case set == "device" && name == "kind":
		for _, k := range SplitTop(args) {
			switch strings.TrimSpace(k) {
			case "host", "any", "cpu":
			case "nohost", "gpu", "fpga":
				return false, ""
			default:
				return false, "the device kind '" + strings.TrimSpace(k) + "' is unknown"
			}
		}
		return true, ""
	case set == "user" && name == "condition":
		switch v := strings.TrimSpace(args); v {
		case "true":
			return true, ""
		case "false":
			return false, ""
		default:
			if n, err := strconv.ParseInt(strings.TrimRight(v, "uUlL"), 0, 64); err == nil {
				return n != 0, ""
			}
			return false, "the condition '" + v + "' is known only when the program runs"
		}
	}
	return false, "the selector '" + set + "={" + trait + "}' depends on the compiler, the device or the enclosing constructs, which gopari does not decide"
}

// SplitTop splits s at the commas outside parentheses, brackets and
// braces, and trims the parts; an empty last part is dropped.
func SplitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	if t := strings.TrimSpace(s[start:]); t != "" {
		out = append(out, t)
	}
	return out
}

// pairMeta links every begin metadirective that became a construct
// with a block to its end metadirective.
func (p *parser) pairMeta(cs []*Construct) {
	var open []*Construct // begin metadirectives, resolved or not
	for _, c := range cs {
		d := c.Dir
		switch {
		case d.Name == "begin metadirective" || d.Meta == "begin metadirective":
			open = append(open, c)
		case d.Name == "end metadirective":
			if len(open) == 0 {
				p.errorf(d.NameOff, "'end metadirective' without 'begin metadirective'")
				continue
			}
			b := open[len(open)-1]
			open = open[:len(open)-1]
			if b.Dir.Meta != "" {
				b.Enclosed = d // a variant with a block, or nothing
			}
		}
	}
	for _, c := range open {
		p.errorf(c.Dir.NameOff, "'begin metadirective' without 'end metadirective'")
	}
}

// enclosedBlock finds the statements between a begin metadirective and
// its end metadirective, the block of the chosen variant. It reports false
// after an error.
func (p *parser) enclosedBlock(c *Construct) bool {
	d, end := c.Dir, c.Enclosed
	w := &p.w
	w.reset()
	w.remember = true
	c.First = w.stmtStart(d.LastTok + 1)
	for j := c.First; ; {
		if j > end.Tok || w.stack != nil || w.left != nil || w.include >= 0 {
			p.errorf(d.NameOff, "the code between 'begin metadirective' and its 'end metadirective' at %s is not a sequence of whole statements in one conditional branch", p.posString(end.Tok))
			return false
		}
		if j == end.Tok {
			break
		}
		last := w.stmt(j, need{d: d})
		if last < 0 {
			return false
		}
		j = w.stmtStart(last + 1)
	}
	c.Last, c.LastToken = end.LastTok, p.toks[end.LastTok]
	d.walked = int32(end.LastTok + 1) // later walks jump over it all
	return true
}
