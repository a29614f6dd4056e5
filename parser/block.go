package parser

import (
	"fmt"
)

// A walker moves forward through the tokens of one configuration of the
// source: in a conditional group opened after the walk began it follows
// the first branch that can be compiled, and when it meets the #elif,
// #else or #endif of a group that encloses the walk's start, it goes on
// after that group's #endif and remembers that it left the group.
//
// The tokens a walk visits from a given token do not depend on where the
// walk began, only what it records does (the groups it entered or left,
// an #include it met). That makes walks reusable: the statement of a
// directive, once walked, is remembered in the directive (Directive.walked)
// when its walk recorded nothing, and a later walk that reaches the
// directive jumps over it; a walk that failed makes every later walk that
// reaches it fail with the same, already reported, error. Constructs are
// walked innermost first (constructs), so every token is visited by the
// walk of the innermost construct holding it, and finding every block
// takes time linear in the file, however deeply constructs nest.
type walker struct {
	p     *parser
	toks  []Token    // p.toks
	stack *stackNode // groups opened during the walk, innermost first; nil if none

	// left is the outermost group enclosing the start that the walk has
	// left, and leftEnd the token index of the #endif where it did so.
	left    *group
	leftEnd int

	include int // token index of an #include met on the way, or -1

	brackets []open // match's stack, kept for its memory

	// events counts what a remembered walk cannot replay: leaving an
	// enclosing group, meeting an #include.
	events int
	// remember says whether this walk records what it learns in the
	// directives it walks (block's walks do; loopBody's, whose messages
	// are thrown away, do not).
	remember bool
	failed   bool
}

// A stackNode is one entry of the walker's stack of open groups. Nodes
// are never changed, so that saving the stack is keeping a pointer.
type stackNode struct {
	g      *group
	below  *stackNode
	bottom *group // the group at the bottom of the stack: the first one entered
}

func (w *walker) push(g *group) {
	bottom := g
	if w.stack != nil {
		bottom = w.stack.bottom
	}
	w.stack = &stackNode{g: g, below: w.stack, bottom: bottom}
}

// exit handles the end of group g's branch: the end of a group the walk
// entered, or leaving a group that encloses the walk's start.
func (w *walker) exit(g *group) {
	if w.stack != nil && w.stack.g == g {
		w.stack = w.stack.below
		return
	}
	w.left, w.leftEnd = g, g.end
	w.events++
}

type walkState struct {
	stack   *stackNode
	left    *group
	leftEnd int
	include int
	events  int
}

// reset prepares the walker for a new walk.
func (w *walker) reset() {
	w.stack, w.left, w.leftEnd, w.include, w.events, w.failed = nil, nil, -1, -1, 0, false
}

func (w *walker) save() walkState {
	return walkState{stack: w.stack, left: w.left, leftEnd: w.leftEnd, include: w.include, events: w.events}
}

func (w *walker) restore(s walkState) {
	w.stack, w.left, w.leftEnd, w.include, w.events = s.stack, s.left, s.leftEnd, s.include, s.events
}

// skip returns the index of the first token at or after j that the
// compiler would see in the walked configuration: not a conditional,
// macro or other non-pragma preprocessing line, nor skipped text.
// It returns len(toks) at the end of the file.
func (w *walker) skip(j int) int {
	p := w.p
	if j == p.skipFrom && p.skipTo > j {
		// Looking for an else or a catch after nested statements that
		// end together skips the same lines once per level.
		return p.skipTo
	}
	from, stack, events := j, w.stack, w.events
	j = w.skipLines(j)
	if j > from+1 && w.stack == stack && w.events == events {
		p.skipFrom, p.skipTo = from, j
	}
	return j
}

