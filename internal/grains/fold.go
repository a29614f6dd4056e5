package grains

import "math"

// Folding: a grain graph drawn with children below their parent is as
// wide as its widest level, and a run's grains are many siblings (82
// tasks of nqueens under ten parents, 40 parallel regions of a stencil
// side by side): a strip of 12,000 by 500 pixels. Fold wraps each group
// of siblings (the children a fork creates, a group's children in the
// grouped graph, the graph's roots) into rows, the number of columns
// chosen so that the group's block is about as tall as it is wide; an
// invisible layout edge from the bottom of sibling i's block to sibling
// i+C puts the next row below the previous one. A group no wider than
// a given width stays in one row (folding two chunks of a loop into a
// column only makes the graph taller), and so does a group of fewer
// than minFold. The DOT writer gives the
// edges to Graphviz (style=invis); the HTML page draws the nodes where
// the folding puts them: one folding for both.

// A FoldEdge is an edge of the graph to fold: Kind is creation, sync or
// continuation, as written.
type FoldEdge struct {
	From, To int
	Kind     string
}

// A Size is a node's width and height, in any unit, the same for all.
type Size struct{ W, H float64 }

// Spacing is the room Fold leaves, in the unit of the sizes: Gap between
// two ranks, Limit the width a group of siblings may take in one row,
// Edge beside a row for each edge of its group that passes it (from the
// parent to a sibling below, from a sibling above to the join): dot
// routes them between the nodes, as wide as a thin node each.
type Spacing struct{ Gap, Limit, Edge float64 }

type block struct {
	w, h   float64
	bottom int // the lowest node of the block, where the next row hangs
	cols   int // the columns of its packed children
	kidsH  float64
}

// A Folded graph: the layout edges for Graphviz, and where each node
// goes (its centre) in a drawing of W by H, for a drawing of its own.
type Folded struct {
	Edges [][2]int // {from, to}: to goes one rank below from at least
	// Passing counts, over the folded groups, each sibling times the
	// rows its edges pass (from the parent above, to the join below):
	// the long edges that dot must route.
	Passing int
	X, Y    []float64
	W, H    float64
}

type folder struct {
	size []Size
	Spacing
	children  [][]int // creation edges, in order
	cont      [][]int // continuation edges, in order
	blocks    []*block
	out       [][2]int
	passing   int
	roots     bool // packing the roots
	hasParent []bool
}

// Fold folds the graph of the nodes' sizes and edges. A node's parent is
// the first creation or continuation edge to it; other edges do not
// place it.
func Fold(size []Size, sp Spacing, edges []FoldEdge) *Folded {
	f := &folder{size: size, Spacing: sp, children: make([][]int, len(size)), cont: make([][]int, len(size)),
		blocks: make([]*block, len(size)), hasParent: make([]bool, len(size))}
	for _, e := range edges {
		if e.From < 0 || e.To < 0 || e.From >= len(size) || e.To >= len(size) || e.From == e.To || f.hasParent[e.To] {
			continue
		}
		switch e.Kind {
		case "creation":
			f.children[e.From] = append(f.children[e.From], e.To)
		case "continuation":
			f.cont[e.From] = append(f.cont[e.From], e.To)
		default:
			continue // sync edges follow the structure: a join below its fork's children
		}
		f.hasParent[e.To] = true
	}
	var roots []int
	for i := range size {
		if !f.hasParent[i] {
			roots = append(roots, i)
		}
	}
	rb := f.packRoots(roots)
	out := &Folded{Edges: f.out, Passing: f.passing, X: make([]float64, len(size)), Y: make([]float64, len(size)), W: rb.w, H: rb.h}
	f.placePack(out, roots, rb.cols, 0, 0, rb.w)
	return out
}

// place puts node n's block at x, y (its top left corner).
func (f *folder) place(out *Folded, n int, x, y float64) {
	b := f.blocks[n]
	out.X[n], out.Y[n] = x+b.w/2, y+f.size[n].H/2
	y += f.size[n].H
	if kids := f.children[n]; len(kids) > 0 {
		f.placePack(out, kids, b.cols, x, y+f.Gap, b.w)
		y += f.Gap + b.kidsH
	}
	if cont := f.cont[n]; len(cont) > 0 {
		var w float64
		for _, c := range cont {
			w += f.blocks[c].w
		}
		cx := x + (b.w-w)/2
		for _, c := range cont {
			f.place(out, c, cx, y+f.Gap)
			cx += f.blocks[c].w
		}
	}
}

