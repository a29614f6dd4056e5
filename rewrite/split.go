package rewrite

import (
	"strings"

	"gopari/parser"
)

// A leaf is one directive of a split combined construct.
type leaf struct {
	name    string
	clauses []parser.Clause
}

func set(words string) map[string]bool {
	m := make(map[string]bool)
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

const simdClauses = " private lastprivate linear reduction collapse safelen simdlen aligned nontemporal if order"

// leafClauses lists the clauses each leaf accepts (OpenMP 5.2, GCC 12).
var leafClauses = map[string]map[string]bool{
	"parallel":      set("if num_threads default private firstprivate shared copyin reduction proc_bind allocate"),
	"for":           set("private firstprivate lastprivate linear reduction schedule collapse ordered nowait allocate order"),
	"for simd":      set("private firstprivate lastprivate linear reduction schedule collapse ordered nowait allocate order" + simdClauses),
	"sections":      set("private firstprivate lastprivate reduction nowait allocate"),
	"master":        set(""),
	"masked":        set("filter"),
	"loop":          set("bind collapse order private lastprivate reduction"),
	"taskloop":      set("if shared private firstprivate lastprivate reduction in_reduction default grainsize num_tasks collapse final priority untied mergeable nogroup allocate"),
	"taskloop simd": set("if shared private firstprivate lastprivate reduction in_reduction default grainsize num_tasks collapse final priority untied mergeable nogroup allocate" + simdClauses),
}

// privatizing clauses, for placing allocate.
var privatizing = set("private firstprivate lastprivate reduction linear in_reduction")

// A splitter distributes the clauses of one combined directive over its
// leaves.
type splitter struct {
	d         *parser.Directive
	names     []string // the leaves' directive names
	out       []leaf
	par       int      // index of the parallel leaf, or -1
	shared    []string // list items an inner leaf privatizes: shared on the parallel leaf
	allocates []parser.Clause
	warnings  []string
}

// placements say where a clause goes (OpenMP 5.2, section 17.2). A clause
// not listed goes to the first leaf that accepts it.
var placements = map[string]func(*splitter, parser.Clause){
	"if":           (*splitter).placeIf,
	"firstprivate": (*splitter).placeFirstprivate,
	"lastprivate":  (*splitter).placeLastprivate,
	"reduction":    (*splitter).placeReduction,
	"linear":       (*splitter).placeLinear,
	"private":      (*splitter).placePrivate,
	"shared":       (*splitter).placeEverywhere,
	"default":      (*splitter).placeEverywhere,
	"order":        (*splitter).placeEverywhere,
	"allocate":     (*splitter).deferAllocate,
}

// splitCombined distributes the clauses of a combined directive over its
// leaves as OpenMP 5.2, section 17.2, prescribes. Where a data-sharing
// clause moves to an inner leaf of a parallel construct under a default
// clause such as default(none), the list item is made shared on the
// parallel leaf, so that the split code means the same and compiles.
func splitCombined(d *parser.Directive) ([]leaf, []string) {
	sp := &splitter{d: d, names: d.Leaves, out: make([]leaf, len(d.Leaves)), par: -1}
	for i, n := range sp.names {
		sp.out[i].name = n
		if n == "parallel" {
			sp.par = i
		}
	}
	for _, c := range d.Clauses {
		if place := placements[c.Name]; place != nil {
			place(sp, c)
		} else {
			sp.placeFirst(c)
		}
	}
	for _, c := range sp.allocates {
		placeAllocate(sp.out, c)
	}
	sp.shareOnParallel()
	return sp.out, sp.warnings
}

func (sp *splitter) accepts(i int, clause string) bool { return leafClauses[sp.names[i]][clause] }

func (sp *splitter) add(i int, c parser.Clause) { sp.out[i].clauses = append(sp.out[i].clauses, c) }

// innermost returns the last leaf that accepts clause, or -1.
func (sp *splitter) innermost(clause string) int {
	for i := len(sp.names) - 1; i >= 0; i-- {
		if sp.accepts(i, clause) {
			return i
		}
	}
	return -1
}

// share records list items to be made shared on the parallel leaf.
func (sp *splitter) share(items []string) {
	if sp.par >= 0 {
		sp.shared = append(sp.shared, items...)
	}
}

// placeFirst puts a clause on the first leaf that accepts it, or keeps it
// on the last leaf with a warning.
func (sp *splitter) placeFirst(c parser.Clause) {
	for i := range sp.names {
		if sp.accepts(i, c.Name) {
			sp.add(i, c)
			return
		}
	}
	t := len(sp.names) - 1
	sp.warnings = append(sp.warnings, "clause '"+c.Name+"' is not accepted by any leaf of '"+sp.d.Name+"'; it is kept on '"+sp.names[t]+"'")
	sp.add(t, c)
}

// placeIf puts if on every leaf its directive-name modifier names, or on
// every leaf that accepts it when it has none.
func (sp *splitter) placeIf(c parser.Clause) {
	mod, _ := ifModifier(c.Args)
	placed := false
	for i := range sp.names {
		if sp.accepts(i, "if") && (mod == "" || leafHasWord(sp.names[i], mod)) {
			sp.add(i, c)
			placed = true
		}
	}
	if !placed {
		sp.add(len(sp.names)-1, c)
	}
}

// placeFirstprivate puts firstprivate on the worksharing leaf, else on
// the taskloop, else on parallel, else on the innermost leaf accepting it.
func (sp *splitter) placeFirstprivate(c parser.Clause) {
	t := -1
	for i, n := range sp.names {
		if (n == "for" || n == "for simd" || n == "sections") && t < 0 {
			t = i
		}
	}
	if t < 0 {
		for i, n := range sp.names {
			if strings.HasPrefix(n, "taskloop") {
				t = i
			}
		}
	}
	if t < 0 {
		t = sp.par
	}
	if t < 0 {
		t = sp.innermost(c.Name)
	}
	sp.add(t, c)
	if t != sp.par {
		sp.share(listItems(c.Args, ""))
	}
}

// placeLastprivate puts lastprivate on every leaf that accepts it.
func (sp *splitter) placeLastprivate(c parser.Clause) {
	for i := range sp.names {
		if sp.accepts(i, c.Name) {
			sp.add(i, c)
		}
	}
	sp.share(listItems(c.Args, "lastprivate"))
}

// placeReduction puts reduction on every leaf but parallel that accepts
// it, or on parallel when no other leaf does.
func (sp *splitter) placeReduction(c parser.Clause) {
	inner := false
	for i := range sp.names {
		if i != sp.par && sp.accepts(i, c.Name) {
			sp.add(i, c)
			inner = true
		}
	}
	if inner {
		sp.share(listItems(c.Args, "reduction"))
	} else if sp.par >= 0 {
		sp.add(sp.par, c)
	}
}

// placeLinear puts linear on the innermost leaf that accepts it.
func (sp *splitter) placeLinear(c parser.Clause) {
	sp.placeInnermost(c)
	sp.share(listItems(c.Args, "linear"))
}

// placePrivate puts private on the innermost leaf that accepts it.
func (sp *splitter) placePrivate(c parser.Clause) { sp.placeInnermost(c) }

func (sp *splitter) placeInnermost(c parser.Clause) {
	t := sp.innermost(c.Name)
	if t < 0 {
		t = len(sp.names) - 1
	}
	sp.add(t, c)
}

// placeEverywhere puts shared, default and order on every leaf that
// accepts them, or on the last leaf.
func (sp *splitter) placeEverywhere(c parser.Clause) {
	placed := false
	for i := range sp.names {
		if sp.accepts(i, c.Name) {
			sp.add(i, c)
			placed = true
		}
	}
	if !placed {
		sp.add(len(sp.names)-1, c)
	}
}

// deferAllocate keeps allocate for last: it goes where its list items are
// privatized (placeAllocate).
func (sp *splitter) deferAllocate(c parser.Clause) { sp.allocates = append(sp.allocates, c) }

// shareOnParallel adds a shared clause to the parallel leaf for the list
// items that inner leaves privatize, unless parallel names them already,
// when a default clause other than default(shared) makes the parallel
// leaf need it. Without one the items are shared on the parallel leaf
// anyway, and a shared clause of gopari's would give the compiler a
// second place to report a misspelt item at, one the user did not write.
func (sp *splitter) shareOnParallel() {
	if sp.par < 0 || len(sp.shared) == 0 {
		return
	}
	if c, ok := sp.d.Clause("default"); !ok || strings.TrimSpace(c.Args) == "shared" {
		return
	}
	have := make(map[string]bool)
	for _, c := range sp.out[sp.par].clauses {
		switch c.Name {
		case "shared", "private", "firstprivate", "reduction", "copyin":
			for _, it := range listItems(c.Args, c.Name) {
				have[it] = true
			}
		}
	}
	var list []string
	for _, it := range sp.shared {
		if !have[it] && it != "" {
			have[it] = true
			list = append(list, it)
		}
	}
	if len(list) > 0 {
		sp.add(sp.par, parser.Clause{Name: "shared", Args: strings.Join(list, ", "), HasArgs: true})
	}
}

func leafHasWord(leafName, word string) bool {
	for _, w := range strings.Fields(leafName) {
		if w == word {
			return true
		}
	}
	return false
}

// ifModifier splits "parallel: expr" into its directive-name modifier and
// the expression.
func ifModifier(args string) (string, string) {
	i := topLevelColon(args)
	if i < 0 {
		return "", args
	}
	mod := strings.TrimSpace(args[:i])
	for _, c := range mod {
		if !(c == '_' || c == ' ' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return "", args
		}
	}
	if mod == "" {
		return "", args
	}
	return strings.Fields(mod)[len(strings.Fields(mod))-1], strings.TrimSpace(args[i+1:])
}

// topLevelColon returns the index of the last ':' outside brackets that
// is not part of '::', or -1.
func topLevelColon(s string) int {
	depth := 0
	at := -1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ':':
			if depth != 0 {
				continue
			}
			if i+1 < len(s) && s[i+1] == ':' {
				i++
				continue
			}
			if i > 0 && s[i-1] == ':' {
				continue
			}
			at = i
		}
	}
	return at
}

