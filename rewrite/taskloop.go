package rewrite

import (
	"fmt"
	"strconv"
	"strings"

	"gopari/parser"
)

// taskloop instruments a taskloop leaf so that every task it generates is
// a task instance (pomp.h, "taskloop"):
//
//	{ save; POMP_Taskloop_task pomp_tl; POMP_Taskloop_enter(r, pomp_old_task, &pomp_tl);
//	  _Pragma("omp taskloop ... firstprivate(pomp_tl)")
//	  for (...) { POMP_Taskloop_iteration(&pomp_tl, FIRST); BODY }
//	  restore; POMP_Taskloop_exit(r); }
//
// Each generated task receives its own copy of pomp_tl, unused until the
// task's first iteration. The hook goes at the top of the body of the
// innermost loop of the nest (the parser finds it, collapse included).
// taskloop simd, whose body lies inside a simd loop where no call may go,
// and loop nests of a shape the parser cannot follow get the construct's
// events only.
func (b *leafBuilder) taskloop() {
	g, c, s, r := b.g, b.c, &b.s, b.r
	hook := s.name == "taskloop" && c.Body >= 0
	if s.name == "taskloop" && c.Body < 0 && c.First >= 0 {
		g.notef(c.Dir.NameOff, "the tasks of this taskloop get no identities: gopari cannot find the body of its loop nest")
	}
	var nest []loopHeader
	kind, value := "", ""
	if hook {
		nest = g.loopNest(c, collapseOf(b.clauses))
		if kind, value = scheduleOf(b.clauses); kind == "" {
			nest = nil
		}
	}
	b.reg.shape = fmt.Sprintf("taskloop hook=%v loops=%d", hook, len(nest))
	tl := g.local("pomp_tl")
	b.p.pre = g.part(func() {
		g.w("{", g.saveTask(), "POMP_Taskloop_task "+tl+";")
		g.call(b.cl.Enter.Name, r, g.local("pomp_old_task"), "&"+tl)
		for i, l := range nest {
			// A variable declared outside the header: its type is the
			// compiler's to tell, and the bounds count only where it is
			// an integer (else the runtime leaves the iterations unnumbered).
			lb, ub := "(long long)("+l.lb+")", "(long long)("+l.ub+")"
			if l.outside {
				lb, ub = g.valueIf(l.v, l.lb), g.valueIf(l.v, l.ub)
			}
			g.w(fmt.Sprintf("POMP_Taskloop_loop(&%s, %d, %s, %s, %s, %d);", tl, i, lb, ub, l.step, l.rel))
		}
		if nest != nil {
			if value != "0" {
				value = "(long long)(" + value + ")"
			}
			g.w(fmt.Sprintf("POMP_Taskloop_schedule(&%s, %s, %s);", tl, kind, value))
		}
	})
	if hook {
		b.p.pragma = b.pragma("firstprivate(" + tl + ")")
		g.iterationHook(c, nest)
	} else {
		b.p.pragma = b.pragma()
	}
	b.p.post = g.part(func() {
		g.w(g.restoreTask())
		g.call(b.cl.Exit.Name, r)
		g.w("}")
	})
}

// iterationHook inserts the call that begins a generated task at its
// first iteration at the top of the innermost loop body, bracing the
// body if it is a single statement. In C the call initialises a variable
// whose cleanup handler ends each iteration (and the task after its last
// one); in C++ the task's copy of pomp_tl ends the task when it is
// destroyed. With a loop nest the runtime can describe, the hook passes
// the loop variables, from which it numbers the iterations.
func (g *gen) iterationHook(c *parser.Construct, nest []loopHeader) {
	body, last := g.toks[c.Body], g.toks[c.BodyLast]
	args := "0"
	fn := "POMP_Taskloop_iteration"
	for i, l := range nest {
		v := "(long long)(" + l.v + ")"
		if l.outside {
			v = g.valueIf(l.v, l.v)
		}
		if i == 0 {
			args = v
		} else {
			args += ", " + v
			fn = "POMP_Taskloop_iteration2"
		}
	}
	call := fn + "(&" + g.local("pomp_tl") + ", " + args + ");"
	if !g.pr.Config.CPlusPlus {
		call = "POMP_Taskloop_task *" + g.local("pomp_tl_it") + " __attribute__((__unused__, __cleanup__(POMP_Taskloop_iteration_end))) = " + call
	}
	if body.Kind == parser.Punct && body.Sub == '{' {
		at := int(body.End)
		g.edits.insert(at, g.edits.add([]byte(" "+call)), innerOpenKey(c.Depth))
		return
	}
	at := int(body.Pos)
	g.edits.insert(at, g.edits.add([]byte("{ "+call+" ")), innerOpenKey(c.Depth))
	g.edits.insert(int(last.End), g.edits.add([]byte(" }")), innerCloseKey(c.Depth))
}

