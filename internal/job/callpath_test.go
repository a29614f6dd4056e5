package job

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"gopari/internal/callpath/cptest"
	"gopari/internal/experiment"
	"gopari/internal/profile"
)

// TestMergeCallPaths merges the call paths of two ranks, one of which
// ran only location 0 (12 ms less): min, mean and max per path, in the
// merged JSON too.
func TestMergeCallPaths(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeJSON(t, filepath.Join(dir, "job.json"), map[string]any{"format": "gopari-job", "version": 1, "job": "ompi-1", "launcher": "Open MPI", "size": 2, "program": "./paths"})
	for rank := range 2 {
		p := cptest.Profile(t)
		p.MPI = &profile.MPIRank{Rank: rank, Size: 2, Job: "ompi-1", Launcher: "Open MPI"}
		if rank == 1 {
			p.CallPaths.Threads = p.CallPaths.Threads[:1]
		}
		writeJSON(t, filepath.Join(dir, experiment.RankDir(rank), "profile.json"), p)
	}
	j, err := Read(dir, func(path string, err error) string { return err.Error() })
	if err != nil {
		t.Fatal(err)
	}
	m := Merge(j)
	if m.CallPaths == nil {
		t.Fatalf("no merged call paths (notes %q, damaged %v)", m.CallPathNotes, j.Damaged)
	}
	root := m.CallPaths.Nodes[0].InclNs
	if root.Min != 76*cptest.Ms || root.Max != 88*cptest.Ms || root.Mean != 82*cptest.Ms {
		t.Errorf("root %+v, want 76/82/88 ms", root)
	}
	b, _ := json.Marshal(m)
	if !strings.Contains(string(b), `"call_paths":{"ranks":[0,1]`) {
		t.Errorf("merged JSON without call paths: %.300s", b)
	}
}
