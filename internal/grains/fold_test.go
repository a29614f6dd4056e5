package grains

import (
	"math"
	"testing"
)

// teams is the graph of n parallel regions of a loop of k chunks each,
// as make grains-demo's heat has them (40 of 2): team, fork, chunks,
// join, the regions side by side.
func teams(n, k int) ([]Size, []FoldEdge) {
	var sizes []Size
	var edges []FoldEdge
	add := func(s Size) int { sizes = append(sizes, s); return len(sizes) - 1 }
	for i := 0; i < n; i++ {
		t, f, j := add(Size{1.2, 0.3}), add(Size{0.4, 0.15}), add(Size{0.4, 0.15})
		edges = append(edges, FoldEdge{t, f, "continuation"}, FoldEdge{f, j, "continuation"})
		for c := 0; c < k; c++ {
			ch := add(Size{1, 0.5})
			edges = append(edges, FoldEdge{f, ch, "creation"}, FoldEdge{ch, j, "sync"})
		}
	}
	return sizes, edges
}

// TestFold: wide groups fold into rows, about square; narrow ones stay
// in a row; no two nodes overlap where Fold places them, and every
// layout edge goes down.
func TestFold(t *testing.T) {
	for _, tc := range []struct {
		name   string
		n, k   int
		folded bool
	}{
		{"heat", 40, 2, true},   // 40 regions: folded into rows of regions
		{"one", 1, 2, false},    // two chunks side by side, not stacked
		{"wide", 1, 60, true},   // one fork of 60 chunks: rows of chunks
		{"narrow", 3, 3, false}, // 3 regions of 3 chunks: 10 in wide
	} {
		sizes, edges := teams(tc.n, tc.k)
		f := Fold(sizes, Spacing{Gap: 0.5, Limit: 10}, edges)
		if (len(f.Edges) > 0) != tc.folded {
			t.Errorf("%s: %d layout edges, want folded %v", tc.name, len(f.Edges), tc.folded)
		}
		if tc.folded && (f.W > 3*f.H || f.H > 3*f.W || f.W > 25) {
			t.Errorf("%s: folded to %.1f x %.1f", tc.name, f.W, f.H)
		}
		if !tc.folded && f.W < float64(tc.n*tc.k) {
			t.Errorf("%s: %.1f wide, want its %d chunks in a row", tc.name, f.W, tc.n*tc.k)
		}
		for i := range sizes {
			for j := i + 1; j < len(sizes); j++ {
				if math.Abs(f.X[i]-f.X[j])*2 < sizes[i].W+sizes[j].W && math.Abs(f.Y[i]-f.Y[j])*2 < sizes[i].H+sizes[j].H {
					t.Fatalf("%s: nodes %d and %d overlap at (%.2f, %.2f) and (%.2f, %.2f)", tc.name, i, j, f.X[i], f.Y[i], f.X[j], f.Y[j])
				}
			}
			if f.X[i]-sizes[i].W/2 < -1e-9 || f.X[i]+sizes[i].W/2 > f.W+1e-9 || f.Y[i]+sizes[i].H/2 > f.H+1e-9 {
				t.Errorf("%s: node %d at (%.2f, %.2f) outside %.2f x %.2f", tc.name, i, f.X[i], f.Y[i], f.W, f.H)
			}
		}
		// Edges pass the rows of a fork's chunks, none between roots.
		if wantPassing := tc.name == "wide"; (f.Passing > 0) != wantPassing {
			t.Errorf("%s: %d edges passing folded rows", tc.name, f.Passing)
		}
		for _, e := range f.Edges {
			if f.Y[e[1]] <= f.Y[e[0]] {
				t.Errorf("%s: layout edge %d -> %d goes up", tc.name, e[0], e[1])
			}
		}
	}
}
