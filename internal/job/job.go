// Package job reads the experiment directory of an MPI job — a marker,
// job.json, and one directory rank-NNNNN per rank holding that rank's
// profile — and merges the ranks' profiles: per region, the minimum,
// mean and maximum over ranks, the rank of the maximum, and the
// imbalance between ranks next to that between the threads of a rank.
package job

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"

	"gopari/internal/profile"
)

// Marker is the file that makes a directory a job's.
const Marker = "job.json"

// Format and Version identify the merged profile.
const (
	Format  = "gopari-job-profile"
	Version = 1
)

// A Marker's content, written by the first rank that ends.
type marker struct {
	Format   string `json:"format"`
	Version  int    `json:"version"`
	Job      string `json:"job"`
	Launcher string `json:"launcher"`
	Size     int    `json:"size"`
	Program  string `json:"program"`
}

// IsJob reports whether dir is a job's experiment directory.
func IsJob(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, Marker))
	return err == nil
}

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

var rankDir = regexp.MustCompile(`^rank-([0-9]{5,})$`)

// Read reads the job in dir. A rank whose profile cannot be read is
// listed in Damaged with explain's account of why.
func Read(dir string, explain func(path string, err error) string) (*Job, error) {
	b, err := os.ReadFile(filepath.Join(dir, Marker))
	if err != nil {
		return nil, err
	}
	var m marker
	if err := json.Unmarshal(b, &m); err != nil || m.Format != "gopari-job" {
		return nil, fmt.Errorf("%s: not a gopari job marker", filepath.Join(dir, Marker))
	}
	if m.Version > 1 {
		return nil, fmt.Errorf("%s: job version %d is newer than this gopari reads (1)", filepath.Join(dir, Marker), m.Version)
	}
	j := &Job{Dir: dir, Job: m.Job, Launcher: m.Launcher, Size: m.Size, Program: m.Program}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	seen := map[int]bool{}
	for _, e := range entries {
		sub := rankDir.FindStringSubmatch(e.Name())
		if sub == nil || !e.IsDir() {
			continue
		}
		n, _ := strconv.Atoi(sub[1])
		seen[n] = true
		path := filepath.Join(dir, e.Name(), "profile.json")
		p, err := profile.Read(path)
		if err != nil {
			j.Damaged = append(j.Damaged, Damage{Rank: n, Dir: e.Name(), Error: explain(path, err)})
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