// A loopHeader is a loop of a taskloop's nest as POMP_Taskloop_loop
// describes it: "for (T v = lb; v REL ub; v += step)", or "for (v = lb;
// ...)" with v declared outside (outside), the expressions as C text on
// one line and the test as a POMP_TL_* value.
type loopHeader struct {
	v, lb, ub, step string
	rel             int
	outside         bool
}

// valueIf returns expression e as a long long where loop variable v is
// of an integer type, else POMP_ITERATION_UNKNOWN, which leaves the
// taskloop's iterations unnumbered: the compiler tells the type of a
// variable declared outside the loop header (__builtin_classify_type in
// C, overloads of POMP_Chunk_value in C++). Its values are taken as
// signed: an unsigned variable whose bounds straddle 2^63 makes a loop
// the runtime finds empty, and leaves unnumbered.
func (g *gen) valueIf(v, e string) string {
	if g.pr.Config.CPlusPlus {
		return "POMP_Chunk_value(" + e + ")"
	}
	return "(__builtin_classify_type(" + v + ") == 1 ? (long long)(" + e + ") : " + iterationUnknown + ")"
}

// The tests of pomp.h's POMP_TL_* enum.
const (
	relLT = 1 + iota
	relLE
	relGT
	relGE
	relNE
	relUnsigned = 8
)

// collapseOf returns the collapse count of a taskloop's clauses.
func collapseOf(clauses []parser.Clause) int {
	for _, cl := range clauses {
		if cl.Name == "collapse" {
			if n, err := strconv.Atoi(cl.Args); err == nil {
				return n
			}
		}
	}
	return 1
}

// scheduleOf returns the POMP_TL_* schedule of a taskloop's clauses and
// its value expression, or "" when the expression is not one gopari may
// evaluate once more.
func scheduleOf(clauses []parser.Clause) (kind, value string) {
	kind, value = "POMP_TL_DEFAULT", "0"
	for _, cl := range clauses {
		if cl.Name != "grainsize" && cl.Name != "num_tasks" {
			continue
		}
		kind, value = "POMP_TL_GRAINSIZE", cl.Args
		if cl.Name == "num_tasks" {
			kind = "POMP_TL_NUM_TASKS"
		}
		if m, v, ok := strings.Cut(value, ":"); ok && strings.TrimSpace(m) == "strict" {
			kind, value = kind+"_STRICT", strings.TrimSpace(v)
		}
		if !plainExpr(value) {
			return "", ""
		}
	}
	return kind, value
}

// plainExpr reports whether a clause expression is safe to evaluate
// once more, before the directive: one line, no assignment, increment or
// decrement.
func plainExpr(s string) bool {
	if s == "" || strings.ContainsAny(s, "\n\\\"';") {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '+', '-':
			if i+1 < len(s) && s[i+1] == s[i] {
				return false
			}
		case '=':
			prev := byte(0)
			if i > 0 {
				prev = s[i-1]
			}
			next := byte(0)
			if i+1 < len(s) {
				next = s[i+1]
			}
			if next != '=' && prev != '=' && prev != '<' && prev != '>' && prev != '!' {
				return false
			}
		}
	}
	return true
}

// loopNest reads the headers of the n loops of the taskloop c's nest
// (n at most 2), or returns nil when one is not a loop the runtime can
// number: each must declare its integer variable in its header (or
// assign one declared outside, whose type the compiler checks), test it
// with <, <=, >, >= or !=, step it by a loop-invariant amount, and write
// its expressions without side effects and without the variables of the
// loops around it. Its expressions are evaluated once more, before the
// directive (OpenMP leaves the number of their evaluations unspecified).
func (g *gen) loopNest(c *parser.Construct, n int) []loopHeader {
	if n < 1 || n > 2 {
		return nil
	}
	var nest []loopHeader
	j := c.First
	for level := 0; level < n; level++ {
		if level > 0 {
			if j = g.nextTok(j); g.isPunct(j, '{') {
				j = g.nextTok(j)
			}
		}
		if !g.isWord(j, "for") {
			return nil
		}
		open := g.nextTok(j)
		if !g.isPunct(open, '(') {
			return nil
		}
		l, end, ok := g.loopHeader(open, nest)
		if !ok {
			return nil
		}
		nest = append(nest, l)
		j = end
	}
	return nest
}