// listItems returns the base variable names of a clause's list: the list
// follows the last top-level colon for clauses with a modifier or
// identifier (reduction, lastprivate(conditional:), allocate), precedes it
// for linear, and array sections name their base variable.
func listItems(args, clause string) []string {
	list := args
	switch clause {
	case "reduction", "lastprivate", "allocate", "in_reduction":
		if i := topLevelColon(args); i >= 0 {
			list = args[i+1:]
		}
	case "linear":
		if i := topLevelColon(args); i >= 0 {
			list = args[:i]
		}
		list = strings.TrimSpace(list)
		for _, m := range []string{"val", "ref", "uval"} {
			if strings.HasPrefix(list, m+"(") && strings.HasSuffix(list, ")") {
				list = list[len(m)+1 : len(list)-1]
			}
		}
	}
	var out []string
	for _, it := range parser.SplitTop(list) {
		out = append(out, baseName(it))
	}
	return out
}

// baseName returns the variable an item names: "a[0:n]" -> "a".
func baseName(item string) string {
	item = strings.TrimSpace(item)
	i := 0
	for i < len(item) && (item[i] == '*' || item[i] == '(' || item[i] == ' ') {
		i++
	}
	j := i
	for j < len(item) && (item[j] == '_' || item[j] == '$' || item[j] >= 'a' && item[j] <= 'z' || item[j] >= 'A' && item[j] <= 'Z' || item[j] >= '0' && item[j] <= '9' || item[j] >= 0x80) {
		j++
	}
	if j == i {
		return item
	}
	return item[i:j]
}

