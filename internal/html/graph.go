package html

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"html/template"
	"regexp"
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
	x, y, w, h                    float64
}

// foldWidth is the width in pixels a group of sibling grains may take
// in one row of the page's graph.
const foldWidth = 1000

var colorRE = regexp.MustCompile(`^#[0-9a-fA-F]{6}$`)

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
	var edges []gedge
	for _, e := range doc.Edges {
		f, ok1 := index[e.Source]
		t, ok2 := index[e.Target]
		if !ok1 || !ok2 {
			continue
		}
		a := attrs(e.Data)
		edges = append(edges, gedge{f, t, a["etype"], a["count"]})
	}
	const gapX, gapY, pad = 8.0, 24.0, 10.0
	// The nodes go where grains.Fold puts them, wide groups of siblings
	// folded into rows as in the DOT.
	sizes := make([]grains.Size, len(nodes))
	for i, n := range nodes {
		sizes[i] = grains.Size{W: n.w + gapX, H: n.h}
	}
	fe := make([]grains.FoldEdge, len(edges))
	for i, e := range edges {
		fe[i] = grains.FoldEdge{From: e.from, To: e.to, Kind: e.kind}
	}
	f := grains.Fold(sizes, grains.Spacing{Gap: gapY, Limit: foldWidth}, fe)
	for i, n := range nodes {
		n.x, n.y = pad+f.X[i], pad+f.Y[i]
	}
	width, height := f.W+2*pad, f.H+2*pad
	fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" class="grain-graph" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f">`, width, height, width, height)
	for _, e := range edges {
		a, b := nodes[e.from], nodes[e.to]
		fmt.Fprintf(w, `<line class="e-%s" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/>`, esc(e.kind), a.x, a.y+a.h/2, b.x, b.y-b.h/2)
	}
	for _, l := range edgeLabels(nodes, edges) {
		fmt.Fprintf(w, `<text class="count" x="%.1f" y="%.1f">%s</text>`, l.x, l.y, esc(l.text))
	}
	for _, n := range nodes {
		drawNode(w, n)
	}
	w.WriteString("</svg>")
	return problems
}

type gedge struct {
	from, to int
	kind     string
	count    string
}

// An edgeLabel is an edge's count: text centred on x, its baseline at y.
type edgeLabel struct {
	text string
	x, y float64
}

// box is the rectangle the label's text takes (sans-serif at 11 px, as
// the page's style draws it), a pixel of margin around.
func (l edgeLabel) box() (x0, y0, x1, y1 float64) {
	w := 6.5*float64(len([]rune(l.text))) + 2
	return l.x - w/2, l.y - 11, l.x + w/2, l.y + 3
}

func (l edgeLabel) overlaps(m edgeLabel) bool {
	ax0, ay0, ax1, ay1 := l.box()
	bx0, by0, bx1, by1 := m.box()
	return ax0 < bx1 && bx0 < ax1 && ay0 < by1 && by0 < ay1
}

// edgeLabels places the counts of the edges that have one (the grouped
// graph's) on their edges, near the target, where no other label is:
// further up the edge, or else below the others, never over one.
func edgeLabels(nodes []*gnode, edges []gedge) []edgeLabel {
	var out []edgeLabel
	free := func(l edgeLabel) bool {
		for _, o := range out {
			if l.overlaps(o) {
				return false
			}
		}
		return true
	}
	for _, e := range edges {
		if e.count == "" || e.count == "1" {
			continue
		}
		a, b := nodes[e.from], nodes[e.to]
		x0, y0, x1, y1 := a.x, a.y+a.h/2, b.x, b.y-b.h/2
		at := func(t float64) edgeLabel {
			return edgeLabel{e.count, x0 + t*(x1-x0), y0 + t*(y1-y0)}
		}
		l := at(0.75)
		for t := 0.75; t >= 0.25 && !free(l); t -= 0.05 {
			l = at(t)
		}
		for !free(l) {
			l.y += 14 // below the label it meets: a finite number of steps
		}
		out = append(out, l)
	}
	return out
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