func (g *gen) nextTok(i int) int {
	for i++; i < len(g.toks) && g.toks[i].Kind == parser.Skipped; i++ {
	}
	return i
}

func (g *gen) isPunct(i int, c byte) bool {
	return i < len(g.toks) && g.toks[i].Kind == parser.Punct && g.toks[i].Sub == c
}

func (g *gen) isWord(i int, w string) bool {
	return i < len(g.toks) && g.toks[i].Kind == parser.Ident && g.text(i) == w
}

func (g *gen) text(i int) string { t := g.toks[i]; return string(g.src[t.Pos:t.End]) }

// loopHeader reads "(init; test; incr)" from the token at open, and
// returns the loop and the index of its closing parenthesis.
func (g *gen) loopHeader(open int, outer []loopHeader) (l loopHeader, end int, ok bool) {
	var parts [3][2]int // token ranges of init, test and incr
	k, depth, start := 0, 0, open+1
	for i := open + 1; i < len(g.toks); i++ {
		t := g.toks[i]
		if t.Kind >= parser.Preproc {
			return l, 0, false
		}
		if t.Kind != parser.Punct {
			continue
		}
		switch t.Sub {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth == 0 && t.Sub == ')' {
				if k != 2 {
					return l, 0, false
				}
				parts[2] = [2]int{start, i}
				end = i
			}
			depth--
		case ';':
			if depth == 0 {
				if k == 2 {
					return l, 0, false
				}
				parts[k] = [2]int{start, i}
				k++
				start = i + 1
			}
		}
		if end > 0 {
			break
		}
	}
	if end == 0 {
		return l, 0, false
	}
	avoid := []string{}
	for _, o := range outer {
		avoid = append(avoid, o.v)
	}
	unsigned := false
	if l.v, l.lb, unsigned, l.outside, ok = g.loopInit(parts[0][0], parts[0][1]); !ok {
		return l, 0, false
	}
	avoid = append(avoid, l.v)
	if l.ub, l.rel, ok = g.loopTest(parts[1][0], parts[1][1], l.v); !ok {
		return l, 0, false
	}
	if l.step, ok = g.loopIncr(parts[2][0], parts[2][1], l.v); !ok {
		return l, 0, false
	}
	for _, e := range []string{l.lb, l.ub, l.step} {
		for _, w := range strings.FieldsFunc(e, func(r rune) bool { return !isIdentRune(r) }) {
			for _, a := range avoid {
				if w == a {
					return l, 0, false
				}
			}
		}
	}
	if unsigned {
		l.rel |= relUnsigned
	}
	return l, end, true
}

func isIdentRune(r rune) bool {
	return r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= 0x80
}

// loopInit reads "T v = lb" with T integer words, or "v = lb" with v
// declared outside the header.
func (g *gen) loopInit(a, b int) (v, lb string, unsigned, outside, ok bool) {
	var words []string
	i := a
	for ; i < b && g.toks[i].Kind == parser.Ident; i++ {
		words = append(words, g.text(i))
	}
	if len(words) < 1 || !g.isPunct(i, '=') {
		return "", "", false, false, false
	}
	for _, w := range words[:len(words)-1] {
		if !integerWords[w] {
			return "", "", false, false, false
		}
		unsigned = unsigned || unsignedWords[w]
	}
	lb, ok = g.exprText(i+1, b, false)
	return words[len(words)-1], lb, unsigned, len(words) == 1, ok
}

// loopTest reads "v REL ub" or "ub REL v".
func (g *gen) loopTest(a, b int, v string) (ub string, rel int, ok bool) {
	rels := map[string]int{"<": relLT, "<=": relLE, ">": relGT, ">=": relGE, "!=": relNE}
	mirror := map[int]int{relLT: relGT, relLE: relGE, relGT: relLT, relGE: relLE, relNE: relNE}
	if b-a < 3 {
		return "", 0, false
	}
	if g.isWord(a, v) {
		if rel, ok = rels[g.text(a+1)]; ok && g.toks[a+1].Kind == parser.Punct {
			ub, ok = g.exprText(a+2, b, true)
			return ub, rel, ok
		}
	}
	if g.isWord(b-1, v) {
		if rel, ok = rels[g.text(b-2)]; ok && g.toks[b-2].Kind == parser.Punct {
			ub, ok = g.exprText(a, b-2, true)
			return ub, mirror[rel], ok
		}
	}
	return "", 0, false
}