// placePack puts the blocks of siblings in rows of cols, each row
// centred in width.
func (f *folder) placePack(out *Folded, sib []int, cols int, x, y, width float64) {
	for r := 0; r < len(sib); r += cols {
		row := sib[r:min(r+cols, len(sib))]
		var w, h float64
		for _, s := range row {
			w += f.blocks[s].w
			h = math.Max(h, f.blocks[s].h)
		}
		rx := x + (width-w)/2
		for _, s := range row {
			f.place(out, s, rx, y)
			rx += f.blocks[s].w
		}
		y += h + f.Gap
	}
}

// block returns node n's block: n, its children packed below it, then
// what continues from it (a fork's join, a join's next fork), side by
// side.
func (f *folder) block(n int) *block {
	if b := f.blocks[n]; b != nil {
		return b
	}
	b := &block{w: f.size[n].W, h: f.size[n].H, bottom: n}
	f.blocks[n] = b // a cycle (not expected) stops here
	if kids := f.children[n]; len(kids) > 0 {
		p := f.pack(kids)
		b.w = math.Max(b.w, p.w)
		b.h += f.Gap + p.h
		b.bottom, b.cols, b.kidsH = p.bottom, p.cols, p.h
	}
	var w, h float64
	for i, c := range f.cont[n] {
		cb := f.block(c)
		w += cb.w
		if i == 0 || cb.h > h {
			h, b.bottom = cb.h, cb.bottom
		}
	}
	if len(f.cont[n]) > 0 {
		b.w = math.Max(b.w, w)
		b.h += f.Gap + h
	}
	return b
}

// minFold is the fewest siblings Fold wraps: two or three blocks (a
// binary tree's subtrees) stay side by side, where a tree reads best.
const minFold = 4

// packRoots packs the roots, between which no edge passes.
func (f *folder) packRoots(roots []int) *block {
	for _, r := range roots {
		f.block(r)
	}
	edge := f.Edge
	f.Edge, f.roots = 0, true
	defer func() { f.Edge, f.roots = edge, false }()
	return f.pack(roots)
}

// pack wraps the blocks of siblings into rows, and returns the packed
// block. A group wider than the limit gets as many columns as make it
// about square, or more if its rows still fit the limit.
func (f *folder) pack(sib []int) *block {
	bs := make([]*block, len(sib))
	var width float64
	for i, s := range sib {
		bs[i] = f.block(s)
		width += bs[i].w
	}
	if width <= f.Limit || len(sib) < minFold {
		return f.packed(bs, max(len(bs), 1))
	}
	rows := int(math.Ceil(width / f.Limit))
	bestCols := (len(sib) + rows - 1) / rows
	best := f.packed(bs, bestCols)
	for cols := 1; cols <= len(sib); cols++ {
		p := f.packed(bs, cols)
		if cols > bestCols && math.Max(p.w, p.h) < math.Max(best.w, best.h) {
			best, bestCols = p, cols
		}
		if p.h <= p.w {
			break // more columns only widen it
		}
	}
	if !f.roots {
		f.passing += len(sib) * ((len(sib)+bestCols-1)/bestCols - 1)
	}
	for i := bestCols; i < len(sib); i++ {
		f.out = append(f.out, [2]int{bs[i-bestCols].bottom, sib[i]})
	}
	return best
}

// packed is the block of bs in rows of cols; its bottom is that of the
// tallest block of the last row.
func (f *folder) packed(bs []*block, cols int) *block {
	p := &block{bottom: -1, cols: cols}
	for r := 0; r < len(bs); r += cols {
		row := bs[r:min(r+cols, len(bs))]
		w := f.Edge * float64(len(bs)-len(row))
		var h float64
		tallest := -1
		for i, b := range row {
			w += b.w
			if i == 0 || b.h > h {
				h, tallest = b.h, b.bottom
			}
		}
		p.w = math.Max(p.w, w)
		if r > 0 {
			p.h += f.Gap
		}
		p.h += h
		p.bottom = tallest
	}
	return p
}
