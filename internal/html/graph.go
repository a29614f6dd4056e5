package html

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"html/template"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"gopari/internal/events"
	"gopari/internal/grains"
)

// The grain graph: internal/grains collects it (grouped by region and
// depth past Options.MaxGrainNodes nodes) and writes it as GraphML, which
// is read back here, laid out in layers (children below their parent,
// as the grain-graph method draws it) and drawn as SVG.

type gmlData struct {
	Key   string `xml:"key,attr"`
	Value string `xml:",chardata"`
}

type gmlNode struct {
	ID   string    `xml:"id,attr"`
	Data []gmlData `xml:"data"`
}

type gmlEdge struct {
	Source string    `xml:"source,attr"`
	Target string    `xml:"target,attr"`
	Data   []gmlData `xml:"data"`
}

type gmlDoc struct {
	Nodes []gmlNode `xml:"graph>node"`
	Edges []gmlEdge `xml:"graph>edge"`
}

func attrs(ds []gmlData) map[string]string {
	m := map[string]string{}
	for _, d := range ds {
		m[d.Key] = d.Value
	}
	return m
}

// grainGraph is what the page shows of the grains.
type grainGraph struct {
	SVG      template.HTML
	Grains   int64
	Nodes    int
	Problems int // grain nodes with a problem
	Grouped  bool
	ByKind   [3]int64
}

// buildGrains analyses exp's grains and draws their graph.
func buildGrains(exp *events.Experiment, opts Options) (*grainGraph, error) {
	a, err := grains.Analyze(exp, grains.Options{})
	if err != nil {
		return nil, err
	}
	g := grains.NewGraph(opts.MaxGrainNodes)
	res, err := a.Write(grains.Outputs{Graph: g})
	if err != nil {
		return nil, err
	}
	if res.Grains == 0 {
		return nil, nil
	}
	var buf bytes.Buffer
	if err := g.WriteGraphML(&buf); err != nil {
		return nil, err
	}
	var doc gmlDoc
	if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil {
		return nil, fmt.Errorf("reading the grain graph back: %v", err)
	}
	gg := &grainGraph{Grains: res.Grains, Nodes: len(doc.Nodes), Grouped: g.Grouped, ByKind: res.ByKind}
	var svg strings.Builder
	gg.Problems = drawGraph(&svg, &doc)
	gg.SVG = template.HTML(svg.String())
	return gg, nil
}

type gnode struct {
	id, kind, label, title, color string
	problems                      bool
	layer, order                  int
	x, y, w, h                    float64
	preds                         []int
}

var colorRE = regexp.MustCompile(`^#[0-9a-fA-F]{6}$`)

// layout assigns layers (longest path from a source) and an order in
// each layer (the mean position of a node's predecessors, in one
// sweep); node order breaks ties, so the drawing is deterministic.
func layout(nodes []*gnode, succ [][]int) [][]int {
	indeg := make([]int, len(nodes))
	for _, ss := range succ {
		for _, s := range ss {
			indeg[s]++
		}
	}
	var queue []int
	for i := range nodes {
		if indeg[i] == 0 {
			queue = append(queue, i)
		}
	}
	for len(queue) > 0 { // a cycle (not expected) leaves its nodes at the layer reached
		n := queue[0]
		queue = queue[1:]
		for _, s := range succ[n] {
			nodes[s].layer = max(nodes[s].layer, nodes[n].layer+1)
			if indeg[s]--; indeg[s] == 0 {
				queue = append(queue, s)
			}
		}
	}
	var layers [][]int
	for i, n := range nodes {
		for len(layers) <= n.layer {
			layers = append(layers, nil)
		}
		layers[n.layer] = append(layers[n.layer], i)
	}
	for _, l := range layers {
		key := map[int]float64{}
		for _, i := range l {
			if len(nodes[i].preds) == 0 {
				key[i] = float64(i)
				continue
			}
			var sum float64
			for _, p := range nodes[i].preds {
				sum += float64(nodes[p].order)
			}
			key[i] = sum / float64(len(nodes[i].preds))
		}
		sort.SliceStable(l, func(a, b int) bool { return key[l[a]] < key[l[b]] })
		for k, i := range l {
			nodes[i].order = k
		}
	}
	return layers
}

