package rewrite

import (
	"sort"
	"strconv"

	"gopari/parser"
)

// The code of one construct is built in gen.buf, part by part, and then
// copied into the edit arena by join (place.go). A part is a sequence of
// words, calls and pragmas separated by blanks.

// The variables gopari declares are named for the leaf at hand: a
// construct nested in another gets names of its own, so that none hides
// another's (-Wshadow warned about gopari's code in most programs). The
// outermost constructs' are the plain names.

// local returns the name of variable base for the leaf at hand.
func (g *gen) local(base string) string {
	if g.sfx == "" {
		return base
	}
	return base + g.sfx
}

// saveTask and restoreTask return the code that keeps the current task
// across a task scheduling point (pomp.h, TASK IDENTITY) for the leaf at
// hand.
func (g *gen) saveTask() string { return g.word(wSaveTask) }

func (g *gen) restoreTask() string { return g.word(wRestoreTask) }

// setLocals names the variables of leaf i of a construct at depth.
func (g *gen) setLocals(depth, i int) {
	g.sfx, g.sfxN = "", 0
	if n := depth*maxLeaves + i; n > 0 {
		if n < len(suffixes) {
			g.sfx, g.sfxN = suffixes[n], n
		} else {
			g.sfx, g.sfxN = "_"+strconv.Itoa(n), -1
		}
	}
}

// suffixes holds the suffixes of setLocals for the depths most
// constructs nest to: building the string on every leaf cost more than
// the rest of naming its variables.
var suffixes = func() (s [8 * maxLeaves]string) {
	for n := 1; n < len(s); n++ {
		s[n] = "_" + strconv.Itoa(n)
	}
	return s
}()

// A wordKey names a word of generated code that holds the names of the
// leaf's variables.
type wordKey int

const (
	wSaveTask wordKey = iota
	wRestoreTask
	wOldTask
	wTeam
	wTeamDecl   // declares the team of a parallel leaf
	wParallelFP // the firstprivate clause of a parallel leaf
	wTaskID
	wTaskCtx
	wTaskDecl // declares a task's context and ID
	wTaskCtxRef
	wTaskFP // the firstprivate clause of a task
	numWords
)

// wordTexts renders each word for a suffix.
var wordTexts = [numWords]func(sfx string) string{
	wSaveTask:    func(s string) string { return "POMP_Task_handle pomp_old_task" + s + " = POMP_Get_current_task();" },
	wRestoreTask: func(s string) string { return "POMP_Set_current_task(pomp_old_task" + s + ");" },
	wOldTask:     func(s string) string { return "pomp_old_task" + s },
	wTeam:        func(s string) string { return "pomp_team" + s },
	wTeamDecl:    func(s string) string { return "POMP_Task_info pomp_team" + s + " =" },
	wParallelFP:  func(s string) string { return "firstprivate(pomp_old_task" + s + ", pomp_team" + s + ")" },
	wTaskID:      func(s string) string { return "pomp_task_id" + s },
	wTaskCtx:     func(s string) string { return "pomp_task_ctx" + s },
	wTaskDecl: func(s string) string {
		return "POMP_Task_ctx pomp_task_ctx" + s + "; POMP_Task_handle pomp_task_id" + s + " ="
	},
	wTaskCtxRef: func(s string) string { return "&pomp_task_ctx" + s },
	wTaskFP:     func(s string) string { return "firstprivate(pomp_task_id" + s + ", pomp_task_ctx" + s + ")" },
}

// words holds the words for the suffixes of the table suffixes: built on
// every leaf, they cost more than the rest of its code.
var words = func() (t [numWords][len(suffixes)]string) {
	for k := range t {
		for n := range t[k] {
			t[k][n] = wordTexts[k](suffixes[n])
		}
	}
	return t
}()

// word returns word k for the leaf at hand.
func (g *gen) word(k wordKey) string {
	if g.sfxN >= 0 {
		return words[k][g.sfxN]
	}
	return wordTexts[k](g.sfx)
}

// mark appends the marker c (resyncLine, pragmaStart, resyncOptional)
// to gen.buf and notes where, for join: bytes of the user's text that
// gopari copies into the buffer are never markers, whatever their value.
func (g *gen) mark(c byte) {
	g.marks = append(g.marks, len(g.buf))
	g.buf = append(g.buf, c)
}

