package profile

import (
	"fmt"
	"testing"
)

// TestDropLeaves drops the probe leaves of a tree, renumbering the rest,
// and keeps a probe that has children.
func TestDropLeaves(t *testing.T) {
	const probe = 0xdead
	nodes := []CallNode{
		{Parent: -1, Kind: "root"},
		{Parent: 0, Kind: "function", Addr: 1},
		{Parent: 1, Kind: "function", Addr: probe}, // a leaf: dropped
		{Parent: 1, Kind: "function", Addr: 2},
		{Parent: 0, Kind: "function", Addr: probe}, // has a child: kept
		{Parent: 4, Kind: "function", Addr: 3},
		{Parent: 0, Kind: "function", Addr: probe}, // the last: dropped
	}
	out, ids := DropLeaves(nodes, func(n CallNode) bool { return n.Addr == probe })
	if got, want := fmt.Sprint(ids), "[0 1 -1 2 3 4 -1]"; got != want {
		t.Errorf("ids %s, want %s", got, want)
	}
	want := []CallNode{
		{Parent: -1, Kind: "root"},
		{Parent: 0, Kind: "function", Addr: 1},
		{Parent: 1, Kind: "function", Addr: 2},
		{Parent: 0, Kind: "function", Addr: probe},
		{Parent: 3, Kind: "function", Addr: 3},
	}
	if fmt.Sprint(out) != fmt.Sprint(want) {
		t.Errorf("nodes\n%v\nwant\n%v", out, want)
	}
}
