package html

import (
	"encoding/json"
	"fmt"
	"html/template"
	"math"
	"path/filepath"
	"sort"

	"gopari/internal/callpath"
	"gopari/internal/profile"
)

// flameShare is the share of the total time below which the page's
// flame chart leaves a path out: narrower than a pixel in any window.
const flameShare = 0.001

// flameData is the call tree for the script's icicle chart, in the
// order callpath.Tree.Hot lists it (top-down, a node's children
// costliest first), one entry per array and node.
type flameData struct {
	Names  []string `json:"n"`
	Parent []int    `json:"p"` // index in these arrays; -1 for the root
	Depth  []int    `json:"d"`
	Incl   []uint64 `json:"i"`
	Excl   []uint64 `json:"e"`
	Visits []uint64 `json:"c"`
	Where  []string `json:"w"` // file:line, "" where unknown
}

// callPaths sets the page's call-path section from p's call paths, if
// it has any; what could not be resolved or read becomes a warning.
func (pg *page) callPaths(p *profile.Profile) error {
	t, err := callpath.FromProfile(p)
	if err != nil {
		pg.Head.Warnings = append(pg.Head.Warnings, fmt.Sprintf("the call paths cannot be shown: %v", err))
		return nil
	}
	if t == nil {
		return nil
	}
	pg.Head.Warnings = append(pg.Head.Warnings, t.Warnings...)
	rows := t.Hot(flameShare)
	if len(rows) == 0 {
		return nil
	}
	d := flameData{}
	at := make(map[int]int, len(rows))
	for i, r := range rows {
		n := &t.Nodes[r.Node]
		at[r.Node] = i
		parent := -1
		if n.Parent >= 0 {
			parent = at[n.Parent]
		}
		where := ""
		if n.File != "" {
			where = fmt.Sprintf("%s:%d", filepath.Base(n.File), n.Line)
		}
		d.Names, d.Parent, d.Depth = append(d.Names, n.Name), append(d.Parent, parent), append(d.Depth, r.Depth)
		d.Incl, d.Excl, d.Visits, d.Where = append(d.Incl, t.Incl(r.Node)), append(d.Excl, t.Excl(r.Node)), append(d.Visits, n.Visits), append(d.Where, where)
	}
	b, err := json.Marshal(d) // escapes <, > and &: safe inside a script element
	if err != nil {
		return err
	}
	pg.Flame = template.JS(b)
	pg.FlamePaths, pg.FlameAll = len(rows), len(t.Nodes)
	if sg := t.Sampling; sg != nil {
		pg.FlameSampled = fmt.Sprintf("the %s time of %d samples at %d Hz", sg.Clock, sg.Samples, sg.Hz)
	}
	return nil
}

// mergedCallPaths sets a job page's call-path section from the ranks'
// merged call paths (callpath.Merge), as gopari report prints them: each
// path as wide as its inclusive time summed over the ranks (the mean
// times the ranks), its callees below it, costliest first, those under
// flameShare of the total left out.
func (pg *page) mergedCallPaths(m *callpath.Merged) error {
	if m == nil || len(m.Nodes) == 0 || len(m.Ranks) == 0 {
		return nil
	}
	ranks := float64(len(m.Ranks))
	sum := func(s callpath.Spread) uint64 { return uint64(math.Round(s.Mean * ranks)) }
	total := sum(m.Nodes[0].InclNs)
	if total == 0 {
		return nil
	}
	d := flameData{}
	var walk func(id, parent, depth int)
	walk = func(id, parent, depth int) {
		n := &m.Nodes[id]
		incl := sum(n.InclNs)
		if id != 0 && float64(incl) < flameShare*float64(total) {
			return
		}
		where := ""
		if n.File != "" {
			where = fmt.Sprintf("%s:%d", filepath.Base(n.File), n.Line)
		}
		at := len(d.Names)
		d.Names, d.Parent, d.Depth = append(d.Names, n.Name), append(d.Parent, parent), append(d.Depth, depth)
		d.Incl, d.Excl, d.Visits, d.Where = append(d.Incl, incl), append(d.Excl, sum(n.ExclNs)), append(d.Visits, sum(n.Visits)), append(d.Where, where)
		kids := append([]int(nil), n.Children...)
		sort.SliceStable(kids, func(i, j int) bool { return m.Nodes[kids[i]].InclNs.Mean > m.Nodes[kids[j]].InclNs.Mean })
		for _, c := range kids {
			walk(c, at, depth+1)
		}
	}
	walk(0, -1, 0)
	b, err := json.Marshal(d)
	if err != nil {
		return err
	}
	pg.Flame = template.JS(b)
	pg.FlamePaths, pg.FlameAll = len(d.Names), len(m.Nodes)
	return nil
}