// placeAllocate puts an allocate clause on every leaf that privatizes one
// of its list items, splitting the list where leaves differ.
func placeAllocate(out []leaf, c parser.Clause) {
	prefix := ""
	list := c.Args
	if i := topLevelColon(c.Args); i >= 0 {
		prefix = strings.TrimSpace(c.Args[:i]) + ": "
		list = c.Args[i+1:]
	}
	perLeaf := make([][]string, len(out))
	for _, it := range parser.SplitTop(list) {
		placed := false
		for i, l := range out {
			if leafClauses[l.name]["allocate"] && privatizes(l, baseName(it)) {
				perLeaf[i] = append(perLeaf[i], it)
				placed = true
			}
		}
		if !placed {
			for i := len(out) - 1; i >= 0; i-- {
				if leafClauses[out[i].name]["allocate"] {
					perLeaf[i] = append(perLeaf[i], it)
					break
				}
			}
		}
	}
	for i, items := range perLeaf {
		if len(items) > 0 {
			out[i].clauses = append(out[i].clauses, parser.Clause{Name: "allocate", Args: prefix + strings.Join(items, ", "), HasArgs: true})
		}
	}
}

// privatizes reports whether leaf l has a data-sharing clause that makes a
// private copy of variable v.
func privatizes(l leaf, v string) bool {
	for _, c := range l.clauses {
		if !privatizing[c.Name] {
			continue
		}
		for _, x := range listItems(c.Args, c.Name) {
			if x == v {
				return true
			}
		}
	}
	return false
}
