package experiment

// The directory of an MPI job: its marker, written by the rank that
// creates the directory, and one run's directory per rank.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// JobMarkerFile is the file that makes a directory a job's.
const JobMarkerFile = "job.json"

// JobMarkerFormat and JobMarkerVersion identify a JobMarker.
const (
	JobMarkerFormat  = "gopari-job"
	JobMarkerVersion = 1
)

// A JobMarker is the content of JobMarkerFile.
type JobMarker struct {
	Format   string `json:"format"`
	Version  int    `json:"version"`
	Job      string `json:"job"`
	Token    string `json:"token,omitempty"` // tells apart jobs of one name
	Launcher string `json:"launcher"`
	Size     int    `json:"size"`
	Program  string `json:"program"`
}

// IsJob reports whether dir is a job's experiment directory.
func IsJob(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, JobMarkerFile))
	return err == nil
}

// ReadJobMarker reads the marker of the job in dir.
func ReadJobMarker(dir string) (*JobMarker, error) {
	path := filepath.Join(dir, JobMarkerFile)
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var m JobMarker
	if err := json.Unmarshal(b, &m); err != nil || m.Format != JobMarkerFormat {
		return nil, fmt.Errorf("%s: not a gopari job marker", path)
	}
	if m.Version > JobMarkerVersion {
		return nil, fmt.Errorf("%s: job version %d is newer than this gopari reads (%d)", path, m.Version, JobMarkerVersion)
	}
	return &m, nil
}