// loopIncr reads the increment: v++, ++v, v--, --v, v += s, v -= s,
// v = v + s, v = s + v, v = v - s. The step is returned as a long long
// expression.
func (g *gen) loopIncr(a, b int, v string) (step string, ok bool) {
	op := func(i int) string {
		if i < b && g.toks[i].Kind == parser.Punct {
			return g.text(i)
		}
		return ""
	}
	switch {
	case b-a == 2 && g.isWord(a, v) && (op(a+1) == "++" || op(a+1) == "--"):
		return map[string]string{"++": "1LL", "--": "-1LL"}[op(a+1)], true
	case b-a == 2 && g.isWord(a+1, v) && (op(a) == "++" || op(a) == "--"):
		return map[string]string{"++": "1LL", "--": "-1LL"}[op(a)], true
	case b-a >= 3 && g.isWord(a, v) && (op(a+1) == "+=" || op(a+1) == "-="):
		if s, ok := g.exprText(a+2, b, false); ok {
			return signed(op(a+1) == "-=", s), true
		}
	case b-a >= 5 && g.isWord(a, v) && op(a+1) == "=" && g.isWord(a+2, v) && (op(a+3) == "+" || op(a+3) == "-"):
		if s, ok := g.exprText(a+4, b, true); ok {
			return signed(op(a+3) == "-", s), true
		}
	case b-a >= 5 && g.isWord(a, v) && op(a+1) == "=" && g.isWord(b-1, v) && op(b-2) == "+":
		if s, ok := g.exprText(a+2, b-2, true); ok {
			return signed(false, s), true
		}
	}
	return "", false
}

func signed(neg bool, s string) string {
	if neg {
		return "-(long long)(" + s + ")"
	}
	return "(long long)(" + s + ")"
}

// exprText returns tokens a..b as one line of C text, or false when they
// may have side effects (assignments, increments), hold a comma operator
// or a preprocessor line, or, with tight, an operator that binds less
// tightly than a multiplication (so that the text is one operand of the
// comparison or addition it was taken from).
func (g *gen) exprText(a, b int, tight bool) (string, bool) {
	if a >= b {
		return "", false
	}
	var sb strings.Builder
	depth := 0
	for i := a; i < b; i++ {
		t := g.toks[i]
		x := g.text(i)
		switch {
		case t.Kind >= parser.Preproc, strings.ContainsAny(x, "\n\\"), t.Kind == parser.Ident && x == "_Pragma":
			return "", false
		case t.Kind == parser.Punct:
			switch x {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				depth--
			case "=", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=":
				return "", false
			case ",":
				if depth == 0 {
					return "", false
				}
			case "+", "-", "<<", ">>", "<", ">", "<=", ">=", "==", "!=", "&", "^", "|", "&&", "||", "?", ":":
				if tight && depth == 0 && i > a {
					return "", false
				}
			}
		}
		if i > a {
			sb.WriteByte(' ')
		}
		sb.WriteString(x)
	}
	return sb.String(), true
}

// iterationUnknown is POMP_ITERATION_UNKNOWN, written out: preprocessed
// output carries pomp.h without its macros.
const iterationUnknown = "(-0x7fffffffffffffffLL - 1)"

// integerWords are the words an integer loop variable's type may consist
// of.
var integerWords = map[string]bool{}

// unsignedWords are those of them that make it unsigned.
var unsignedWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`int long short char signed unsigned const volatile register
		size_t ssize_t ptrdiff_t intptr_t uintptr_t intmax_t uintmax_t
		int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t
		int_fast8_t int_fast16_t int_fast32_t int_fast64_t uint_fast8_t uint_fast16_t uint_fast32_t uint_fast64_t
		int_least8_t int_least16_t int_least32_t int_least64_t uint_least8_t uint_least16_t uint_least32_t uint_least64_t`) {
		integerWords[w] = true
		if w == "unsigned" || w == "size_t" || strings.HasPrefix(w, "uint") {
			unsignedWords[w] = true
		}
	}
}
