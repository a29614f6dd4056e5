package grains

import (
	"bytes"
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gopari/internal/events/evtest"
)

// graphFor analyzes a fib run and a loop run and returns their graphs.
func graphs(t *testing.T, maxNodes int) []*Graph {
	t.Helper()
	fib := filepath.Join(t.TempDir(), "fib")
	if _, _, err := evtest.FibCreate(fib, 10, 3, 2, 20, 100, nil); err != nil {
		t.Fatal(err)
	}
	loop := filepath.Join(t.TempDir(), "loop")
	if _, _, err := evtest.Loop(loop, "dynamic", 40, 4, 3, 2, func(i int) uint64 { return 50 }, 3); err != nil {
		t.Fatal(err)
	}
	var out []*Graph
	for _, dir := range []string{fib, loop} {
		g := NewGraph(maxNodes)
		analyze(t, dir, Options{}, g)
		out = append(out, g)
	}
	return out
}

type graphml struct {
	Keys []struct {
		ID string `xml:"id,attr"`
	} `xml:"key"`
	Graph struct {
		Nodes []struct {
			ID   string `xml:"id,attr"`
			Data []struct {
				Key   string `xml:"key,attr"`
				Value string `xml:",chardata"`
			} `xml:"data"`
		} `xml:"node"`
		Edges []struct {
			Source string `xml:"source,attr"`
			Target string `xml:"target,attr"`
		} `xml:"edge"`
	} `xml:"graph"`
}

// TestGraphOutputs checks that DOT renders with Graphviz, and that the
// GraphML is well-formed, reads back with the nodes and edges written
// (here and, where installed, with networkx's GraphML reader) and holds
// every grain.
func TestGraphOutputs(t *testing.T) {
	t.Parallel()
	var files []string
	var want []int
	for i, g := range graphs(t, 10000) {
		if g.Grouped {
			t.Fatalf("graph %d grouped", i)
		}
		var dot, gml bytes.Buffer
		if err := g.WriteDOT(&dot, "test \"graph\""); err != nil {
			t.Fatal(err)
		}
		if err := g.WriteGraphML(&gml); err != nil {
			t.Fatal(err)
		}
		var doc graphml
		if err := xml.Unmarshal(gml.Bytes(), &doc); err != nil {
			t.Fatalf("GraphML does not parse: %v", err)
		}
		ns, es := g.layout()
		if len(doc.Graph.Nodes) != len(ns) || len(doc.Graph.Edges) != len(es) {
			t.Errorf("GraphML has %d nodes and %d edges, want %d and %d", len(doc.Graph.Nodes), len(doc.Graph.Edges), len(ns), len(es))
		}
		grains := 0
		ids := map[string]bool{}
		for _, n := range doc.Graph.Nodes {
			ids[n.ID] = true
			for _, d := range n.Data {
				if d.Key == "kind" && (d.Value == "task" || d.Value == "chunk") {
					grains++
				}
			}
		}
		for _, e := range doc.Graph.Edges {
			if !ids[e.Source] || !ids[e.Target] {
				t.Errorf("edge %s -> %s to a missing node", e.Source, e.Target)
			}
		}
		if int64(grains) != g.Grains() {
			t.Errorf("graph %d: %d grain nodes, %d grains", i, grains, g.Grains())
		}
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "g.dot"), dot.Bytes(), 0o644)
		os.WriteFile(filepath.Join(dir, "g.graphml"), gml.Bytes(), 0o644)
		if _, err := exec.LookPath("dot"); err != nil {
			t.Log("Graphviz dot not installed: DOT not rendered")
		} else {
			out, err := exec.Command("dot", "-Tsvg", "-o", filepath.Join(dir, "g.svg"), filepath.Join(dir, "g.dot")).CombinedOutput()
			if err != nil || len(out) > 0 {
				t.Errorf("dot -Tsvg: %v\n%s", err, out)
			}
			svg, _ := os.ReadFile(filepath.Join(dir, "g.svg"))
			if !bytes.Contains(svg, []byte("<svg")) {
				t.Errorf("no SVG")
			}
		}
		files = append(files, filepath.Join(dir, "g.graphml"))
		want = append(want, len(ns), len(es))
	}
	readBack(t, files, want)
}

// readBack reads GraphML files with networkx, a GraphML reader of the
// field, where it is installed; want holds each file's nodes and edges.
func readBack(t *testing.T, files []string, want []int) {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Log("python3 not installed: GraphML not read back by networkx")
		return
	}
	if exec.Command(py, "-c", "import networkx").Run() != nil {
		t.Log("networkx not installed: GraphML not read back by it")
		return
	}
	out, err := exec.Command(py, append([]string{"-c", `import sys, networkx as nx
for f in sys.argv[1:]:
    g = nx.read_graphml(f)
    print(g.number_of_nodes(), g.number_of_edges())`}, files...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("networkx: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != len(files) {
		t.Fatalf("networkx printed %q", out)
	}
	for i, l := range lines {
		f := strings.Fields(l)
		nodes, edges := want[2*i], want[2*i+1]
		if len(f) != 2 || f[0] != strconv.Itoa(nodes) {
			t.Errorf("networkx read %q, want %d nodes", l, nodes)
		}
		// networkx merges parallel edges of a DiGraph: at most as many.
		if n, _ := strconv.Atoi(f[1]); n > edges || n == 0 {
			t.Errorf("networkx read %s edges, wrote %d", f[1], edges)
		}
	}
}

// TestGrouped checks that a graph too large to open is grouped by
// region and lineage depth, and still renders.
func TestGrouped(t *testing.T) {
	t.Parallel()
	g := graphs(t, 20)[0]
	if !g.Grouped {
		t.Fatal("not grouped")
	}
	var dot bytes.Buffer
	g.WriteDOT(&dot, "grouped")
	if g.Nodes() > 40 || !strings.Contains(dot.String(), "grains,") {
		t.Errorf("%d nodes:\n%s", g.Nodes(), dot.String())
	}
	if _, err := exec.LookPath("dot"); err == nil {
		cmd := exec.Command("dot", "-Tsvg")
		cmd.Stdin = &dot
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("dot: %v\n%s", err, out)
		}
	}
}

// TestGraphMLThreads: GraphML's thread is the team path of the CSV's
// thread column, so that the two join on lineage and thread.
func TestGraphMLThreads(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "fib")
	if _, _, err := evtest.FibCreate(dir, 8, 3, 2, 20, 100, nil); err != nil {
		t.Fatal(err)
	}
	g := NewGraph(10000)
	_, _, rows, _ := analyze(t, dir, Options{}, g)
	csvThread := map[string]string{}
	for _, r := range rows[1:] {
		csvThread[r[column(rows, "lineage")]] = r[column(rows, "thread")]
	}
	var gml bytes.Buffer
	if err := g.WriteGraphML(&gml); err != nil {
		t.Fatal(err)
	}
	var doc graphml
	if err := xml.Unmarshal(gml.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, n := range doc.Graph.Nodes {
		d := map[string]string{}
		for _, kv := range n.Data {
			d[kv.Key] = kv.Value
		}
		if d["kind"] != "task" {
			continue
		}
		seen++
		want, ok := csvThread[d["lineage"]]
		if !ok || d["thread"] != want || !strings.HasPrefix(want, "0.") {
			t.Errorf("task %s: GraphML thread %q, CSV thread %q", d["lineage"], d["thread"], want)
		}
	}
	if seen != len(rows)-1 {
		t.Errorf("%d task nodes, %d CSV rows", seen, len(rows)-1)
	}
}
