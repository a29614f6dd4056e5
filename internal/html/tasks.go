package html

import (
	"math"
	"sort"

	"gopari/internal/profile"
)

// A taskRow is one task or taskloop region.
type taskRow struct {
	Label, Where               string
	Created, Executed          uint64
	Undeferred, Suspensions    uint64
	ExecMean, ExecMin, ExecMax float64
	CreateMean                 float64
	Benefit                    float64 // profile.TaskStats.Benefit
	BenefitRating              string
	CreateTotal, ExecTotal     float64
	CreatePct, ExecPct         float64 // of the larger of the two totals
	Sampled                    bool
	MaxDepth                   int
}

func taskRows(p *profile.Profile) []taskRow {
	var out []taskRow
	for _, t := range p.Tasks {
		r := p.Region(t.Region)
		if r == nil {
			continue
		}
		row := taskRow{Label: r.Label(), Where: r.Where(), Created: t.Created, Executed: t.Executed, Undeferred: t.Undeferred,
			Suspensions: t.Suspensions, ExecMean: t.ExecMeanNs(), ExecMin: float64(t.Exec.MinNs), ExecMax: float64(t.Exec.MaxNs),
			CreateMean: t.CreateMeanNs(), Benefit: t.Benefit(), CreateTotal: t.CreateTotalNs(), ExecTotal: t.ExecTotalNs(),
			Sampled: t.Exec.Timed < t.Executed, MaxDepth: t.MaxDepth}
		// Parallel benefit below 1: a task costs more to create than it
		// runs (the grain-graph threshold).
		switch {
		case math.IsNaN(row.Benefit):
			row.BenefitRating = "none"
		case row.Benefit >= 1:
			row.BenefitRating = "good"
		default:
			row.BenefitRating = "poor"
		}
		if m := math.Max(row.CreateTotal, row.ExecTotal); m > 0 {
			row.CreatePct = math.Round(1000*row.CreateTotal/m) / 10
			row.ExecPct = math.Round(1000*row.ExecTotal/m) / 10
		}
		out = append(out, row)
	}
	return out
}

// A treeNode is a region of the task creation tree: its tasks created
// by its parent's, and the regions whose tasks its tasks create.
type treeNode struct {
	Label     string
	Count     uint64 // instances created by the parent region's tasks
	Recursive bool   // a region already on the path: not expanded again
	Children  []*treeNode
}

// creationTree returns the roots of the creation tree: the initial task
// and the regions that create tasks without being created by any.
func creationTree(p *profile.Profile) []*treeNode {
	kids := map[int][]profile.Edge{}
	child := map[int]bool{}
	for _, e := range p.Tree.Edges {
		kids[e.Parent] = append(kids[e.Parent], e)
		if e.Parent != e.Child {
			child[e.Child] = true
		}
	}
	var roots []int
	for parent := range kids {
		if !child[parent] {
			roots = append(roots, parent)
		}
	}
	sort.Ints(roots)
	name := func(id int) string {
		switch id {
		case 0:
			return "initial task"
		case -1:
			return "other parents"
		}
		if r := p.Region(id); r != nil {
			return r.Label() + " " + r.Where()
		}
		return "region ?"
	}
	var grow func(id int, path map[int]bool) []*treeNode
	grow = func(id int, path map[int]bool) []*treeNode {
		es := append([]profile.Edge(nil), kids[id]...)
		sort.SliceStable(es, func(i, j int) bool {
			if es[i].Count != es[j].Count {
				return es[i].Count > es[j].Count
			}
			return es[i].Child < es[j].Child
		})
		var out []*treeNode
		for _, e := range es {
			n := &treeNode{Label: name(e.Child), Count: e.Count}
			if path[e.Child] {
				n.Recursive = true
			} else {
				path[e.Child] = true
				n.Children = grow(e.Child, path)
				delete(path, e.Child)
			}
			out = append(out, n)
		}
		return out
	}
	var out []*treeNode
	for _, id := range roots {
		out = append(out, &treeNode{Label: name(id), Children: grow(id, map[int]bool{id: true})})
	}
	return out
}
