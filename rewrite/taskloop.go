package rewrite

import (
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
	b.p.pre = g.part(func() {
		g.w("{", saveTask, "POMP_Taskloop_task pomp_tl;")
		g.call(b.cl.enter, r, "pomp_old_task", "&pomp_tl")
	})
	if hook {
		b.p.pragma = b.pragma("firstprivate(pomp_tl)")
		g.iterationHook(c)
	} else {
		b.p.pragma = b.pragma()
	}
	b.p.post = g.part(func() {
		g.w(restoreTask)
		g.call(b.cl.exit, r)
		g.w("}")
	})
}

// iterationHook inserts the call that begins a generated task at its
// first iteration at the top of the innermost loop body, bracing the
// body if it is a single statement.
func (g *gen) iterationHook(c *parser.Construct) {
	body, last := g.toks[c.Body], g.toks[c.BodyLast]
	call := "POMP_Taskloop_iteration(&pomp_tl, " + g.firstIteration(c) + ");"
	if body.Kind == parser.Punct && body.Sub == '{' {
		at := int(body.End)
		g.edits.insert(at, g.edits.add([]byte(" "+call)), innerOpenKey(c.Depth))
		return
	}
	at := int(body.Pos)
	g.edits.insert(at, g.edits.add([]byte("{ "+call+" ")), innerOpenKey(c.Depth))
	g.edits.insert(int(last.End), g.edits.add([]byte(" }")), innerCloseKey(c.Depth))
}

// iterationUnknown is POMP_ITERATION_UNKNOWN, written out: preprocessed
// output carries pomp.h without its macros.
const iterationUnknown = "(-0x7fffffffffffffffLL - 1)"

// firstIteration returns the expression the hook reports as the task's
// first iteration: the outermost loop variable when the loop declares it
// with an integer type, else iterationUnknown.
func (g *gen) firstIteration(c *parser.Construct) string {
	toks := g.toks
	j := c.First + 1
	for j < len(toks) && toks[j].Kind >= parser.Preproc {
		j++
	}
	if j >= len(toks) || toks[j].Kind != parser.Punct || toks[j].Sub != '(' {
		return iterationUnknown
	}
	// The declaration: integer type words, then the name, then '='.
	var words []string
	for j++; j < len(toks); j++ {
		t := toks[j]
		if t.Kind >= parser.Preproc {
			continue
		}
		if t.Kind == parser.Ident {
			words = append(words, string(g.src[t.Pos:t.End]))
			continue
		}
		if t.Kind == parser.Punct && t.Sub == '=' && len(words) >= 2 {
			name := words[len(words)-1]
			for _, w := range words[:len(words)-1] {
				if !integerWords[w] {
					return iterationUnknown
				}
			}
			return "(long long)(" + name + ")"
		}
		return iterationUnknown
	}
	return iterationUnknown
}

// integerWords are the words an integer loop variable's type may consist
// of.
var integerWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`int long short char signed unsigned const volatile register
		size_t ssize_t ptrdiff_t intptr_t uintptr_t intmax_t uintmax_t
		int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t
		int_fast8_t int_fast16_t int_fast32_t int_fast64_t uint_fast8_t uint_fast16_t uint_fast32_t uint_fast64_t
		int_least8_t int_least16_t int_least32_t int_least64_t uint_least8_t uint_least16_t uint_least32_t uint_least64_t`) {
		integerWords[w] = true
	}
}
