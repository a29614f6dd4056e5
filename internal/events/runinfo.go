package events

import (
	"encoding/json"
	"fmt"
	"os"

	"gopari/internal/profile"
)

// RunInfoFormat and RunInfoVersion identify stream.json
// (experiment.StreamFile). Readers refuse
// other formats and newer versions.
const (
	RunInfoFormat  = "gopari-stream"
	RunInfoVersion = 1
)

// RunInfo is events/stream.json: the run's program, clock, regions and
// team-tree locations, which the stream's records refer to. The runtime
// writes it, atomically (a new file renamed over the old), when it makes
// the events directory, and again before it writes a block whose records
// it would not describe: regions registered or locations made since, and
// (with the TSC) whenever the run's time has doubled since, so that the
// clock's rate is measured over at least half the run up to the last
// block, or over a second. profile.json supersedes it: the runtime
// removes it once the profile is written.
type RunInfo struct {
	Format        string           `json:"format"`
	Version       int              `json:"version"`
	StreamVersion int              `json:"stream_version"` // the files' format version
	Program       string           `json:"program"`
	Args          []string         `json:"args,omitempty"`
	PID           int              `json:"pid"`
	MPI           *profile.MPIRank `json:"mpi,omitempty"`
	Kinds         []string         `json:"kinds"` // as profile.json's events.kinds
	// Clock converts ticks as profile.json's; with the TSC, its
	// ns_per_tick was measured over CalibratedNs, from the run's start to
	// when this was written (WrittenNs), where profile.json measures it
	// over the whole run.
	Clock        profile.Clock `json:"clock"`
	CalibratedNs uint64        `json:"calibrated_ns"`
	WrittenNs    uint64        `json:"written_ns"`
	// Ended is set when the run ended and its profile was about to be
	// written: "exit", or the signal that ended it. A stream.json left
	// without it is a run killed before it could write anything more
	// (SIGKILL, the out-of-memory killer); with it, a run whose profile
	// could not be written, or that was killed while writing it.
	Ended   string           `json:"ended,omitempty"`
	Regions []profile.Region `json:"regions"`
	Threads []profile.Thread `json:"threads"`
}

// ReadRunInfo reads and checks a stream.json.
func ReadRunInfo(path string) (*RunInfo, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var ri RunInfo
	if err := json.Unmarshal(b, &ri); err != nil {
		return nil, fmt.Errorf("%s: not a gopari stream description: %v", path, err)
	}
	if ri.Format != RunInfoFormat {
		return nil, fmt.Errorf("%s: not a gopari stream description (format %q)", path, ri.Format)
	}
	if ri.Version > RunInfoVersion {
		return nil, fmt.Errorf("%s: version %d is newer than this gopari reads (%d); update gopari", path, ri.Version, RunInfoVersion)
	}
	if ri.StreamVersion > Version {
		return nil, fmt.Errorf("%s: event stream version %d is newer than this gopari reads (%d); update gopari", path, ri.StreamVersion, Version)
	}
	if !(ri.Clock.NsPerTick > 0) || ri.Clock.NsPerTick > 1e9 {
		return nil, fmt.Errorf("%s: clock.ns_per_tick %v is not a tick length", path, ri.Clock.NsPerTick)
	}
	return &ri, nil
}
