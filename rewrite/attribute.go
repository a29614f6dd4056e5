package rewrite

import "gopari/parser"

// OpenMP directives in C++ attribute syntax ([[omp::directive(…)]],
// parser/attribute.go) are instrumented like the others: each directive's
// piece of the attribute is replaced with its code, which holds the
// directive as a _Pragma operator (or a #pragma line), on the same line.
// The directives of an attribute that gopari does not instrument keep
// their text, unless another directive of the same attribute was
// instrumented: the attribute is then gone, and they become _Pragma
// operators too.

// attrEdited records that directive d, if it is in attribute syntax,
// was replaced.
func (g *gen) attrEdited(d *parser.Directive) {
	if d.Form != parser.FormAttribute {
		return
	}
	if g.attrDone == nil {
		g.attrDone = make(map[*parser.Directive]bool)
	}
	g.attrDone[d] = true
}

// attributes writes as pragmas the directives that were not instrumented
// in attributes of which another directive was.
func (g *gen) attributes() {
	if len(g.attrDone) == 0 {
		return
	}
	ds := g.pr.Directives
	g.pragmaLines = g.preprocessed
	for i := 0; i < len(ds); {
		d := ds[i]
		j := i + 1
		if d.Form != parser.FormAttribute {
			i = j
			continue
		}
		for j < len(ds) && ds[j].Form == parser.FormAttribute && ds[j].Attr == d.Attr {
			j++
		}
		group := ds[i:j]
		i = j
		edited := false
		for _, e := range group {
			edited = edited || g.attrDone[e]
		}
		if !edited {
			continue
		}
		for _, e := range group {
			if g.attrDone[e] {
				continue
			}
			g.resetBuf()
			text := g.part(func() { g.pragmaText(e.Text) })
			g.edits.replace(e.Pos, e.End, g.join(e.Pos, e.End, text))
		}
	}
}
