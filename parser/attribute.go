package parser

// OpenMP directives in C++ attribute syntax (OpenMP 5.1, 2.1.2):
//
//	[[omp::directive(parallel for)]]
//	[[omp::sequence(directive(parallel), directive(for))]]
//	[[using omp: directive(barrier)]];
//
// Each directive of an attribute becomes a Directive of FormAttribute
// whose tokens are a piece of the attribute: the first from the opening
// '[' to the ')' closing its directive(…), each further one from there
// to its own ')', and the last to the closing ']'. The pieces follow each
// other as the lines of a chain of #pragma directives do, so the
// statement after each is the next one, and the rewrite replaces each
// piece with the code of its directive.

// attrItem is one directive(…) of an attribute: the token indices of its
// parentheses.
type attrItem struct{ open, close int }

// attributeStart returns the token index of the first '[' of the
// attribute whose omp is the identifier at j, and whether it is the
// [[using omp: …]] form; ok is false when j is no such omp.
func (p *parser) attributeStart(j int) (start int, using, ok bool) {
	if !p.isIdent(j, "omp") {
		return 0, false, false
	}
	if j >= 2 && p.isPunct(j-1, '[') && p.isPunct(j-2, '[') && p.isPunct(j+1, PColon2) {
		return j - 2, false, true
	}
	if j >= 3 && p.isIdent(j-1, "using") && p.isPunct(j-2, '[') && p.isPunct(j-3, '[') && p.isPunct(j+1, ':') {
		return j - 3, true, true
	}
	return 0, false, false
}

// attribute parses the C++ attribute holding the omp at token j and adds
// its directives.
func (p *parser) attribute(j int) {
	start, using, ok := p.attributeStart(j)
	if !ok {
		return
	}
	if p.cfg.Preprocessed && p.f.InSystemHeader(int(p.toks[start].Pos)) {
		return
	}
	k := j // the first attribute: omp::…
	if using {
		k = j + 2 // after omp:
	}
	var items []attrItem
	top, others := 0, false
	for {
		switch {
		case p.isPunct(k, ','):
			k++
			continue
		case p.isPunct(k, ']') && p.isPunct(k+1, ']'):
		default:
			var more []attrItem
			var isOmp bool
			if k, more, isOmp = p.attributeItem(k, using); k < 0 {
				p.warnf(int(p.toks[start].Pos), "cannot read this OpenMP attribute; passed through without instrumentation")
				return
			}
			if !isOmp {
				others = true
			} else {
				top++
			}
			items = append(items, more...)
			continue
		}
		break
	}
	end := k + 1 // the closing ']'
	ds := make([]*Directive, 0, len(items))
	for i, it := range items {
		first, last := start, end
		if i > 0 {
			first = items[i-1].close + 1
		}
		if i < len(items)-1 {
			last = it.close
		}
		t := normalizeAttr(&p.txt, p.src, int(p.toks[it.open].End), int(p.toks[it.close].Pos))
		d := p.parseDirective(t)
		if d == nil || d.Pomp {
			p.warnf(int(p.toks[it.open].End), "cannot read this OpenMP attribute; passed through without instrumentation")
			return
		}
		d.Form, d.Pos, d.End, d.Tok, d.LastTok = FormAttribute, int(p.toks[first].Pos), int(p.toks[last].End), first, last
		d.Attr, d.Text = start, string(t.s[len("omp "):])
		ds = append(ds, d)
	}
	if (top > 1 || others) && instrumentable(ds) {
		why := "together with other attributes"
		if top > 1 {
			why = "as several attributes: gopari instruments several directives only in omp::sequence(…)"
		}
		p.warnf(int(p.toks[start].Pos), "OpenMP directive in a C++ attribute %s passed through without instrumentation; give it [[…]] of its own", why)
		return
	}
	if top > 1 || others {
		return // declarative directives: nothing to instrument
	}
	for _, d := range ds {
		p.add(d)
	}
	p.attrs += len(ds)
}

