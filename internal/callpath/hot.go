package callpath

import "sort"

// DefaultShare is the share of the total time below which Hot leaves a
// path out.
const DefaultShare = 0.01

// A Row is a node in the order the views print the tree: top-down,
// children by inclusive time, the costliest first.
type Row struct {
	Node  int
	Depth int
}

// Hot lists the nodes whose inclusive time (Incl: sampled CPU time in a
// sampled run) is at least share of the total (DefaultShare if share <=
// 0), top-down: the hot paths. The root is listed when any path is.
func (t *Tree) Hot(share float64) []Row {
	if share <= 0 {
		share = DefaultShare
	}
	min := share * float64(t.Incl(0))
	var rows []Row
	var walk func(id, depth int)
	walk = func(id, depth int) {
		rows = append(rows, Row{id, depth})
		for _, c := range t.sorted(id) {
			if float64(t.Incl(c)) >= min && t.Incl(c) > 0 {
				walk(c, depth+1)
			}
		}
	}
	if t.Incl(0) > 0 {
		walk(0, 0)
	}
	return rows
}

// sorted is a node's children by inclusive time, the costliest first,
// then by name.
func (t *Tree) sorted(id int) []int {
	c := append([]int(nil), t.Nodes[id].Children...)
	sortBy(c, func(i int) float64 { return float64(t.Incl(i)) }, func(i int) string { return t.Nodes[i].Name })
	return c
}

// sortBy sorts nodes by key, the greatest first, then by name.
func sortBy(c []int, key func(int) float64, name func(int) string) {
	sort.SliceStable(c, func(i, j int) bool {
		if a, b := key(c[i]), key(c[j]); a != b {
			return a > b
		}
		return name(c[i]) < name(c[j])
	})
}
