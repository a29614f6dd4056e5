package timeline

import (
	"strconv"
	"strings"

	"gopari/internal/events"
)

// Lineage names a task by where the program's logical structure puts it,
// so that a deterministic program gives the same task the same lineage
// run after run and at any number of threads: a 1-thread baseline and a
// run match grain by grain. A task is named by its creator's name and
// its place among what the creator created in one part of its code, a
// scope:
//
//	R            the initial task (T<os> for another OS thread's)
//	.pK          the K-th parallel region a scope forked: its team
//	.tN          an implicit task's own code, thread N of its team
//	.wN          the N-th worksharing construct of the team (for,
//	             sections, single; every thread meets them in one order):
//	             a single's body
//	.wN.sK       section K of a sections construct
//	.wN#I        logical iteration I of a for loop: the tasks whose
//	             creation record names the iteration (a task construct
//	             in the loop's body), in any schedule and chunking
//	.wN@I        the chunk of a for loop that begins at iteration I
//	             (--chunks): its iterations run in order from I, so the
//	             k-th task it creates is the same task wherever the
//	             chunks of the loop begin at I, whatever their length;
//	             the tasks created there that do not name their iteration
//	             (created by a function the body calls)
//	.K           the K-th task a scope created
//	.tlK         the K-th taskloop a scope executed
//	.lI          that taskloop's task whose first iteration is I
//
// A name that cannot be told is "?": a worksharing construct's part that
// the stream does not identify (a task created outside its loop's body,
// by a function the body calls, in a loop without --chunks or a chunk
// whose first iteration comes at its end; a section of code instrumented
// before sections were numbered), a taskloop whose executions overlap
// (nogroup), iterations not numbered, a task begun without its creation,
// or a stream that does not record worksharing constructs (format 2 in
// grains mode). Everything below such a name has a "?" too: it names no
// grain of another run.
const Unknown = "?"

// A scope numbers what a task creates in one part of its code.
type scope struct {
	lineage                 string
	tasks, forks, taskloops int
}

func (s *scope) child() string {
	s.tasks++
	return s.lineage + "." + strconv.Itoa(s.tasks-1)
}

func (s *scope) fork() string {
	s.forks++
	return s.lineage + ".p" + strconv.Itoa(s.forks-1)
}

func (s *scope) taskloop() string {
	s.taskloops++
	return s.lineage + ".tl" + strconv.Itoa(s.taskloops-1)
}

// worksharing is an implicit task's place in the worksharing constructs
// of its team.
type worksharing struct {
	n      int    // constructs begun
	region uint32 // the construct open, 0 if none
	name   string // its lineage: the team's, .wN
	part   *scope // the part of it being executed
	amb    scope  // the parts the stream does not identify
	iter   int64  // the loop iteration whose tasks it numbers, when it is not nil
	it     *scope // .wN#iter
}

// taskloops are the executions of one taskloop region by one task, for
// naming their tasks.
type taskloops struct {
	open    string // the execution entered and not exited, or ""
	nogroup bool
	pending int    // executions exited whose tasks may still begin (nogroup)
	last    string // the last of them
}

// wsKnown reports whether the stream records the worksharing constructs
// and taskloops that name tasks: trace mode, or format 3.
func wsKnown(exp *events.Experiment) bool {
	return exp.Events.Version >= 3 || exp.Events.Has("trace")
}

// scopeOf returns the scope in which t creates tasks now.
func scopeOf(t *Task) *scope {
	if w := t.ws; w != nil && w.region != 0 {
		return w.part
	}
	if t.own.lineage == "" {
		t.own.lineage = t.Lineage
	}
	return &t.own
}

// implicitScope names implicit task t of team at location loc: thread
// N's own code is .tN of the team.
func (r *Replay) implicitScope(t *Task, team *Team, loc int) {
	num := Unknown
	if r.wsKnown && loc >= 0 && loc < len(r.Locs) {
		p := r.Locs[loc].Path
		num = p[strings.LastIndexByte(p, '.')+1:]
	}
	t.own.lineage = team.Lineage + ".t" + num
}

