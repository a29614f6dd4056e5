package fortran

import (
	"regexp"
	"strings"
	"sync"
)

// Loop chunks (Options.Chunks, --chunks): the calls that let the runtime
// record every chunk of a do loop, as rewrite/chunks.go writes them for C
// (pomp.h, "Loop chunks"). X, an iteration's offset from the lower bound
// in the loop's direction, is |I - LB| and advances by |STEP|. A loop
// whose schedule gives each thread one chunk (no schedule, or static
// without a chunk size) counts its iterations in locals; any other calls
// POMP_Chunk_iteration at the top of its body. Both close the thread's
// chunks after the loop.

// A chunkPlan is the chunk code of one do loop.
type chunkPlan struct {
	decls, init, hook, close []string
}

var (
	doHeadRx = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^\s*(?:[a-z]\w*\s*:\s*)?do\s*(?:[0-9]+\s*,?)?\s*([a-z]\w*)\s*=\s*(.*)$`)
	})
	schedRx = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^\s*(?:(?:monotonic|nonmonotonic|simd)\s*(?:,\s*(?:monotonic|nonmonotonic|simd)\s*)?:)?\s*(static|dynamic|guided|auto|runtime)\s*(?:,(.*))?$`)
	})
)

// chunks returns the chunk code of the do loop whose DO statement is item
// loop, for the region reg with clauses cs, or nil with the reason.
func (r *rw) chunks(loop int, reg string, cs []clause) (*chunkPlan, string) {
	size, counting := "0_pomp_handle_kind", false
	sched := []string(nil)
	for _, c := range cs {
		switch {
		case c.name == "collapse" && strings.TrimSpace(c.args) != "1":
			return nil, "it is a collapsed nest"
		case c.name == "ordered" && c.hasArgs:
			return nil, "it is a doacross loop (ordered(n))"
		case c.name == "schedule":
			if sched = schedRx().FindStringSubmatch(c.args); sched == nil {
				return nil, "its schedule clause is not one gopari reads"
			}
		}
	}
	switch {
	case sched == nil || strings.EqualFold(sched[1], "static") && strings.TrimSpace(sched[2]) == "":
		counting = true
	case strings.EqualFold(sched[1], "runtime"):
		size = "-1_pomp_handle_kind"
	case strings.TrimSpace(sched[2]) != "" && (strings.EqualFold(sched[1], "static") || strings.EqualFold(sched[1], "dynamic")):
		size = "int(" + strings.TrimSpace(sched[2]) + ", pomp_handle_kind)"
	case strings.EqualFold(sched[1], "dynamic"):
		size = "1_pomp_handle_kind"
	}
	m := doHeadRx().FindStringSubmatch(r.its[loop].raw)
	if m == nil {
		return nil, "its DO statement has no loop control gopari reads"
	}
	bounds := splitTop(m[2])
	if len(bounds) < 2 || len(bounds) > 3 {
		return nil, "its DO statement has no loop control gopari reads"
	}
	step := "1"
	if len(bounds) == 3 {
		step = bounds[2]
	}
	v := "int(" + m[1] + ", pomp_handle_kind)"
	x := "abs(" + v + " - pomp_lb0)"
	p := &chunkPlan{
		decls: []string{"type(pomp_chunk) :: pomp_ck", "integer(pomp_handle_kind) :: pomp_lb0, pomp_s0"},
		init: []string{"pomp_lb0 = int(" + bounds[0] + ", pomp_handle_kind)",
			"pomp_s0 = int(" + step + ", pomp_handle_kind)"},
	}
	if counting {
		p.decls = append(p.decls, "integer(pomp_handle_kind) :: pomp_cn, pomp_cl, pomp_cs, pomp_cx")
		p.init = append(p.init, "pomp_cn = 0", "pomp_cl = 0", "pomp_cs = 0",
			"call POMP_Chunk_init_count(pomp_ck, "+reg+", abs(pomp_s0), pomp_lb0, pomp_s0)")
		p.hook = []string{"pomp_cx = " + x, "pomp_cn = pomp_cn + 1", "pomp_cl = pomp_cx", "pomp_cs = pomp_cs + pomp_cx"}
		p.close = []string{"call POMP_Chunk_close_count(pomp_ck, pomp_cn, pomp_cl, pomp_cs)"}
	} else {
		p.init = append(p.init, "call POMP_Chunk_init(pomp_ck, "+reg+", abs(pomp_s0), "+size+", pomp_lb0, pomp_s0)")
		p.hook = []string{"call POMP_Chunk_iteration(pomp_ck, " + x + ", " + v + ")"}
		p.close = []string{"call POMP_Chunk_close(pomp_ck)"}
	}
	return p, ""
}

// splitTop cuts s at commas outside parentheses and character contexts.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '(' || c == '[':
			depth++
		case c == ')' || c == ']':
			depth--
		case c == ',' && depth == 0:
			out = append(out, strings.TrimSpace(s[start:i]))
			start = i + 1
		}
	}
	return append(out, strings.TrimSpace(s[start:]))
}
