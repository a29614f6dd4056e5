package parser

import (
	"fmt"
)

// A walker moves forward through the tokens of one configuration of the
// source: in a conditional group opened after the walk began it follows
// the first branch that can be compiled, and when it meets the #elif,
// #else or #endif of a group that encloses the walk's start, it goes on
// after that group's #endif and remembers that it left the group.
type walker struct {
	p     *parser
	toks  []Token  // p.toks
	stack []*group // groups opened during the walk, innermost last

	// left is the outermost group enclosing the start that the walk has
	// left, and leftEnd the token index of the #endif where it did so.
	left    *group
	leftEnd int

	include int // token index of an #include met on the way, or -1
	failed  bool
}

type walkState struct {
	stack   []*group
	left    *group
	leftEnd int
	include int
}

// reset prepares the walker for a new walk.
func (w *walker) reset() {
	w.stack, w.left, w.leftEnd, w.include, w.failed = w.stack[:0], nil, -1, -1, false
}

func (w *walker) save() walkState {
	return walkState{stack: append([]*group(nil), w.stack...), left: w.left, leftEnd: w.leftEnd, include: w.include}
}

func (w *walker) restore(s walkState) {
	w.stack, w.left, w.leftEnd, w.include = s.stack, s.left, s.leftEnd, s.include
}

// skip returns the index of the first token at or after j that the
// compiler would see in the walked configuration: not a conditional,
// macro or other non-pragma preprocessing line, nor skipped text.
// It returns len(toks) at the end of the file.
func (w *walker) skip(j int) int {
	toks := w.p.toks
	for j < len(toks) {
		t := toks[j]
		switch t.Kind {
		case Skipped:
			j++
			continue
		case Preproc:
		default:
			return j
		}
		switch t.PP() {
		case PPPragma:
			return j
		case PPIf, PPIfdef, PPIfndef:
			g := w.p.groups[j]
			if g == nil || g.end < 0 {
				return len(toks)
			}
			if g.take < 0 {
				j = g.end + 1
				continue
			}
			w.stack = append(w.stack, g)
			j = g.branches[g.take] + 1
			continue
		case PPElif, PPElse:
			g := w.p.groups[j]
			if g == nil || g.end < 0 {
				return len(toks)
			}
			if n := len(w.stack); n > 0 && w.stack[n-1] == g {
				w.stack = w.stack[:n-1]
			} else {
				w.left, w.leftEnd = g, g.end
			}
			j = g.end + 1
			continue
		case PPEndif:
			g := w.p.groups[j]
			if n := len(w.stack); n > 0 && w.stack[n-1] == g {
				w.stack = w.stack[:n-1]
			} else if g != nil {
				w.left, w.leftEnd = g, j
			}
		case PPInclude:
			if w.include < 0 {
				w.include = j
			}
		}
		j++
	}
	return len(toks)
}

// nextInline returns the first significant token after k: skip's fast
// path for the common token that is neither a preprocessing line nor
// skipped text, small enough for the compiler to inline in hot loops.
func (w *walker) nextInline(k int, toks []Token) int {
	k++
	if k < len(toks) && toks[k].Kind >= Preproc {
		return w.skip(k)
	}
	return k
}

func (w *walker) errorf(j int, format string, args ...any) int {
	if !w.failed {
		w.failed = true
		w.p.errorf(w.p.offset(j), format, args...)
	}
	return -1
}

// stmtStart skips non-OpenMP pragmas before a statement.
func (w *walker) stmtStart(j int) int {
	for {
		j = w.skip(j)
		if j >= len(w.p.toks) {
			return j
		}
		if d := w.p.dir(j); d != nil {
			if d.Pomp || d.class == ClassUnknown {
				j = d.LastTok + 1 // treated as a prefix of the statement
				continue
			}
			return j
		}
		if w.p.isPragmaLine(j) || w.p.isOperator(j) {
			j = w.p.pragmaEnd(j) + 1
			continue
		}
		return j
	}
}

// need names what requires a statement, for messages: a directive, or a
// keyword such as 'for'.
type need struct {
	d  *Directive
	kw string
}

func (n need) String() string {
	if n.d != nil {
		return "'#pragma omp " + n.d.Name + "'"
	}
	if n.kw == "label" {
		return "a label"
	}
	return "'" + n.kw + "'"
}