// skipLines is skip, without remembering.
func (w *walker) skipLines(j int) int {
	toks := w.p.toks
	for j < len(toks) {
		w.p.work++
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
			w.push(g)
			j = g.branches[g.take] + 1
			continue
		case PPElif, PPElse:
			g := w.p.groups[j]
			if g == nil || g.end < 0 {
				return len(toks)
			}
			w.exit(g)
			j = g.end + 1
			continue
		case PPEndif:
			if g := w.p.groups[j]; g != nil {
				w.exit(g)
			}
		case PPInclude:
			if w.include < 0 {
				w.include = j
			}
			w.events++
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
		if w.remember && w.p.brackets == nil {
			// A broken file: outer walks may scan what this one did;
			// from now on match remembers every bracket it matches.
			w.p.brackets = make(map[int32]int32)
		}
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
			if d.Pomp || d.class == ClassUnknown || d.class == ClassMeta {
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

// identStmt returns the last token of a statement that starts with an
// identifier or keyword at j.
func (w *walker) identStmt(j int, what need) int {
	switch word := string(w.p.tokBytes(j)); word {
	case "for":
		return w.headedStmt(j, "for")
	case "while":
		return w.headedStmt(j, "while")
	case "switch":
		return w.headedStmt(j, "switch")
	case "if":
		return w.ifStmt(j)
	case "do":
		return w.doStmt(j)
	case "try":
		return w.tryStmt(j)
	case "case":
		return w.caseStmt(j)
	case "default":
		if k := w.skip(j + 1); w.p.isPunct(k, ':') {
			return w.stmt(w.stmtStart(k+1), need{kw: "label"})
		}
	case "__attribute__", "__declspec":
		if last, ok := w.attributedStmt(j, what); ok {
			return last
		}
	case "else":
		return w.errorf(j, "'else' without a previous 'if'")
	default:
		if !keywords[word] {
			if last, ok := w.labelOrMacroStmt(j, what); ok {
				return last
			}
		}
	}
	return w.exprStmt(j)
}

// headedStmt returns the last token of for (…), while (…) or switch (…)
// and its body; kw is the keyword, for messages.
func (w *walker) headedStmt(j int, kw string) int {
	e := w.parens(w.skip(j+1), kw)
	if e < 0 {
		return -1
	}
	return w.stmt(w.stmtStart(e+1), need{kw: kw})
}

// parens returns the index of the ')' closing the '(' that must be at k,
// after the word after, or -1 after reporting an error.
func (w *walker) parens(k int, after string) int {
	if !w.p.isPunct(k, '(') {
		return w.errorf(k, "expected '(' after '%s'", after)
	}
	return w.match(k)
}

// ifStmt returns the last token of an if statement, with its else branch
// if it has one: if (…), if constexpr (…), if consteval, if !consteval.
func (w *walker) ifStmt(j int) int {
	p := w.p
	k := w.skip(j + 1)
	if p.isIdent(k, "constexpr") {
		k = w.skip(k + 1)
	}
	if p.isPunct(k, '!') {
		k = w.skip(k + 1)
	}
	e := k
	if !p.isIdent(k, "consteval") {
		if e = w.parens(k, "if"); e < 0 {
			return -1
		}
	}
	last := w.stmt(w.stmtStart(e+1), need{kw: "if"})
	if last < 0 {
		return -1
	}
	st := w.save()
	if k = w.skip(last + 1); p.isIdent(k, "else") {
		return w.stmt(w.stmtStart(k+1), need{kw: "else"})
	}
	w.restore(st)
	return last
}

// doStmt returns the last token of do … while (…);
func (w *walker) doStmt(j int) int {
	p := w.p
	last := w.stmt(w.stmtStart(j+1), need{kw: "do"})
	if last < 0 {
		return -1
	}
	k := w.skip(last + 1)
	if !p.isIdent(k, "while") {
		return w.errorf(k, "expected 'while' after the body of 'do'")
	}
	e := w.parens(w.skip(k+1), "while")
	if e < 0 {
		return -1
	}
	k = w.skip(e + 1)
	if !p.isPunct(k, ';') {
		return w.errorf(k, "expected ';' after 'do … while (…)'")
	}
	return k
}

// tryStmt returns the last token of try { … } and its catch clauses.
func (w *walker) tryStmt(j int) int {
	p := w.p
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
		e := w.parens(w.skip(k+1), "catch")
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
}

// caseStmt returns the last token of case EXPR: and the statement it
// labels.
func (w *walker) caseStmt(j int) int {
	p, toks := w.p, w.p.toks
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
}

// attributedStmt returns the last token of __attribute__((…)) or
// __declspec(…) and the statement it applies to; ok is false when no
// parenthesis follows.
func (w *walker) attributedStmt(j int, what need) (last int, ok bool) {
	k := w.skip(j + 1)
	if !w.p.isPunct(k, '(') {
		return 0, false
	}
	e := w.match(k)
	if e < 0 {
		return -1, true
	}
	return w.stmt(w.stmtStart(e+1), what), true
}

// labelOrMacroStmt returns the last token of a labelled statement, or of
// a macro that expands to a statement header, NAME(args) followed by a
// block or a word, such as FOR_EACH(i, n) { … }: the statement is the
// macro and the statement after it. ok is false, and the walk unchanged,
// for anything else.
func (w *walker) labelOrMacroStmt(j int, what need) (last int, ok bool) {
	p, toks := w.p, w.p.toks
	st := w.save()
	k := w.skip(j + 1)
	if p.isPunct(k, ':') {
		return w.stmt(w.stmtStart(k+1), need{kw: "label"}), true
	}
	if p.isPunct(k, '(') {
		e := w.match(k)
		if e < 0 {
			return -1, true
		}
		if b := w.skip(e + 1); p.isPunct(b, '{') || b < len(toks) && toks[b].Kind == Ident && !p.isIdent(b, "else") {
			return w.stmt(w.stmtStart(b), what), true
		}
	}
	w.restore(st)
	return 0, false
}

// construct returns the last token of directive d and its structured
// block, if it has one.
func (w *walker) construct(d *Directive, what need) int {
	switch d.stmt {
	case StmtNone:
		return w.errorf(d.Tok, "'#pragma omp %s' cannot be the statement after %s", d.Name, what)
	}
	return w.directiveStmt(d)
}

// directiveStmt returns the last token of the statement after directive
// d, from what an earlier walk remembered if it can.
func (w *walker) directiveStmt(d *Directive) int {
	switch {
	case d.walked > 0:
		return int(d.walked) - 1 // the walk records nothing: nothing to replay
	case d.walked < 0:
		w.failed = true // its error is reported already
		return -1
	}
	st, events := w.stack, w.events
	last := w.stmt(w.stmtStart(d.LastTok+1), need{d: d})
	w.rememberWalk(d, last, w.stack == st && w.events == events)
	return last
}

// rememberWalk records in d the result of walking its statement: the last
// token when the walk recorded nothing (pure), or the failure.
func (w *walker) rememberWalk(d *Directive, last int, pure bool) {
	switch {
	case !w.remember:
	case last < 0:
		d.walked = -1
	case pure:
		d.walked = int32(last + 1)
	}
}

// exprStmt scans an expression statement or declaration to its ';'.
func (w *walker) exprStmt(j int) int {
	p := w.p
	toks := p.toks
	for k := j; k < len(toks); k = w.nextInline(k, toks) {
		p.work++
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
// the walked configuration, or -1 after reporting an error. It jumps over
// the statements of directives that an earlier walk remembered, and once
// any walk has failed, it remembers the brackets it matched and those a
// failure left open (parser.brackets), so that the walks of a broken
// file, which cannot jump over failed statements, do not scan the same
// text again and again.
func (w *walker) match(j int) int {
	p := w.p
	toks := p.toks
	stack := w.brackets[:0]
	defer func() { w.brackets = stack[:0] }()
	for k := j; k < len(toks); k = w.nextInline(k, toks) {
		p.work++
		t := toks[k]
		if t.Kind != Punct {
			if t.Sub&IsDirective != 0 && t.Kind <= Preproc {
				if d := p.dir(k); d != nil && d.walked > 0 {
					k = int(d.walked) - 1
				}
			}
			continue
		}
		switch t.Sub {
		case '(', '[', '{':
			if p.brackets != nil {
				if m, ok := p.brackets[int32(k)]; ok {
					if m < 0 {
						w.failed = true // its error is reported already
						return w.unmatched(stack)
					}
					if len(stack) == 0 {
						return int(m)
					}
					k = int(m)
					continue
				}
			}
			stack = append(stack, open{k, w.stack, w.events})
		case ')', ']', '}':
			o := stack[len(stack)-1]
			if want := closer(toks[o.k].Sub); want != t.Sub {
				w.errorf(o.k, "unbalanced '%c': found '%c' at %s before its '%c'", toks[o.k].Sub, t.Sub, p.posString(k), want)
				return w.unmatched(stack)
			}
			stack = stack[:len(stack)-1]
			if p.brackets != nil && o.stack == w.stack && o.events == w.events {
				p.brackets[int32(o.k)] = int32(k)
			}
			if len(stack) == 0 {
				return k
			}
		}
	}
	o := stack[len(stack)-1]
	w.errorf(o.k, "unbalanced '%c': no matching '%c' before end of file", toks[o.k].Sub, closer(toks[o.k].Sub))
	return w.unmatched(stack)
}

// An open is a bracket match has not closed yet, with the walk's state
// when it opened.
type open struct {
	k      int
	stack  *stackNode
	events int
}

// unmatched remembers that the brackets still open when match failed
// fail every scan that reaches them, with the error just reported: the
// scan meets the same tokens and the same innermost open bracket.
func (w *walker) unmatched(stack []open) int {
	if !w.remember {
		return -1
	}
	if w.p.brackets == nil {
		w.p.brackets = make(map[int32]int32)
	}
	for _, o := range stack {
		w.p.brackets[int32(o.k)] = -1
	}
	return -1
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
