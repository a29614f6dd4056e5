package fortran

import "strings"

// innerClauses are the clauses that go to the inner leaf of a combined
// parallel construct (OpenMP 5.2, section 17.2): the rest go to parallel.
var innerClauses = map[string]map[string]bool{
	"do":        words("private firstprivate lastprivate linear reduction schedule collapse ordered order allocate"),
	"do simd":   words("private firstprivate lastprivate linear reduction schedule collapse ordered order allocate safelen simdlen aligned nontemporal"),
	"sections":  words("private firstprivate lastprivate reduction allocate"),
	"loop":      words("bind collapse order private lastprivate reduction"),
	"workshare": words(""),
}

// privatizing clauses make their list items shared on the parallel leaf
// when it has a default clause, so that the split code means the same.
var privatizing = words("private firstprivate lastprivate linear reduction")

func words(s string) map[string]bool {
	m := make(map[string]bool)
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// split distributes the clauses of "parallel X" over parallel and X.
func split(cs []clause, inner string) (par, in []clause) {
	accepts := innerClauses[inner]
	hasDefault := false
	for _, c := range cs {
		hasDefault = hasDefault || c.name == "default"
	}
	var shared []string
	for _, c := range cs {
		switch {
		case c.name == "if":
			if m, _, ok := strings.Cut(c.args, ":"); ok && strings.TrimSpace(strings.ToLower(m)) == "simd" {
				in = append(in, c)
			} else {
				par = append(par, c)
			}
		case accepts[c.name]:
			in = append(in, c)
			if hasDefault && privatizing[c.name] {
				shared = append(shared, listItems(c.name, c.args)...)
			}
		default:
			par = append(par, c)
		}
	}
	if len(shared) > 0 {
		par = append(par, clause{name: "shared", args: strings.Join(shared, ", "), hasArgs: true})
	}
	return par, in
}

// listItems returns the variables of a clause's list, after a modifier
// such as "+:" of reduction or before a step such as ":2" of linear.
func listItems(name, args string) []string {
	if i := strings.LastIndex(args, ":"); i >= 0 {
		if name == "linear" {
			args = args[:i] // linear(a, b: 2)
		} else {
			args = args[i+1:] // reduction(+: a, b)
		}
	}
	var out []string
	for _, v := range strings.Split(args, ",") {
		v = strings.TrimSpace(v)
		if i := strings.IndexAny(v, "( "); i >= 0 {
			v = v[:i]
		}
		if v != "" {
			out = append(out, v)
		}
	}
	return out
}