// resetBuf empties gen.buf for the parts of a construct.
func (g *gen) resetBuf() { g.buf, g.marks = g.buf[:0], g.marks[:0] }

// firstMark returns the index in gen.marks of the first marker at or
// after position from of gen.buf.
func (g *gen) firstMark(from int) int {
	marks := g.marks // in increasing order
	if len(marks) > 8 {
		// Many sections in one construct: a search keeps it linear.
		return sort.SearchInts(marks, from)
	}
	i := 0
	for i < len(marks) && marks[i] < from {
		i++
	}
	return i
}

// part builds one part in gen.buf: build writes words with w, call and
// pragma, which separates them by blanks.
func (g *gen) part(build func()) seg {
	a := len(g.buf)
	g.partStart = a
	build()
	return seg{a, len(g.buf)}
}

// w writes words into the current part.
func (g *gen) w(words ...string) {
	for _, s := range words {
		g.sep()
		g.buf = append(g.buf, s...)
	}
}

func (g *gen) sep() {
	if n := len(g.buf); n > g.partStart && !(len(g.marks) > 0 && g.marks[len(g.marks)-1] == n-1 && g.buf[n-1] != pragmaStart) {
		g.buf = append(g.buf, ' ')
	}
}

// call writes fn(pomp_r(reg), args...);
func (g *gen) call(fn string, reg int, args ...string) {
	g.sep()
	g.buf = append(g.buf, fn...)
	g.buf = append(g.buf, "(pomp_r("...)
	g.regionNumber(reg)
	g.buf = append(g.buf, ')')
	for _, a := range args {
		g.buf = append(g.buf, ", "...)
		g.buf = append(g.buf, a...)
	}
	g.buf = append(g.buf, ");"...)
}

// cleanupVar declares a variable whose cleanup handler delivers the end
// event when cancellation leaves a body.
func (g *gen) cleanupVar(fn string, reg int) {
	g.w("POMP_Region *" + g.local("pomp_end") + " __attribute__((__unused__, __cleanup__(" + fn + "))) =")
	g.sep()
	g.buf = append(g.buf, "pomp_r("...)
	g.regionNumber(reg)
	g.buf = append(g.buf, ");"...)
}

// pragma writes an OpenMP directive as a _Pragma operator, which may
// stand in the middle of a line, so the user's lines keep their numbers.
func (g *gen) pragma(name, arg string, hasArg bool, clauses []parser.Clause, extra ...string) {
	g.sep()
	g.tmp = append(g.tmp[:0], "omp "...)
	g.tmp = append(g.tmp, name...)
	if hasArg {
		g.tmp = append(g.tmp, '(')
		g.tmp = append(g.tmp, arg...)
		g.tmp = append(g.tmp, ')')
	}
	g.tmp = appendClauses(g.tmp, clauses, true)
	for _, e := range extra {
		g.tmp = append(g.tmp, ' ')
		g.tmp = append(g.tmp, e...)
	}
	g.writePragma()
}

// pragmaText writes the OpenMP directive "omp text" as pragma does.
func (g *gen) pragmaText(text string) {
	g.sep()
	g.tmp = append(append(g.tmp[:0], "omp "...), text...)
	g.writePragma()
}

// writePragma writes the directive in g.tmp into the current part.
func (g *gen) writePragma() {
	if g.pragmaLines {
		// A #pragma line, ended by resyncLine: join turns that into a
		// newline and a line marker for the insertion point.
		g.buf = append(g.buf, "\n#pragma "...)
		g.buf = append(g.buf, g.tmp...)
		g.mark(resyncLine)
		return
	}
	g.buf = append(g.buf, "_Pragma("...)
	g.buf = appendQuoted(g.buf, g.tmp)
	g.buf = append(g.buf, ')')
}

// resyncLine stands in generated code for the end of a #pragma line; join
// replaces it with a newline and a line marker restoring the line of the
// insertion point.
const resyncLine = '\x01'

// has reports whether cs holds a clause called name.
func has(cs []parser.Clause, name string) bool {
	for _, c := range cs {
		if c.Name == name {
			return true
		}
	}
	return false
}

// regionDigits returns the decimal form of region index reg: the calls of
// one construct name its region several times.
func (g *gen) regionDigits(reg int) []byte {
	if reg != g.digitsOf || g.digits == nil {
		g.digits, g.digitsOf = itoa(g.digits[:0], reg), reg
	}
	return g.digits
}
