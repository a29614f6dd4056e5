package parser

import "gopari/internal/mem"

// The one pass over every token of a large file that starts as soon as
// the scan ends (ParseAsync), on another thread, while the parse goes on
// on this one: the table of open parentheses that the rewrite asks
// (Result.OpenParens) and the tight pass of balance. Both read only the
// tokens. Started here rather than after the parse, they run while the
// parse's passes on one thread (the blocks' walks) leave a core free,
// instead of taking it from the rewrite's walk in chunks; and one pass
// reads the tokens once for both.

// tokenPassMin is the number of tokens from which ParseAsync starts the
// pass beside the parse.
const tokenPassMin = 1 << 16

// A tokenPass is the pass under way.
type tokenPass struct {
	done  chan struct{}
	open  []bool  // OpenParens's table, or nil
	stack []int32 // brackets open at the end, or at bad
	bad   int     // the first closing bracket that fits no opening one, or -1
}

// startTokenPass starts the pass over toks; with parens it builds the
// table of open parentheses too.
func startTokenPass(toks []Token, parens bool) *tokenPass {
	t := &tokenPass{done: make(chan struct{})}
	go func() {
		t.open, t.stack, t.bad = passTokens(toks, parens)
		close(t.done)
	}()
	return t
}

// parens returns the table of open parentheses, waiting for the pass.
func (t *tokenPass) parens() []bool {
	<-t.done
	return t.open
}

// balance returns what p.balance's tight pass returns, waiting for the
// pass: the report of the warning about the first bracket that does not
// fit, or nil.
func (t *tokenPass) balance(p *parser) (warn func()) {
	<-t.done
	p.work += len(p.toks)
	stack := t.stack
	if t.bad >= 0 {
		return p.pair(&stack, t.bad)
	}
	return p.unclosed(stack)
}

// OpenParens returns, for each token of toks and after the last, whether
// a parenthesis is open before it, counting only '(' and ')' and
// ignoring a ')' that closes none. Only that is asked: a byte a token.
func OpenParens(toks []Token) []bool {
	open, _, _ := passTokens(toks, true)
	return open
}

// passTokens is the pass: the table of open parentheses when parens is
// set, and the brackets as balance's tight pass sees them: those left
// open, and the first closing bracket that fits no opening one (-1 when
// none; the stack is then as it was there).
func passTokens(toks []Token, parens bool) (open []bool, stack []int32, bad int) {
	if !parens {
		stack, bad = brackets(toks)
		return nil, stack, bad
	}
	open = mem.Huge[bool](len(toks) + 1)[:len(toks)+1]
	o := open[:len(toks)]
	bad = -1
	d := 0
	for k := range o {
		o[k] = d > 0
		t := &toks[k]
		if t.Kind != Punct || bracketOf[t.Sub] == 0 {
			continue
		}
		switch t.Sub {
		case '(':
			d++
		case ')':
			if d > 0 {
				d--
			}
		}
		if bad >= 0 {
			continue
		}
		if bracketOf[t.Sub] == opens {
			stack = append(stack, int32(k))
		} else if n := len(stack); n > 0 && closer(toks[stack[n-1]].Sub) == t.Sub {
			stack = stack[:n-1]
		} else {
			bad = k
		}
	}
	open[len(toks)] = d > 0
	return open, stack, bad
}

// brackets is passTokens without the table: it stops at the first
// closing bracket that fits no opening one.
func brackets(toks []Token) (stack []int32, bad int) {
	for k := range toks {
		t := &toks[k]
		if t.Kind != Punct || bracketOf[t.Sub] == 0 {
			continue
		}
		if bracketOf[t.Sub] == opens {
			stack = append(stack, int32(k))
		} else if n := len(stack); n > 0 && closer(toks[stack[n-1]].Sub) == t.Sub {
			stack = stack[:n-1]
		} else {
			return stack, k
		}
	}
	return stack, -1
}

// bracketOf tells the brackets among punctuators' Sub bytes: opens or
// closes, or 0.
var bracketOf = [256]uint8{'(': opens, '[': opens, '{': opens, ')': closes, ']': closes, '}': closes}

const (
	opens = 1 + iota
	closes
)
