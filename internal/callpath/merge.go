package callpath

// A Merged is the call paths of an MPI job's ranks: paths match by
// their names (addresses differ from rank to rank), and each has the
// spread of its time and visits over the ranks that recorded call
// paths, a rank without the path counting 0.
type Merged struct {
	Ranks []int        `json:"ranks"` // the ranks merged
	Nodes []MergedNode `json:"nodes"` // node 0 is the root; a parent has a lower ID
}

// A MergedNode is one path over the ranks.
type MergedNode struct {
	Parent   int    `json:"parent"`
	Kind     string `json:"kind"`
	Name     string `json:"name"`
	File     string `json:"file,omitempty"`
	Line     int    `json:"line,omitempty"`
	InclNs   Spread `json:"incl_ns"`
	ExclNs   Spread `json:"excl_ns"`
	Visits   Spread `json:"visits"`
	Children []int  `json:"-"`
}

// A Spread is a quantity over the ranks.
type Spread struct {
	Min  uint64  `json:"min"`
	Mean float64 `json:"mean"`
	Max  uint64  `json:"max"`
}

// Merge merges the trees of ranks (trees[i] is rank ranks[i]'s; nil
// for a rank without call paths, which is left out); nil if none has
// any.
func Merge(ranks []int, trees []*Tree) *Merged {
	m := &Merged{}
	type key struct {
		parent int
		name   string
	}
	byName := map[key]int{}
	var vals [][][3]uint64 // per merged node, per merged rank: incl, excl, visits
	for i, t := range trees {
		if t == nil {
			continue
		}
		r := len(m.Ranks)
		m.Ranks = append(m.Ranks, ranks[i])
		ids := make([]int, len(t.Nodes))
		for id, n := range t.Nodes {
			parent := -1
			if id > 0 {
				parent = ids[n.Parent]
			}
			k := key{parent, n.Name}
			mid, ok := byName[k]
			if !ok {
				mid = len(m.Nodes)
				byName[k] = mid
				m.Nodes = append(m.Nodes, MergedNode{Parent: parent, Kind: n.Kind, Name: n.Name, File: n.File, Line: n.Line})
				vals = append(vals, nil)
				if parent >= 0 {
					m.Nodes[parent].Children = append(m.Nodes[parent].Children, mid)
				}
			}
			ids[id] = mid
			for len(vals[mid]) <= r {
				vals[mid] = append(vals[mid], [3]uint64{})
			}
			vals[mid][r] = [3]uint64{n.InclNs, n.ExclNs, n.Visits}
		}
	}
	if len(m.Ranks) == 0 {
		return nil
	}
	for id := range m.Nodes {
		n := &m.Nodes[id]
		n.InclNs, n.ExclNs, n.Visits = spread(vals[id], 0, len(m.Ranks)), spread(vals[id], 1, len(m.Ranks)), spread(vals[id], 2, len(m.Ranks))
	}
	return m
}

// spread is the spread of the k-th value over n ranks; ranks past the
// end of v count 0.
func spread(v [][3]uint64, k, n int) Spread {
	s := Spread{Min: ^uint64(0)}
	sum := 0.0
	for r := range n {
		x := uint64(0)
		if r < len(v) {
			x = v[r][k]
		}
		s.Min, s.Max = min(s.Min, x), max(s.Max, x)
		sum += float64(x)
	}
	s.Mean = sum / float64(n)
	return s
}

// Hot lists the merged paths whose mean inclusive time is at least
// share of the root's (DefaultShare if share <= 0), top-down, the
// costliest first.
func (m *Merged) Hot(share float64) []Row {
	if share <= 0 {
		share = DefaultShare
	}
	lim := share * m.Nodes[0].InclNs.Mean
	var rows []Row
	var walk func(id, depth int)
	walk = func(id, depth int) {
		rows = append(rows, Row{id, depth})
		c := append([]int(nil), m.Nodes[id].Children...)
		sortBy(c, func(i int) float64 { return m.Nodes[i].InclNs.Mean }, func(i int) string { return m.Nodes[i].Name })
		for _, k := range c {
			if m.Nodes[k].InclNs.Mean >= lim && m.Nodes[k].InclNs.Mean > 0 {
				walk(k, depth+1)
			}
		}
	}
	if m.Nodes[0].InclNs.Mean > 0 {
		walk(0, 0)
	}
	return rows
}
