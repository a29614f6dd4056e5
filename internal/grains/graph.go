package grains

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
)

// A Graph is a grain graph being collected: grain nodes, fork and join
// nodes, creation, synchronisation and continuation edges, laid out by
// structure (children below their parent), not by time. Past MaxNodes
// nodes it gives up the instance graph and keeps only the graph grouped
// by region and lineage depth, whose size does not grow with the run.
type Graph struct {
	MaxNodes int
	nodes    []node
	edges    []edge
	byTask   map[uint64]int
	forks    map[epochKey]int
	joins    map[epochKey]int
	lastJoin map[int]int // parent node -> its latest join node
	teams    map[int]int
	loopFork map[LoopKey]int
	loopJoin map[LoopKey]int
	teamLast map[int]int // team node -> the join of its latest loop
	Grouped  bool
	grains   int64
	groups   map[groupKey]*node
	gedges   map[[2]groupKey]int64
	maxExec  float64
}

type epochKey struct{ parent, epoch int }

type groupKey struct {
	kind   string
	region uint32
	depth  int
}

type node struct {
	kind     string // task, taskloop, chunk, fork, join, team, group
	label    string
	region   uint32
	lineage  string
	thread   string // team path of the thread that began it, as the CSV's
	execNs   float64
	benefit  float64
	problems Problem
	count    int64
	set      bool
}

type edge struct {
	from, to int
	kind     string // creation, sync, continuation
}

// NewGraph returns a graph that keeps at most maxNodes instance nodes.
func NewGraph(maxNodes int) *Graph {
	return &Graph{MaxNodes: maxNodes, byTask: map[uint64]int{}, forks: map[epochKey]int{}, joins: map[epochKey]int{},
		lastJoin: map[int]int{}, teams: map[int]int{}, loopFork: map[LoopKey]int{}, loopJoin: map[LoopKey]int{},
		teamLast: map[int]int{}, groups: map[groupKey]*node{}, gedges: map[[2]groupKey]int64{}}
}

func (gr *Graph) newNode(n node) int {
	gr.nodes = append(gr.nodes, n)
	return len(gr.nodes) - 1
}

func (gr *Graph) link(from, to int, kind string) { gr.edges = append(gr.edges, edge{from, to, kind}) }

func (gr *Graph) taskNode(id uint64) int {
	if n, ok := gr.byTask[id]; ok {
		return n
	}
	n := gr.newNode(node{kind: "task", label: "task 0x" + strconv.FormatUint(id, 16)})
	gr.byTask[id] = n
	return n
}

func (gr *Graph) teamNode(a *Analysis, team int) int {
	if n, ok := gr.teams[team]; ok {
		return n
	}
	label := "initial task"
	if team >= 0 {
		label = "parallel region " + strconv.Itoa(team)
	}
	n := gr.newNode(node{kind: "team", label: label, set: true})
	gr.teams[team] = n
	return n
}

// epoch returns the fork and join nodes of parent p's epoch e.
func (gr *Graph) epoch(p, e int) (int, int) {
	k := epochKey{p, e}
	if f, ok := gr.forks[k]; ok {
		return f, gr.joins[k]
	}
	f := gr.newNode(node{kind: "fork", set: true})
	j := gr.newNode(node{kind: "join", set: true})
	if prev, ok := gr.lastJoin[p]; ok {
		gr.link(prev, f, "continuation")
	} else {
		gr.link(p, f, "continuation")
	}
	gr.link(f, j, "continuation")
	gr.lastJoin[p] = j
	gr.forks[k], gr.joins[k] = f, j
	return f, j
}