// drawGraph writes the graph as SVG and returns the number of grain
// nodes with problems.
func drawGraph(w *strings.Builder, doc *gmlDoc) int {
	index := map[string]int{}
	var nodes []*gnode
	problems := 0
	for _, n := range doc.Nodes {
		a := attrs(n.Data)
		g := &gnode{id: n.ID, kind: a["kind"], label: a["label"], color: a["color"], problems: a["problems"] != ""}
		if !colorRE.MatchString(g.color) {
			g.color = "#cccccc"
		}
		size, _ := strconv.ParseFloat(a["size"], 64)
		g.w, g.h = 24+40*min(size, 2), 22
		switch g.kind {
		case "fork", "join":
			g.w, g.h = 10, 9
		case "team", "group": // few: wide enough for their labels
			g.w = max(g.w, 10+6.2*float64(len([]rune(g.label))))
		}
		var t []string
		for _, k := range []string{"label", "lineage", "exec_ns", "parallel_benefit", "problems", "grains"} {
			if v := a[k]; v != "" {
				t = append(t, k+": "+v)
			}
		}
		g.title = strings.Join(t, "\n")
		if g.problems {
			problems++
		}
		index[n.ID] = len(nodes)
		nodes = append(nodes, g)
	}
	succ := make([][]int, len(nodes))
	type edge struct {
		from, to int
		kind     string
		count    string
	}
	var edges []edge
	for _, e := range doc.Edges {
		f, ok1 := index[e.Source]
		t, ok2 := index[e.Target]
		if !ok1 || !ok2 {
			continue
		}
		a := attrs(e.Data)
		succ[f] = append(succ[f], t)
		nodes[t].preds = append(nodes[t].preds, f)
		edges = append(edges, edge{f, t, a["etype"], a["count"]})
	}
	layers := layout(nodes, succ)
	const gapX, gapY, pad = 8.0, 46.0, 10.0
	width := 0.0
	for _, l := range layers {
		x := pad
		for _, i := range l {
			nodes[i].x = x + nodes[i].w/2
			x += nodes[i].w + gapX
		}
		width = max(width, x)
	}
	height := 2*pad + float64(len(layers))*gapY
	for i, l := range layers {
		for _, n := range l {
			nodes[n].y = pad + float64(i)*gapY + 12
		}
	}
	fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" class="grain-graph" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f">`, width, height, width, height)
	for _, e := range edges {
		a, b := nodes[e.from], nodes[e.to]
		fmt.Fprintf(w, `<line class="e-%s" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/>`, esc(e.kind), a.x, a.y+a.h/2, b.x, b.y-b.h/2)
		if e.count != "" && e.count != "1" {
			fmt.Fprintf(w, `<text class="count" x="%.1f" y="%.1f">%s</text>`, (a.x+b.x)/2, (a.y+b.y)/2, esc(e.count))
		}
	}
	for _, n := range nodes {
		drawNode(w, n)
	}
	w.WriteString("</svg>")
	return problems
}

func drawNode(w *strings.Builder, n *gnode) {
	cls := "n-" + n.kind
	if n.problems {
		cls += " problem"
	}
	fmt.Fprintf(w, `<g class="%s"><title>%s</title>`, esc(cls), esc(n.title))
	x0, y0 := n.x-n.w/2, n.y-n.h/2
	switch n.kind {
	case "fork":
		fmt.Fprintf(w, `<polygon points="%.1f,%.1f %.1f,%.1f %.1f,%.1f"/>`, n.x, y0, x0, y0+n.h, x0+n.w, y0+n.h)
	case "join":
		fmt.Fprintf(w, `<polygon points="%.1f,%.1f %.1f,%.1f %.1f,%.1f"/>`, x0, y0, x0+n.w, y0, n.x, y0+n.h)
	case "chunk":
		fmt.Fprintf(w, `<ellipse cx="%.1f" cy="%.1f" rx="%.1f" ry="%.1f" fill="%s"/>`, n.x, n.y, n.w/2, n.h/2, n.color)
	default:
		fmt.Fprintf(w, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" rx="3" fill="%s"/>`, x0, y0, n.w, n.h, n.color)
	}
	if n.kind != "fork" && n.kind != "join" {
		l := n.label
		if max := int(n.w / 6); len([]rune(l)) > max {
			l = string([]rune(l)[:max]) + "…"
		}
		fmt.Fprintf(w, `<text x="%.1f" y="%.1f">%s</text>`, n.x, n.y+4, esc(l))
	}
	w.WriteString("</g>")
}

// esc escapes text for HTML and SVG, in text and in quoted attributes.
func esc(s string) string { return template.HTMLEscapeString(s) }

// hasGrains reports whether exp's stream holds grains: recorded for
// them, or a trace (which has every task).
func hasGrains(exp *events.Experiment) bool {
	return exp.Events.Has("grains") || exp.Events.Has("trace")
}
