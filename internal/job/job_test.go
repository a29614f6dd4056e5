package job

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"gopari/internal/profile"
)

// rankProfile makes the profile of a rank whose threads spent the given
// inclusive times in a parallel region, and which spent mpiNs in one
// MPI_Send that sent 64 bytes.
func rankProfile(rank int, threadNs []uint64, mpiNs uint64) *profile.Profile {
	p := &profile.Profile{Format: profile.Format, Version: profile.Version, PID: 100 + rank, Exit: "exit",
		Regions: []profile.Region{
			{ID: 1, Kind: "parallel", Name: "parallel", File: "a.c", BeginLine: 3, EndLine: 9},
			{ID: 2, Kind: "mpi", Name: "MPI_Send", File: "MPI"},
		},
		MPI: &profile.MPIRank{Rank: rank, Size: 4, Job: "ompi-1", Launcher: "Open MPI"}}
	for i, ns := range threadNs {
		p.Threads = append(p.Threads, profile.Thread{Index: i})
		p.Stats = append(p.Stats, profile.Stat{Region: 1, Thread: i, Body: &profile.Phase{Visits: 1, InclNs: ns, ExclNs: ns / 2}})
	}
	p.Stats = append(p.Stats, profile.Stat{Region: 2, Thread: 0, Construct: &profile.Phase{Visits: 1, InclNs: mpiNs, ExclNs: mpiNs},
		Messages: 1, Bytes: 64})
	return p
}

func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	os.MkdirAll(filepath.Dir(path), 0o755)
	b, _ := json.Marshal(v)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestReadAndMerge(t *testing.T) {
	dir := t.TempDir()
	writeJSON(t, filepath.Join(dir, "job.json"), map[string]any{"format": "gopari-job", "version": 1, "job": "ompi-1", "launcher": "Open MPI", "size": 4, "program": "./a"})
	// Rank 0: threads 100 and 300 ns; rank 1: 200 and 200; rank 2 is
	// missing; rank 3 was stopped while it wrote.
	writeJSON(t, filepath.Join(dir, "rank-00000", "profile.json"), rankProfile(0, []uint64{100, 300}, 50))
	writeJSON(t, filepath.Join(dir, "rank-00001", "profile.json"), rankProfile(1, []uint64{200, 200}, 70))
	os.MkdirAll(filepath.Join(dir, "rank-00003"), 0o755)
	os.WriteFile(filepath.Join(dir, "rank-00003", "profile.json.tmp"), []byte("{"), 0o644)
	os.MkdirAll(filepath.Join(dir, "rank-00000.fork-77"), 0o755) // a forked child: not a rank

	j, err := Read(dir, func(path string, err error) string { return "damaged: " + filepath.Base(filepath.Dir(path)) })
	if err != nil {
		t.Fatal(err)
	}
	if len(j.Ranks) != 2 || j.Ranks[0].Rank != 0 || j.Ranks[1].Rank != 1 {
		t.Fatalf("ranks %+v", j.Ranks)
	}
	if len(j.Missing) != 1 || j.Missing[0] != 2 {
		t.Errorf("missing %v, want [2]", j.Missing)
	}
	if len(j.Damaged) != 1 || j.Damaged[0].Rank != 3 || j.Damaged[0].Error != "damaged: rank-00003" {
		t.Errorf("damaged %+v", j.Damaged)
	}
	if _, err := j.Rank(2); err == nil {
		t.Errorf("rank 2 found")
	}

	m := Merge(j)
	if len(m.Regions) != 2 {
		t.Fatalf("%d regions, want 2", len(m.Regions))
	}
	par := m.Regions[0] // 400 ns on both ranks, ahead of MPI_Send
	if par.Kind != "parallel" || par.InclNs != (Spread{Min: 400, Mean: 400, Max: 400, MaxRank: 0}) || par.RankImbalance != 0 {
		t.Errorf("parallel: %+v", par)
	}
	// Thread imbalance: rank 0 (300 - 200) / 300, rank 1 0; their mean.
	if want := (1.0 / 3) / 2; math.Abs(par.ThreadImbalance-want) > 1e-12 {
		t.Errorf("thread imbalance %v, want %v", par.ThreadImbalance, want)
	}
	send := m.Regions[1]
	if send.InclNs != (Spread{Min: 50, Mean: 60, Max: 70, MaxRank: 1}) || send.Bytes == nil || send.Bytes.Max != 64 {
		t.Errorf("MPI_Send: %+v", send)
	}
	if want := (70.0 - 60) / 70; math.Abs(send.RankImbalance-want) > 1e-12 {
		t.Errorf("rank imbalance %v, want %v", send.RankImbalance, want)
	}
	r0 := m.Ranks[0]
	if r0.MPINs != 50 || r0.OpenMPNs != 200 || r0.MPICalls != 1 || r0.Messages != 1 || r0.Bytes != 64 {
		t.Errorf("rank 0: %+v", r0)
	}
}