// attributeItem parses one attribute of an attribute list at k: for
// omp::directive(…) and omp::sequence(…) (directive(…) and sequence(…)
// after using omp:) it returns their directives, with isOmp set; other
// attributes are skipped. It returns the token index after the item, or
// -1 if the item cannot be read.
func (p *parser) attributeItem(k int, using bool) (next int, items []attrItem, isOmp bool) {
	name := k
	if !using && p.isIdent(k, "omp") && p.isPunct(k+1, PColon2) {
		name = k + 2
	}
	if name != k || using {
		switch {
		case p.isIdent(name, "directive") && p.isPunct(name+1, '('):
			e := p.attrParen(name + 1)
			if e < 0 {
				return -1, nil, false
			}
			return e + 1, []attrItem{{name + 1, e}}, true
		case p.isIdent(name, "sequence") && p.isPunct(name+1, '('):
			e, items := p.attrSequence(name + 1)
			return e, items, e >= 0
		}
		if using {
			return p.skipAttr(k), nil, false // another omp:: attribute
		}
	}
	return p.skipAttr(k), nil, false
}

// attrSequence parses sequence( … ) whose '(' is at k: directive(…) and
// nested sequence(…), each optionally omp::, separated by commas. It
// returns the token index after the ')' and the directives in order.
func (p *parser) attrSequence(k int) (int, []attrItem) {
	var out []attrItem
	k++
	for {
		switch {
		case p.isPunct(k, ')'):
			return k + 1, out
		case p.isPunct(k, ','):
			k++
			continue
		}
		if p.isIdent(k, "omp") && p.isPunct(k+1, PColon2) {
			k += 2
		}
		switch {
		case p.isIdent(k, "directive") && p.isPunct(k+1, '('):
			e := p.attrParen(k + 1)
			if e < 0 {
				return -1, nil
			}
			out = append(out, attrItem{k + 1, e})
			k = e + 1
		case p.isIdent(k, "sequence") && p.isPunct(k+1, '('):
			e, inner := p.attrSequence(k + 1)
			if e < 0 {
				return -1, nil
			}
			out = append(out, inner...)
			k = e
		default:
			return -1, nil
		}
	}
}

// skipAttr skips an attribute that is not OpenMP's: a name, perhaps
// qualified, and perhaps an argument in parentheses. It returns the
// token index after it, or -1.
func (p *parser) skipAttr(k int) int {
	if k >= len(p.toks) || p.toks[k].Kind != Ident {
		return -1
	}
	k++
	for p.isPunct(k, PColon2) && k+1 < len(p.toks) && p.toks[k+1].Kind == Ident {
		k += 2
	}
	if p.isPunct(k, '(') {
		e := p.attrParen(k)
		if e < 0 {
			return -1
		}
		k = e + 1
	}
	if p.isPunct(k, PMulti) && string(p.src[p.toks[k].Pos:p.toks[k].End]) == "..." {
		k++
	}
	return k
}

// attrParen returns the token index of the ')' matching the '(' at k
// inside an attribute, or -1: the attribute must not end first.
func (p *parser) attrParen(k int) int {
	depth := 0
	for ; k < len(p.toks); k++ {
		p.work++
		t := p.toks[k]
		switch {
		case t.Kind == Preproc || t.Kind == Skipped:
			return -1
		case t.Kind != Punct:
		case t.Sub == '(' || t.Sub == '[' || t.Sub == '{':
			depth++
		case t.Sub == ')' || t.Sub == ']' || t.Sub == '}':
			depth--
			if depth == 0 {
				if t.Sub != ')' {
					return -1
				}
				return k
			}
			if depth < 0 {
				return -1
			}
		}
	}
	return -1
}

// instrumentable reports whether any of ds is a directive that gopari
// instruments.
func instrumentable(ds []*Directive) bool {
	for _, d := range ds {
		switch d.class {
		case ClassDeclarative, ClassPassthrough, ClassDeclTargetBegin, ClassDeclTargetEnd, ClassUnknown:
		default:
			return true
		}
	}
	return false
}

// normalizeAttr renders the text inside directive( … ), src[from:to], as
// normalizePP renders a #pragma line, preceded by "omp ".
func normalizeAttr(t *text, src []byte, from, to int) *text {
	normalize(t, src[from:to], func(i int) int { return from + i })
	buf := append([]byte("omp "), t.buf...)
	offs := append([]int{from, from, from, from}, t.offs...)
	t.buf, t.offs, t.s = buf, offs, buf
	return t
}