func (gr *Graph) add(a *Analysis, g *Grain, m *Metrics) {
	gr.grains++
	if m.ExecNs > gr.maxExec {
		gr.maxExec = m.ExecNs
	}
	gr.group(a, g, m)
	if gr.Grouped {
		return
	}
	if len(gr.nodes) > gr.MaxNodes {
		gr.Grouped = true
		gr.nodes, gr.edges, gr.byTask, gr.forks, gr.joins = nil, nil, nil, nil, nil
		return
	}
	info := node{kind: g.Kind.String(), label: label(a, g.Region), region: g.Region, lineage: g.Lineage, thread: a.path(g.Loc),
		execNs: m.ExecNs, benefit: m.Benefit, problems: m.Problems, count: 1, set: true}
	if g.Kind == Chunk {
		n := gr.newNode(info)
		f, ok := gr.loopFork[g.Loop]
		if !ok {
			t := gr.teamNode(a, g.Team)
			f = gr.newNode(node{kind: "fork", set: true})
			j := gr.newNode(node{kind: "join", set: true})
			if prev, ok := gr.teamLast[t]; ok {
				gr.link(prev, f, "continuation")
			} else {
				gr.link(t, f, "continuation")
			}
			gr.link(f, j, "continuation")
			gr.teamLast[t] = j
			gr.loopFork[g.Loop], gr.loopJoin[g.Loop] = f, j
		}
		gr.link(f, n, "creation")
		gr.link(n, gr.loopJoin[g.Loop], "sync")
		return
	}
	n := gr.taskNode(g.ID)
	gr.nodes[n] = info
	var p int
	if g.ParentRegion != 0 {
		p = gr.taskNode(g.Parent)
	} else {
		p = gr.teamNode(a, g.Team)
	}
	f, j := gr.epoch(p, g.Epoch)
	gr.link(f, n, "creation")
	gr.link(n, j, "sync")
}

// group adds g to the grouped graph: one node per kind, region and
// lineage depth, edges counting parent-child pairs.
func (gr *Graph) group(a *Analysis, g *Grain, m *Metrics) {
	depth := strings.Count(g.Lineage, ".")
	k := groupKey{g.Kind.String(), g.Region, depth}
	n := gr.groups[k]
	if n == nil {
		n = &node{kind: "group", label: fmt.Sprintf("%s (depth %d)", label(a, g.Region), depth), region: g.Region, benefit: math.NaN(), set: true}
		gr.groups[k] = n
	}
	n.count++
	n.execNs += m.ExecNs
	n.problems |= m.Problems
	var pk groupKey
	switch {
	case g.Kind == Chunk || g.ParentRegion == 0:
		pk = groupKey{"team", 0, 0}
		if gr.groups[pk] == nil {
			gr.groups[pk] = &node{kind: "team", label: "parallel regions and initial task", benefit: math.NaN(), set: true}
		}
	default:
		kind := "task"
		if r := a.Exp.Region(g.ParentRegion); r != nil && r.Kind == "taskloop" {
			kind = "taskloop"
		}
		pk = groupKey{kind, g.ParentRegion, depth - 1}
	}
	gr.gedges[[2]groupKey{pk, k}]++
}

// Nodes returns the number of nodes the graph will write.
func (gr *Graph) Nodes() int {
	if gr.Grouped {
		return len(gr.groups)
	}
	return len(gr.nodes)
}

// Grains returns the number of grains added.
func (gr *Graph) Grains() int64 { return gr.grains }

type outNode struct {
	id string
	n  *node
}

type outEdge struct {
	from, to, kind string
	count          int64
}

// layout returns the nodes and edges to write, in a fixed order.
func (gr *Graph) layout() ([]outNode, []outEdge) {
	var ns []outNode
	var es []outEdge
	if !gr.Grouped {
		for i := range gr.nodes {
			ns = append(ns, outNode{"n" + strconv.Itoa(i), &gr.nodes[i]})
		}
		for _, e := range gr.edges {
			es = append(es, outEdge{"n" + strconv.Itoa(e.from), "n" + strconv.Itoa(e.to), e.kind, 1})
		}
		return ns, es
	}
	keys := make([]groupKey, 0, len(gr.groups))
	for k := range gr.groups {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a.depth != b.depth {
			return a.depth < b.depth
		}
		if a.kind != b.kind {
			return a.kind < b.kind
		}
		return a.region < b.region
	})
	ids := map[groupKey]string{}
	for i, k := range keys {
		ids[k] = "g" + strconv.Itoa(i)
		ns = append(ns, outNode{ids[k], gr.groups[k]})
	}
	for k, c := range gr.gedges {
		from, ok := ids[k[0]]
		if !ok {
			continue // a parent group with no grain of its own (a task not measured)
		}
		es = append(es, outEdge{from, ids[k[1]], "creation", c})
	}
	sort.Slice(es, func(i, j int) bool {
		if es[i].from != es[j].from {
			return es[i].from < es[j].from
		}
		return es[i].to < es[j].to
	})
	return ns, es
}

var palette = []string{"#8dd3c7", "#ffffb3", "#bebada", "#80b1d3", "#fdb462", "#b3de69", "#fccde5", "#d9d9d9", "#bc80bd", "#ccebc5", "#ffed6f", "#a6cee3"}

