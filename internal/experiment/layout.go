// Package experiment owns the layout of gopari's experiment directories:
// the names of the files a run writes (the runtime, pomprt, uses the same
// constants), the directory of an MPI job with its marker and one
// directory per rank, and how a command finds the run it was named (or
// the newest one).
//
// A run's directory (gopari-PROGRAM-DATE-TIME-PID, or
// GOPARI_EXPERIMENT_DIRECTORY) holds:
//
//	profile.json         the profile, written at the end of the run
//	profile.json.tmp     the profile while it is written
//	events/              the event stream (GOPARI_MODE=trace, GOPARI_GRAINS=1)
//	events/stream.json   the run's description while it runs
//	events/thread-NNNNNN.evt  one stream file per thread
//	run.json             gopari scale's record of the run
//
// An MPI job's directory (gopari-PROGRAM-JOB) holds job.json and
// rank-NNNNN, one run's directory per rank.
package experiment

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
)

// File names in a run's directory.
const (
	// ProfileFile is the profile a run writes at its end.
	ProfileFile = "profile.json"
	// ProfileTmpFile is the profile while the runtime writes it; a run
	// killed then leaves it instead of ProfileFile.
	ProfileTmpFile = ProfileFile + ".tmp"
	// EventsDir is the directory of the event stream.
	EventsDir = "events"
	// StreamFile, in EventsDir, is the run's description while it runs:
	// what the readers need of a run killed before it wrote its profile.
	StreamFile = "stream.json"
	// ReserveFile, in EventsDir, holds disk space back for the profile
	// while the stream is written; the runtime removes it before it
	// writes the profile, so only a run killed before then leaves it.
	ReserveFile = "space-for-profile.reserve"
	// SamplesFile, in EventsDir, holds a traced run's samples
	// (GOPARI_SAMPLE_HZ): internal/events.ReadSamples reads it.
	SamplesFile = "samples.bin"
	// ThreadFilePattern matches the stream files in EventsDir.
	ThreadFilePattern = "thread-*.evt"
	// RunRecordFile is what gopari scale writes beside each profile, so
	// that a run keeps its thread count and parameters when moved.
	RunRecordFile = "run.json"
	// Prefix starts the name of every experiment directory the runtime
	// names itself.
	Prefix = "gopari-"
)

// ThreadFile is the name of thread index's stream file in EventsDir.
func ThreadFile(index int) string { return fmt.Sprintf("thread-%06d.evt", index) }

// Profile is the path of the profile in the run's directory dir.
func Profile(dir string) string { return filepath.Join(dir, ProfileFile) }

// Samples is the path of the samples of the run's trace in dir.
func Samples(dir string) string { return filepath.Join(dir, EventsDir, SamplesFile) }

// Stream is the path of the stream description in the run's directory dir.
func Stream(dir string) string { return filepath.Join(dir, EventsDir, StreamFile) }

// Dir returns the run's directory that arg names: arg itself, or the
// directory of the profile arg names.
func Dir(arg string) string {
	if filepath.Base(arg) == ProfileFile {
		return filepath.Dir(arg)
	}
	return arg
}

// RankDir is the name of rank n's directory in its job's directory.
func RankDir(n int) string { return fmt.Sprintf("rank-%05d", n) }

var rankDir = regexp.MustCompile(`^rank-([0-9]{5,})$`)

// ParseRankDir returns the rank whose directory is named name.
func ParseRankDir(name string) (int, bool) {
	sub := rankDir.FindStringSubmatch(name)
	if sub == nil {
		return 0, false
	}
	n, err := strconv.Atoi(sub[1])
	return n, err == nil
}
