package job

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gopari/internal/job/jobtest"
)

// planted are the outlier ranks of the synthetic job of 1,024 ranks: a
// slow rank, one that waits in MPI, and a fast one (cmd/gopari's
// TestJobAtScale reports on a job of 4,096).
var planted = map[int]jobtest.Rank{17: {Scale: 3}, 512: {MPINs: 5_000_000}, 1023: {Scale: 0.25}}

func readJob(t *testing.T, dir string) *Job {
	t.Helper()
	j, err := Read(dir, func(path string, err error) string { return path + ": " + err.Error() })
	if err != nil {
		t.Fatal(err)
	}
	return j
}

// TestDistributions merges a synthetic job of 1,024 ranks whose ranks
// are alike but three: the distributions have the quartiles of the
// many and name the three, each for what makes it one.
func TestDistributions(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := jobtest.Write(dir, 1024, planted); err != nil {
		t.Fatal(err)
	}
	m := Merge(readJob(t, dir))
	ds := Distributions(m)
	byName := map[string]*Dist{}
	var names []string
	for i := range ds {
		byName[ds[i].Name] = &ds[i]
		names = append(names, ds[i].Name)
	}
	// Every rank makes one MPI call, one message, 64 bytes: no spread,
	// no outlier; OpenMP time is the parallel region's, on 2 threads.
	if want := []string{"wall", "OpenMP", "MPI", "MPI share", "MPI calls", "messages", "bytes"}; !slices.Equal(names, want) {
		t.Fatalf("metrics %v, want %v", names, want)
	}
	for _, tc := range []struct {
		name                  string
		min, q1, med, q3, max float64
		outliers              []int
	}{
		{"wall", 0.6e6, 2.1e6, 2.1e6, 2.1e6, 7e6, []int{17, 512, 1023}},
		{"OpenMP", 0.5e6, 2e6, 2e6, 2e6, 6e6, []int{17, 1023}},
		{"MPI", 1e5, 1e5, 1e5, 1e5, 5e6, []int{512}},
		{"MPI calls", 1, 1, 1, 1, 1, nil},
		{"bytes", 64, 64, 64, 64, 64, nil},
	} {
		d := byName[tc.name]
		got := []float64{d.Min, d.Q1, d.Median, d.Q3, d.Max}
		if want := []float64{tc.min, tc.q1, tc.med, tc.q3, tc.max}; !slices.Equal(got, want) {
			t.Errorf("%s: min, quartiles, max %v, want %v", tc.name, got, want)
		}
		var ranks []int
		for _, o := range d.Outliers {
			ranks = append(ranks, o.Rank)
		}
		slices.Sort(ranks)
		if !slices.Equal(ranks, tc.outliers) || d.More != 0 {
			t.Errorf("%s: outliers %v (%d more), want %v", tc.name, ranks, d.More, tc.outliers)
		}
		sum := 0
		for _, n := range d.Hist {
			sum += n
		}
		if sum != 1024 {
			t.Errorf("%s: histogram of %d ranks", tc.name, sum)
		}
	}
	var ranks []int
	for _, r := range OutlierRanks(ds) {
		ranks = append(ranks, r.Rank)
	}
	if want := []int{17, 512, 1023}; !slices.Equal(ranks, want) {
		t.Errorf("outlier ranks %v, want %v", ranks, want)
	}
}

// TestNotTheRank: a rank directory whose profile is another rank's, or
// another job's, is left out with an error that says so.
func TestNotTheRank(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := jobtest.Write(dir, 4, nil); err != nil {
		t.Fatal(err)
	}
	other := jobtest.Profile(1, 4, jobtest.Rank{})
	writeJSON(t, filepath.Join(dir, "rank-00002", "profile.json"), other)
	foreign := jobtest.Profile(3, 4, jobtest.Rank{})
	foreign.MPI.Job = "ompi-77"
	writeJSON(t, filepath.Join(dir, "rank-00003", "profile.json"), foreign)
	j := readJob(t, dir)
	if len(j.Ranks) != 2 || len(j.Damaged) != 2 {
		t.Fatalf("%d ranks, %d damaged: %+v", len(j.Ranks), len(j.Damaged), j.Damaged)
	}
	for i, want := range []string{"rank-00002/profile.json: the profile of rank 1, not of rank 2 whose directory holds it",
		"rank-00003/profile.json: the profile of rank 3 of job ompi-77, not of this job (ompi-4096)"} {
		if d := j.Damaged[i]; !strings.Contains(d.Error, want) {
			t.Errorf("rank %d: %q, want %q", d.Rank, d.Error, want)
		}
	}
}
