package html

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestEdgeLabels: the counts of a grouped graph's edges never overlap,
// read back from the SVG the page holds. Two rows of groups, every
// group of the first creating grains of every group of the second: the
// edges cross, their midpoints meet ("3232", "6464" before).
func TestEdgeLabels(t *testing.T) {
	doc := &gmlDoc{}
	node := func(id, kind, label string) {
		doc.Nodes = append(doc.Nodes, gmlNode{ID: id, Data: []gmlData{{"kind", kind}, {"label", label}, {"color", "#8dd3c7"}}})
	}
	edge := func(from, to, count string) {
		doc.Edges = append(doc.Edges, gmlEdge{Source: from, Target: to, Data: []gmlData{{"etype", "creation"}, {"count", count}}})
	}
	node("t", "team", "parallel regions and initial task")
	for i := 0; i < 6; i++ {
		node(fmt.Sprint("a", i), "group", fmt.Sprintf("task f.c:%d (depth 1)", i))
		edge("t", fmt.Sprint("a", i), "1024")
	}
	for j := 0; j < 6; j++ {
		node(fmt.Sprint("b", j), "group", fmt.Sprintf("task g.c:%d (depth 2)", j))
		for i := 0; i < 6; i++ {
			edge(fmt.Sprint("a", i), fmt.Sprint("b", j), strconv.Itoa(32<<((i+j)%3)))
		}
	}
	var b strings.Builder
	drawGraph(&b, doc)
	re := regexp.MustCompile(`<text class="count" x="([0-9.]+)" y="([0-9.]+)">([^<]*)</text>`)
	var labels []edgeLabel
	for _, m := range re.FindAllStringSubmatch(b.String(), -1) {
		x, _ := strconv.ParseFloat(m[1], 64)
		y, _ := strconv.ParseFloat(m[2], 64)
		labels = append(labels, edgeLabel{m[3], x, y})
	}
	if len(labels) != 42 {
		t.Fatalf("%d edge labels in the SVG, want 42", len(labels))
	}
	for i, l := range labels {
		for _, m := range labels[i+1:] {
			if l.overlaps(m) {
				t.Errorf("labels %q at (%.1f, %.1f) and %q at (%.1f, %.1f) overlap", l.text, l.x, l.y, m.text, m.x, m.y)
			}
		}
	}
}