// stmt returns the index of the last token of the statement starting at
// j, or -1 after reporting an error. what names the construct that needs
// the statement, for messages.
func (w *walker) stmt(j int, what need) int {
	p := w.p
	toks := p.toks
	if j >= len(toks) {
		return w.errorf(len(toks), "expected a statement after %s, found end of file", what)
	}
	t := toks[j]
	if d := p.dir(j); d != nil {
		return w.construct(d, what)
	}
	switch t.Kind {
	case Punct:
		switch t.Sub {
		case '{':
			return w.match(j)
		case ';':
			return j
		case '}':
			return w.errorf(j, "expected a statement after %s, found '}'", what)
		case '[':
			if k := w.skip(j + 1); k < len(toks) && toks[k].Kind == Punct && toks[k].Sub == '[' {
				e := w.match(j)
				if e < 0 {
					return -1
				}
				return w.stmt(w.stmtStart(e+1), what)
			}
		}
		return w.exprStmt(j)
	case Ident:
		return w.identStmt(j, what)
	}
	return w.exprStmt(j)
}

func (w *walker) identStmt(j int, what need) int {
	p := w.p
	toks := p.toks
	word := p.tokBytes(j)
	switch string(word) {
	case "for", "while", "switch":
		kw := keywordFor[string(word)]
		k := w.skip(j + 1)
		if !p.isPunct(k, '(') {
			return w.errorf(k, "expected '(' after '%s'", kw)
		}
		e := w.match(k)
		if e < 0 {
			return -1
		}
		return w.stmt(w.stmtStart(e+1), need{kw: kw})
	case "if":
		k := w.skip(j + 1)
		if p.isIdent(k, "constexpr") {
			k = w.skip(k + 1)
		}
		if p.isPunct(k, '!') {
			k = w.skip(k + 1)
		}
		var e int
		if p.isIdent(k, "consteval") {
			e = k
		} else {
			if !p.isPunct(k, '(') {
				return w.errorf(k, "expected '(' after 'if'")
			}
			e = w.match(k)
			if e < 0 {
				return -1
			}
		}
		last := w.stmt(w.stmtStart(e+1), need{kw: "if"})
		if last < 0 {
			return -1
		}
		st := w.save()
		k = w.skip(last + 1)
		if p.isIdent(k, "else") {
			return w.stmt(w.stmtStart(k+1), need{kw: "else"})
		}
		w.restore(st)
		return last
	case "do":
		last := w.stmt(w.stmtStart(j+1), need{kw: "do"})
		if last < 0 {
			return -1
		}
		k := w.skip(last + 1)
		if !p.isIdent(k, "while") {
			return w.errorf(k, "expected 'while' after the body of 'do'")
		}
		k = w.skip(k + 1)
		if !p.isPunct(k, '(') {
			return w.errorf(k, "expected '(' after 'while'")
		}
		e := w.match(k)
		if e < 0 {
			return -1
		}
		k = w.skip(e + 1)
		if !p.isPunct(k, ';') {
			return w.errorf(k, "expected ';' after 'do … while (…)'")
		}
		return k
	case "try":
		k := w.skip(j + 1)
		if !p.isPunct(k, '{') {
			return w.errorf(k, "expected '{' after 'try'")
		}
		last := w.match(k)
		for last >= 0 {
			st := w.save()
			k = w.skip(last + 1)
			if !p.isIdent(k, "catch") {
				w.restore(st)
				return last
			}
			k = w.skip(k + 1)
			if !p.isPunct(k, '(') {
				return w.errorf(k, "expected '(' after 'catch'")
			}
			e := w.match(k)
			if e < 0 {
				return -1
			}
			k = w.skip(e + 1)
			if !p.isPunct(k, '{') {
				return w.errorf(k, "expected '{' after 'catch (…)'")
			}
			last = w.match(k)
		}
		return last
	case "case":
		for k := w.skip(j + 1); k < len(toks); k = w.skip(k + 1) {
			switch {
			case p.isPunct(k, ':'):
				return w.stmt(w.stmtStart(k+1), need{kw: "label"})
			case p.isPunct(k, '(') || p.isPunct(k, '['):
				if k = w.match(k); k < 0 {
					return -1
				}
			case p.isPunct(k, ';') || p.isPunct(k, '{') || p.isPunct(k, '}'):
				return w.errorf(k, "expected ':' after 'case'")
			}
		}
		return w.errorf(len(toks), "expected ':' after 'case'")
	case "default":
		if k := w.skip(j + 1); p.isPunct(k, ':') {
			return w.stmt(w.stmtStart(k+1), need{kw: "label"})
		}
	case "__attribute__", "__declspec":
		k := w.skip(j + 1)
		if p.isPunct(k, '(') {
			e := w.match(k)
			if e < 0 {
				return -1
			}
			return w.stmt(w.stmtStart(e+1), what)
		}
	case "else":
		return w.errorf(j, "'else' without a previous 'if'")
	default:
		if !keywords[string(word)] {
			st := w.save()
			k := w.skip(j + 1)
			if p.isPunct(k, ':') {
				return w.stmt(w.stmtStart(k+1), need{kw: "label"})
			}
			if p.isPunct(k, '(') {
				// NAME(args) followed by a block or a word can only be a
				// macro that expands to a statement header, such as
				// FOR_EACH(i, n) { ... }: the statement is the macro and
				// the statement after it.
				e := w.match(k)
				if e < 0 {
					return -1
				}
				if b := w.skip(e + 1); p.isPunct(b, '{') || b < len(toks) && toks[b].Kind == Ident && !p.isIdent(b, "else") {
					return w.stmt(w.stmtStart(b), what)
				}
			}
			w.restore(st)
		}
	}
	return w.exprStmt(j)
}