// TestMergeParallelTime: a parallel region's time on a rank is its
// team's, as the rank's own report shows it: the fork and join on the
// encountering thread (construct, exclusive), the implicit tasks and the
// closing-barrier waits; its visits are the forks; thread imbalance
// compares the implicit tasks alone; OpenMP time counts the fork and
// join. A worksharing construct's time includes its implicit barrier.
func TestMergeParallelTime(t *testing.T) {
	p := rankProfile(0, []uint64{100, 300}, 50)
	p.Regions = append(p.Regions, profile.Region{ID: 3, Kind: "for", Name: "for", File: "a.c", BeginLine: 5, EndLine: 6})
	// Thread 0 forked twice: 1000 ns fork to join, 40 of them its own.
	p.Stats[0].Construct = &profile.Phase{Visits: 2, InclNs: 1000, ExclNs: 40}
	p.Stats[0].Barrier = &profile.Phase{Visits: 2, InclNs: 200, ExclNs: 200}
	p.Stats = append(p.Stats,
		profile.Stat{Region: 3, Thread: 0, Construct: &profile.Phase{Visits: 2, InclNs: 30, ExclNs: 30}, Barrier: &profile.Phase{Visits: 2, InclNs: 9, ExclNs: 9}},
		profile.Stat{Region: 3, Thread: 1, Construct: &profile.Phase{Visits: 2, InclNs: 10, ExclNs: 10}, Barrier: &profile.Phase{Visits: 2, InclNs: 29, ExclNs: 29}})
	m := Merge(&Job{Ranks: []Rank{{Rank: 0, Profile: p}}})
	got := map[string]MergedRegion{}
	for _, r := range m.Regions {
		got[r.Kind] = r
	}
	par := got["parallel"]
	// incl 40 + (100 + 300) + 200; excl 40 + (50 + 150) + 200.
	if on := par.PerRank[0]; on.InclNs != 640 || on.ExclNs != 440 || on.Visits != 2 || on.Threads != 2 {
		t.Errorf("parallel on rank 0: %+v", on)
	}
	if want := (300 - 200) / 300.0; math.Abs(par.ThreadImbalance-want) > 1e-12 {
		t.Errorf("thread imbalance %v, want %v (implicit tasks 100 and 300)", par.ThreadImbalance, want)
	}
	// The for loop: 30 + 9 and 10 + 29; imbalance on the construct, 30 and 10.
	if on := got["for"].PerRank[0]; on.InclNs != 78 || on.ExclNs != 78 || on.Visits != 4 {
		t.Errorf("for on rank 0: %+v", on)
	}
	if want := (30 - 20) / 30.0; math.Abs(got["for"].ThreadImbalance-want) > 1e-12 {
		t.Errorf("for: thread imbalance %v, want %v", got["for"].ThreadImbalance, want)
	}
	// OpenMP: the parallel region's 440 and the loop's 78; MPI apart.
	if r := m.Ranks[0]; r.OpenMPNs != 440+78 || r.MPINs != 50 {
		t.Errorf("rank 0: %+v", r)
	}
}