func (n *node) color() string {
	switch n.kind {
	case "fork", "join":
		return "#000000"
	case "team":
		return "#ffffff"
	}
	return palette[int(n.region)%len(palette)]
}

// size is a node's width in inches: it grows with the square root of its
// execution time.
func (gr *Graph) size(n *node) float64 {
	if gr.maxExec <= 0 || n.execNs <= 0 {
		return 0.4
	}
	return 0.4 + 1.6*math.Sqrt(n.execNs/gr.maxExec)
}

func timeLabel(ns float64) string {
	switch {
	case ns >= 1e9:
		return fmt.Sprintf("%.2f s", ns/1e9)
	case ns >= 1e6:
		return fmt.Sprintf("%.2f ms", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.1f µs", ns/1e3)
	}
	return fmt.Sprintf("%.0f ns", ns)
}

func (gr *Graph) nodeLabel(n *node) string {
	switch n.kind {
	case "fork", "join":
		return ""
	case "team":
		return n.label
	case "group":
		return fmt.Sprintf("%s\n%d grains, %s", n.label, n.count, timeLabel(n.execNs))
	}
	return fmt.Sprintf("%s\n%s", n.label, timeLabel(n.execNs))
}

// dotQuote quotes s as a DOT string.
func dotQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '\n':
			b.WriteString(`\n`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// WriteDOT writes the graph for Graphviz (dot -Tsvg).
func (gr *Graph) WriteDOT(w io.Writer, title string) error {
	bw := bufio.NewWriter(w)
	ns, es := gr.layout()
	fmt.Fprintf(bw, "digraph grains {\n\tgraph [rankdir=TB, fontname=\"Helvetica\", label=%s, labelloc=t];\n", dotQuote(title))
	fmt.Fprintf(bw, "\tnode [fontname=\"Helvetica\", fontsize=10, style=filled];\n\tedge [arrowsize=0.5];\n")
	for _, o := range ns {
		n := o.n
		switch n.kind {
		case "fork":
			fmt.Fprintf(bw, "\t%s [shape=triangle, width=0.15, height=0.15, label=\"\", fillcolor=\"#000000\"];\n", o.id)
		case "join":
			fmt.Fprintf(bw, "\t%s [shape=invtriangle, width=0.15, height=0.15, label=\"\", fillcolor=\"#000000\"];\n", o.id)
		default:
			shape := "box"
			if n.kind == "chunk" {
				shape = "ellipse"
			} else if n.kind == "team" {
				shape = "octagon"
			}
			border := `color="#555555", penwidth=1`
			if n.problems != 0 {
				border = `color="#e41a1c", penwidth=4`
			}
			sz := gr.size(n)
			fmt.Fprintf(bw, "\t%s [shape=%s, label=%s, fillcolor=%s, %s, width=%.2f, height=%.2f, tooltip=%s];\n",
				o.id, shape, dotQuote(gr.nodeLabel(n)), dotQuote(n.color()), border, sz, sz*0.6, dotQuote(n.lineage+" "+n.problems.Names(" ")))
		}
	}
	for _, e := range gr.fold(ns, es) {
		// Layout only: the next row of a group of siblings goes below.
		fmt.Fprintf(bw, "\t%s -> %s [style=invis];\n", ns[e[0]].id, ns[e[1]].id)
	}
	for _, e := range es {
		style := ""
		switch e.kind {
		case "sync":
			style = " [style=dashed]"
		case "continuation":
			style = " [color=\"#999999\"]"
		}
		if e.count > 1 {
			style = fmt.Sprintf(" [label=%q]", strconv.FormatInt(e.count, 10))
		}
		fmt.Fprintf(bw, "\t%s -> %s%s;\n", e.from, e.to, style)
	}
	fmt.Fprintf(bw, "}\n")
	return bw.Flush()
}

// maxPassing is the most long edges past folded rows (Folded.Passing)
// that dot lays out in seconds: 1,200 took it 0.8 s, 11,000 36 s, on a
// 2-core VM. make grains-demo's nqueens has 184, its heat none. A graph
// that needs more is written unfolded, as wide as it is: the HTML page
// folds it.
const maxPassing = 1500

// fold returns the layout edges that fold the graph (Fold), by index in
// ns, for dot's sizes: inches, ranks 0.5 in apart, a label's line of
// Helvetica at 10 pt about 0.075 in a character, 0.25 in between nodes;
// a group of siblings up to 10 in wide stays in one row. dot does not
// stack the rows of a group in columns as tight as Fold's, and routes
// the edges that pass them between their nodes: on make grains-demo's
// graphs it draws about 1.7 times the width Fold counts, which the
// sizes allow for (the heights it keeps).
func (gr *Graph) fold(ns []outNode, es []outEdge) [][2]int {
	index := make(map[string]int, len(ns))
	sizes := make([]Size, len(ns))
	for i, o := range ns {
		index[o.id] = i
		switch o.n.kind {
		case "fork", "join":
			sizes[i] = Size{0.15 + 0.25, 0.15}
			continue
		}
		w := gr.size(o.n)
		for _, l := range strings.Split(gr.nodeLabel(o.n), "\n") {
			w = math.Max(w, 0.075*float64(len([]rune(l)))+0.2)
		}
		sizes[i] = Size{1.7 * (w + 0.25), gr.size(o.n) * 0.6}
	}
	fe := make([]FoldEdge, len(es))
	for i, e := range es {
		fe[i] = FoldEdge{index[e.from], index[e.to], e.kind}
	}
	f := Fold(sizes, Spacing{Gap: 0.5, Limit: 10, Edge: 0.3}, fe)
	if f.Passing > maxPassing {
		return nil
	}
	return f.Edges
}

var graphmlKeys = []struct{ id, typ string }{
	{"kind", "string"}, {"label", "string"}, {"region", "int"}, {"lineage", "string"}, {"thread", "string"},
	{"exec_ns", "double"}, {"parallel_benefit", "double"}, {"problems", "string"}, {"grains", "long"},
	{"color", "string"}, {"size", "double"},
}

// WriteGraphML writes the graph as GraphML, which yEd and Gephi open;
// node attributes carry the metrics, color and size.
func (gr *Graph) WriteGraphML(w io.Writer) error {
	bw := bufio.NewWriter(w)
	ns, es := gr.layout()
	esc := func(s string) string {
		var b strings.Builder
		xml.EscapeText(&b, []byte(s))
		return b.String()
	}
	bw.WriteString(xml.Header)
	bw.WriteString(`<graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">` + "\n")
	for _, k := range graphmlKeys {
		fmt.Fprintf(bw, "  <key id=%q for=\"node\" attr.name=%q attr.type=%q/>\n", k.id, k.id, k.typ)
	}
	fmt.Fprintf(bw, "  <key id=\"etype\" for=\"edge\" attr.name=\"type\" attr.type=\"string\"/>\n")
	fmt.Fprintf(bw, "  <key id=\"count\" for=\"edge\" attr.name=\"count\" attr.type=\"long\"/>\n")
	fmt.Fprintf(bw, "  <graph id=\"grains\" edgedefault=\"directed\">\n")
	for _, o := range ns {
		n := o.n
		fmt.Fprintf(bw, "    <node id=%q>", o.id)
		data := func(k, v string) { fmt.Fprintf(bw, "<data key=%q>%s</data>", k, esc(v)) }
		data("kind", n.kind)
		if l := gr.nodeLabel(n); l != "" {
			data("label", strings.ReplaceAll(l, "\n", " "))
		}
		if n.region > 0 {
			data("region", strconv.Itoa(int(n.region)))
		}
		if n.lineage != "" {
			data("lineage", n.lineage)
		}
		if n.thread != "" {
			data("thread", n.thread)
		}
		if n.execNs > 0 {
			data("exec_ns", strconv.FormatFloat(n.execNs, 'f', 0, 64))
		}
		if !math.IsNaN(n.benefit) && !math.IsInf(n.benefit, 0) && n.set && n.kind != "fork" && n.kind != "join" && n.kind != "team" {
			data("parallel_benefit", strconv.FormatFloat(n.benefit, 'g', 4, 64))
		}
		if n.problems != 0 {
			data("problems", n.problems.Names(" "))
		}
		if n.count > 0 {
			data("grains", strconv.FormatInt(n.count, 10))
		}
		data("color", n.color())
		data("size", strconv.FormatFloat(gr.size(n), 'f', 2, 64))
		bw.WriteString("</node>\n")
	}
	for i, e := range es {
		fmt.Fprintf(bw, "    <edge id=\"e%d\" source=%q target=%q><data key=\"etype\">%s</data><data key=\"count\">%d</data></edge>\n", i, e.from, e.to, esc(e.kind), e.count)
	}
	bw.WriteString("  </graph>\n</graphml>\n")
	return bw.Flush()
}