// construct returns the last token of directive d and its structured
// block, if it has one.
func (w *walker) construct(d *Directive, what need) int {
	switch d.stmt {
	case StmtNone:
		return w.errorf(d.Tok, "'#pragma omp %s' cannot be the statement after %s", d.Name, what)
	}
	return w.stmt(w.stmtStart(d.LastTok+1), need{d: d})
}

// exprStmt scans an expression statement or declaration to its ';'.
func (w *walker) exprStmt(j int) int {
	p := w.p
	toks := p.toks
	for k := j; k < len(toks); k = w.nextInline(k, toks) {
		t := toks[k]
		if t.Kind == Punct {
			switch t.Sub {
			case ';':
				return k
			case '(', '[', '{':
				if k = w.match(k); k < 0 {
					return -1
				}
			case ')', ']':
				return w.errorf(k, "unbalanced '%c': no '%c' opens it in this statement", t.Sub, opener(t.Sub))
			case '}':
				return w.errorf(k, "expected ';' before '}'")
			}
			continue
		}
		if t.Kind == Preproc && k > j {
			if d := p.dir(k); d != nil && !d.Pomp {
				return w.errorf(k, "expected ';' before '#pragma omp %s'", d.Name)
			}
		}
	}
	return w.errorf(len(toks), "expected ';' before end of file")
}

// match returns the index of the bracket closing the one at j, following
// the walked configuration, or -1 after reporting an error.
func (w *walker) match(j int) int {
	p := w.p
	toks := p.toks
	var stack []int
	for k := j; k < len(toks); k = w.nextInline(k, toks) {
		t := toks[k]
		if t.Kind != Punct {
			continue
		}
		switch t.Sub {
		case '(', '[', '{':
			stack = append(stack, k)
		case ')', ']', '}':
			open := stack[len(stack)-1]
			if want := closer(toks[open].Sub); want != t.Sub {
				return w.errorf(open, "unbalanced '%c': found '%c' at %s before its '%c'", toks[open].Sub, t.Sub, p.posString(k), want)
			}
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				return k
			}
		}
	}
	open := stack[len(stack)-1]
	return w.errorf(open, "unbalanced '%c': no matching '%c' before end of file", toks[open].Sub, closer(toks[open].Sub))
}

func opener(c uint8) uint8 {
	if c == ')' {
		return '('
	}
	return '['
}

func closer(c uint8) uint8 {
	switch c {
	case '(':
		return ')'
	case '[':
		return ']'
	}
	return '}'
}

func (p *parser) posString(k int) string {
	pos := p.f.Position(p.offset(k))
	return fmt.Sprintf("%d:%d", pos.Line, pos.Col)
}

var keywords = map[string]bool{
	"auto": true, "break": true, "case": true, "char": true, "const": true, "continue": true,
	"default": true, "do": true, "double": true, "else": true, "enum": true, "extern": true,
	"float": true, "for": true, "goto": true, "if": true, "inline": true, "int": true, "long": true,
	"register": true, "restrict": true, "return": true, "short": true, "signed": true, "sizeof": true,
	"static": true, "struct": true, "switch": true, "typedef": true, "union": true, "unsigned": true,
	"void": true, "volatile": true, "while": true, "_Bool": true, "_Complex": true, "_Atomic": true,
	"_Alignas": true, "_Alignof": true, "_Generic": true, "_Noreturn": true, "_Static_assert": true,
	"_Thread_local": true, "bool": true, "class": true, "delete": true, "new": true, "public": true,
	"private": true, "protected": true, "template": true, "this": true, "throw": true, "try": true,
	"catch": true, "typename": true, "using": true, "namespace": true, "virtual": true,
	"operator": true, "co_return": true, "co_await": true, "co_yield": true, "static_assert": true,
	"constexpr": true, "consteval": true, "constinit": true, "decltype": true, "noexcept": true,
	"typeid": true, "mutable": true, "friend": true, "explicit": true, "nullptr": true,
	"true": true, "false": true, "asm": true, "__asm__": true, "__extension__": true,
}

// keywordFor holds the loop keywords as strings, for messages.
var keywordFor = map[string]string{"for": "for", "while": "while", "switch": "switch"}
