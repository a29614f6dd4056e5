// Package jobtest writes synthetic MPI jobs for tests: a job's marker
// and, per rank, a profile whose times are known by construction.
package jobtest

import (
	"encoding/json"
	"os"
	"path/filepath"

	"gopari/internal/experiment"
	"gopari/internal/profile"
)

// Key is the job key of the jobs Write writes.
const Key = "ompi-4096"

// A Rank says how a rank differs from the others: Scale multiplies its
// parallel region's time and wall time (1 when 0), MPINs replaces its
// time in MPI_Send when not 0.
type Rank struct {
	Scale float64
	MPINs uint64
}

// Profile is rank r's profile in a job of size ranks: two threads that
// each spend 1 ms (times the rank's Scale) in a parallel region, the
// first of them 100 µs (or MPINs) more in one MPI_Send of 64 bytes it
// makes there; a wall time of 2 ms (times Scale) plus that MPI time.
func Profile(r, size int, d Rank) *profile.Profile {
	scale := d.Scale
	if scale == 0 {
		scale = 1
	}
	mpi := d.MPINs
	if mpi == 0 {
		mpi = 100_000
	}
	par := uint64(1e6 * scale)
	p := &profile.Profile{Format: profile.Format, Version: profile.Version, PID: 1000 + r, Exit: "exit",
		Program: "./synthetic", WallNs: uint64(2e6*scale) + mpi,
		Regions: []profile.Region{
			{ID: 1, Kind: "parallel", Name: "parallel", File: "s.c", BeginLine: 3, EndLine: 9},
			{ID: 2, Kind: "mpi", Name: "MPI_Send", File: "MPI"},
		},
		MPI: &profile.MPIRank{Rank: r, Size: size, Job: Key, Launcher: "Open MPI"}}
	for i := 0; i < 2; i++ {
		p.Threads = append(p.Threads, profile.Thread{Index: i, Path: "0." + string(rune('0'+i)), Level: 1})
		incl := par
		if i == 0 {
			incl += mpi
		}
		p.Stats = append(p.Stats, profile.Stat{Region: 1, Thread: i, Body: &profile.Phase{Visits: 1, Timed: 1, InclNs: incl, ExclNs: par}})
	}
	p.Stats = append(p.Stats, profile.Stat{Region: 2, Thread: 0, Construct: &profile.Phase{Visits: 1, Timed: 1, InclNs: mpi, ExclNs: mpi},
		Messages: 1, Bytes: 64})
	return p
}

// Write writes a job of size ranks in dir: its marker and each rank's
// profile, the ranks of odd differing as it says.
func Write(dir string, size int, odd map[int]Rank) error {
	marker := experiment.JobMarker{Format: experiment.JobMarkerFormat, Version: experiment.JobMarkerVersion,
		Job: Key, Launcher: "Open MPI", Size: size, Program: "./synthetic"}
	if err := writeJSON(filepath.Join(dir, experiment.JobMarkerFile), marker); err != nil {
		return err
	}
	// Written by a few goroutines: the time is the file system's, one
	// directory and file per rank.
	const workers = 8
	errs := make(chan error, workers)
	for w := 0; w < workers; w++ {
		go func() {
			var err error
			for r := w; r < size && err == nil; r += workers {
				err = writeJSON(experiment.Profile(filepath.Join(dir, experiment.RankDir(r))), Profile(r, size, odd[r]))
			}
			errs <- err
		}()
	}
	var first error
	for w := 0; w < workers; w++ {
		if err := <-errs; err != nil && first == nil {
			first = err
		}
	}
	return first
}

func writeJSON(path string, v any) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}
