// Package job reads the experiment directory of an MPI job — a marker,
// job.json, and one directory rank-NNNNN per rank holding that rank's
// profile — and merges the ranks' profiles: per region, the minimum,
// mean and maximum over ranks, the rank of the maximum, and the
// imbalance between ranks next to that between the threads of a rank.
package job

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"gopari/internal/experiment"
	"gopari/internal/profile"
)

// Format and Version identify the merged profile.
const (
	Format  = "gopari-job-profile"
	Version = 1
)

// A Job is a job's directory as read.
type Job struct {
	Dir      string
	Job      string
	Launcher string
	Size     int // ranks the launcher started; 0 if it did not say
	Program  string
	Ranks    []Rank   // those with a profile, by rank
	Missing  []int    // ranks below Size without a directory
	Damaged  []Damage // ranks whose directory holds no readable profile
}

// A Rank is one rank's profile.
type Rank struct {
	Rank    int
	Dir     string // relative to the job's directory
	Profile *profile.Profile
}

// A Damage says why a rank's profile could not be read.
type Damage struct {
	Rank  int    `json:"rank"`
	Dir   string `json:"dir"`
	Error string `json:"error"`
}

// Read reads the job in dir. A rank whose profile cannot be read is
// listed in Damaged with explain's account of why.
func Read(dir string, explain func(path string, err error) string) (*Job, error) {
	m, err := experiment.ReadJobMarker(dir)
	if err != nil {
		return nil, err
	}
	j := &Job{Dir: dir, Job: m.Job, Launcher: m.Launcher, Size: m.Size, Program: m.Program}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	seen := map[int]bool{}
	for _, e := range entries {
		n, ok := experiment.ParseRankDir(e.Name())
		if !ok || !e.IsDir() {
			continue
		}
		seen[n] = true
		path := experiment.Profile(filepath.Join(dir, e.Name()))
		p, err := profile.Read(path)
		if err != nil {
			j.Damaged = append(j.Damaged, Damage{Rank: n, Dir: e.Name(), Error: explain(path, err)})
			continue
		}
		if msg := j.notTheRank(p, n); msg != "" {
			j.Damaged = append(j.Damaged, Damage{Rank: n, Dir: e.Name(), Error: path + ": " + msg})
			continue
		}
		j.Ranks = append(j.Ranks, Rank{Rank: n, Dir: e.Name(), Profile: p})
	}
	sort.Slice(j.Ranks, func(a, b int) bool { return j.Ranks[a].Rank < j.Ranks[b].Rank })
	sort.Slice(j.Damaged, func(a, b int) bool { return j.Damaged[a].Rank < j.Damaged[b].Rank })
	for r := 0; r < j.Size; r++ {
		if !seen[r] {
			j.Missing = append(j.Missing, r)
		}
	}
	return j, nil
}

// notTheRank says why profile p, in the directory of rank n, is not
// that rank's of this job (a directory copied or renamed): "" if it is,
// or if it is no MPI rank's at all (nothing to check it by).
func (j *Job) notTheRank(p *profile.Profile, n int) string {
	if p.MPI == nil {
		return ""
	}
	if p.MPI.Job != j.Job {
		return fmt.Sprintf("the profile of rank %d of job %s, not of this job (%s): left out", p.MPI.Rank, p.MPI.Job, j.Job)
	}
	if p.MPI.Rank != n {
		return fmt.Sprintf("the profile of rank %d, not of rank %d whose directory holds it: left out", p.MPI.Rank, n)
	}
	return ""
}

// Rank returns the profile of rank n.
func (j *Job) Rank(n int) (*Rank, error) {
	for i := range j.Ranks {
		if j.Ranks[i].Rank == n {
			return &j.Ranks[i], nil
		}
	}
	for _, d := range j.Damaged {
		if d.Rank == n {
			return nil, errors.New(d.Error)
		}
	}
	return nil, fmt.Errorf("%s: no rank %d: %w", j.Dir, n, fs.ErrNotExist)
}
