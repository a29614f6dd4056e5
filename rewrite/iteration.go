package rewrite

import (
	"math"

	"gopari/parser"
)

// Tasks created in a worksharing loop's iterations. A task construct in
// the body of a for loop (lexically, with no construct between them that
// creates tasks or a team: only critical, ordered, taskgroup, master or
// masked) is created by the implicit task that runs the iteration, and
// the iteration names it whatever thread runs it, in any schedule: its
// creation becomes
//
//	POMP_Task_create_begin_iter(r, &pomp_task_ctx, V, LB, STEP)
//
// where V, LB and STEP are the loop variable, its first value and its
// change per iteration (an integer loop; for any other, and for a
// collapsed nest, the offset of the current iteration, 0 and the offset
// per iteration), from the loop's iteration code (gen.iteration), whose
// declarations (pomp_lb0, pomp_s0, ...) the for leaf places before its
// directive, as --chunks does. In profile mode the call costs one
// predictable branch more than POMP_Task_create_begin (pomp.h), and its
// arguments are computed only in the branch not taken there.
//
// The loop variable is read where the task is created: a task that
// follows a declaration of a variable of the same name in the loop's
// body (one that would hide it), or that follows, in C++, a lambda or a
// local class (code that may run outside the iteration, or not see its
// variables), is created as any other.

// taskLoops finds the for constructs whose iteration names the tasks
// created in their body: it fills g.iterTask (task construct -> its
// loop) and g.iterLoop (the loops).
func (g *gen) taskLoops() {
	if g.off[parser.ClassFor] || g.off[parser.ClassTask] {
		return
	}
	shadow := map[*parser.Construct]int{} // a loop's first hiding declaration
	for _, c := range g.pr.Constructs {
		if c.Dir.Class() != parser.ClassTask || c.NoCalls {
			continue
		}
		f := c.Parent
		for f != nil && passThrough[f.Dir.Class()] {
			f = f.Parent
		}
		if f == nil || f.Loop == nil || f.Body < 0 || f.NoCalls {
			continue
		}
		if c.Dir.Pos < int(g.toks[f.Body].Pos) || c.Dir.Pos >= int(g.toks[f.BodyLast].End) {
			continue // in the loop header: not in an iteration
		}
		at, ok := shadow[f]
		if !ok {
			at = g.hidden(f)
			shadow[f] = at
		}
		if c.Dir.Tok >= at {
			continue
		}
		if _, ok := g.iteration(f.Loop.Levels); !ok {
			continue
		}
		if g.iterTask == nil {
			g.iterTask, g.iterLoop = map[*parser.Construct]*parser.Construct{}, map[*parser.Construct]bool{}
		}
		g.iterTask[c], g.iterLoop[f] = f, true
	}
}

// passThrough are the constructs between a for loop and a task construct
// in its body that leave the task created by the iteration's implicit
// task.
var passThrough = [parser.NumClasses]bool{
	parser.ClassCritical: true, parser.ClassOrdered: true, parser.ClassTaskgroup: true, parser.ClassMaster: true,
}

// hidden returns the index of the first token in the body of loop f after
// which a task construct does not read the loop's iteration: a
// declaration of a loop variable's name (a type word before it), or in
// C++ a lambda or a local class; math.MaxInt when there is none.
func (g *gen) hidden(f *parser.Construct) int {
	vars := map[string]bool{}
	for _, l := range f.Loop.Levels {
		vars[g.text(l.Var)] = true
	}
	cxx := g.pr.Config.CPlusPlus
	for k := f.Body; k <= f.BodyLast; k++ {
		t := g.toks[k]
		switch {
		case t.Kind == parser.Ident && vars[g.text(k)] && k > f.Body && g.toks[k-1].Kind == parser.Ident && !notType[g.text(k-1)]:
			return k
		case !cxx:
		case t.Kind == parser.Ident && (g.text(k) == "class" || g.text(k) == "struct" || g.text(k) == "union"):
			return k
		case t.Kind == parser.Punct && t.Sub == '[' && k > f.Body && !subscripted(g.toks[k-1]):
			return k // a lambda's captures
		}
	}
	return math.MaxInt
}

// notType are the keywords that may stand before a variable's name where
// it is used, not declared.
var notType = map[string]bool{"return": true, "case": true, "sizeof": true, "else": true, "do": true, "goto": true}

// subscripted reports whether a '[' after token t is a subscript.
func subscripted(t parser.Token) bool {
	switch t.Kind {
	case parser.Ident, parser.String, parser.Number:
		return true
	case parser.Punct:
		return t.Sub == ']' || t.Sub == ')'
	}
	return false
}

// iterPre writes the iteration code's declarations of a for leaf whose
// body creates tasks named by its iteration, where its chunk code does
// not declare them already.
func (b *leafBuilder) iterPre() {
	if b.chunk != nil || b.s.class != parser.ClassFor || !b.g.iterLoop[b.c] {
		return
	}
	it, _ := b.g.iteration(b.c.Loop.Levels)
	b.g.w(it.pre...)
}

// loopText returns the tokens of s on one line.
func (g *gen) loopText(s parser.Span) string {
	t, _ := g.pr.LoopText(s)
	return t
}

// taskIteration returns the arguments that name the iteration in which
// task construct c is created, or nil.
func (g *gen) taskIteration(c *parser.Construct) []string {
	f := g.iterTask[c]
	if f == nil {
		return nil
	}
	it, _ := g.iteration(f.Loop.Levels)
	if len(f.Loop.Levels) == 1 && integerType(g.loopText(f.Loop.Levels[0].Decl)) {
		return []string{it.value, it.lbv, it.vstep}
	}
	return []string{it.x, "0", it.step}
}