// region applies an ENTER or EXIT record of task c to the names of what
// c creates: worksharing constructs and their parts on implicit tasks,
// taskloop executions, and the end of a taskwait, after which no
// taskloop task of c's earlier executions begins.
func (r *Replay) region(c *Task, rec *events.Record) {
	reg := r.exp.Region(rec.Region)
	if reg == nil {
		return
	}
	switch reg.Kind {
	case "for", "sections", "single":
		if c.Kind == Implicit {
			r.worksharing(c, reg.Kind, rec)
		}
	case "taskloop":
		if rec.Type == events.EnterConstruct {
			if c.tl == nil {
				c.tl = map[uint32]*taskloops{}
			}
			st := c.tl[rec.Region]
			if st == nil {
				st = &taskloops{nogroup: strings.Contains(reg.Clauses, "nogroup")}
				c.tl[rec.Region] = st
			}
			st.open = scopeOf(c).taskloop()
		} else if st := c.tl[rec.Region]; rec.Type == events.ExitConstruct && st != nil {
			if st.open != "" && st.nogroup {
				st.pending++
				st.last = st.open
			}
			st.open = ""
		}
	case "taskwait":
		if rec.Type == events.ExitConstruct {
			for _, st := range c.tl {
				st.pending = 0
			}
		}
	}
}

func (r *Replay) worksharing(c *Task, kind string, rec *events.Record) {
	w := c.ws
	if w == nil {
		w = &worksharing{}
		c.ws = w
	}
	open := func(name string) {
		w.region, w.name = rec.Region, name
		w.amb = scope{lineage: name + Unknown}
		w.part, w.it = &w.amb, nil
	}
	switch rec.Type {
	case events.EnterConstruct:
		w.n++
		open(c.Team.Lineage + ".w" + strconv.Itoa(w.n-1))
	case events.ExitConstruct:
		if w.region == rec.Region {
			w.region, w.part = 0, nil
		}
	case events.EnterBody:
		if w.region != rec.Region {
			open(c.Team.Lineage + ".w" + Unknown) // its construct's ENTER is missing
		}
		switch {
		case kind == "single":
			w.part = &scope{lineage: w.name}
		case kind == "sections" && rec.N >= 1:
			w.part = &scope{lineage: w.name + ".s" + strconv.FormatUint(rec.Args[0], 10)}
		case kind == "sections":
			w.part = &scope{lineage: w.name + ".s" + Unknown} // not numbered (format 2)
		default:
			w.part = &w.amb // a for loop has no body phase
		}
	case events.ExitBody:
		if w.region == rec.Region {
			w.part = &w.amb
		}
	}
}

// createScope returns the scope in which c creates the task of the
// CREATE_BEGIN record rec: the loop iteration the record names (its second
// word, version 4), when c is an implicit task in a for loop, else the
// scope of c's code.
func (r *Replay) createScope(c *Task, rec *events.Record) *scope {
	w := c.ws
	if rec.N < 2 || c.Kind != Implicit || w == nil || w.region == 0 {
		return scopeOf(c)
	}
	if reg := r.exp.Region(w.region); reg == nil || reg.Kind != "for" {
		return scopeOf(c)
	}
	// An implicit task runs a loop's iterations one after the other: the
	// tasks of one iteration are created together.
	if i := int64(rec.Args[1]); w.it == nil || w.iter != i {
		w.iter, w.it = i, &scope{lineage: w.name + "#" + strconv.FormatInt(i, 10)}
	}
	return w.it
}

// chunk applies a chunk's begin or end on implicit task c: a chunk whose
// first iteration is known names the tasks its iterations create.
func (r *Replay) chunk(c *Task, rec *events.Record) {
	w := c.ws
	if c.Kind != Implicit || w == nil || w.region != rec.Region {
		return
	}
	w.part = &w.amb
	if first := int64(rec.Args[0]); rec.Type == events.ChunkBegin && first != events.UnknownIteration {
		w.part = &scope{lineage: w.name + "@" + strconv.FormatInt(first, 10)}
	} else if rec.Type == events.ChunkBegin {
		w.part = &scope{lineage: w.name + "@" + Unknown}
	}
}

// taskloopLineage names a taskloop task of the encountering task p
// (nil when it is not live) whose first iteration is first: by the
// execution of its region (the only one whose tasks may begin now) and
// its first iteration.
func taskloopLineage(p *Task, region uint32, first int64) string {
	if p == nil {
		return Unknown
	}
	exec := p.Lineage + ".tl" + Unknown
	if st := p.tl[region]; st != nil {
		switch {
		case st.open != "" && st.pending == 0:
			exec = st.open
		case st.open == "" && st.pending == 1:
			exec = st.last
		}
	}
	if first == events.UnknownIteration {
		return exec + ".l" + Unknown
	}
	return exec + ".l" + strconv.FormatInt(first, 10)
}
