package events

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"gopari/internal/experiment"
	"gopari/internal/profile"
)

// Clock converts ticks to nanoseconds: ns since start = (ticks - Tick0) *
// NsPerTick. It is profile.json's "clock" object.
type Clock struct {
	Name        string  `json:"name"`
	NsPerTick   float64 `json:"ns_per_tick"`
	Tick0       uint64  `json:"tick0"`
	Ns0         uint64  `json:"ns0"`
	Realtime0Ns uint64  `json:"realtime0_ns"`
}

// Ns returns the nanoseconds since the start of the run at tick t.
func (c Clock) Ns(t uint64) float64 {
	if t < c.Tick0 {
		return -float64(c.Tick0-t) * c.NsPerTick
	}
	return float64(t-c.Tick0) * c.NsPerTick
}

// Dur returns the nanoseconds of d ticks.
func (c Clock) Dur(d uint64) float64 { return float64(d) * c.NsPerTick }

// FileInfo describes one stream file, as profile.json's events.files.
type FileInfo = profile.EventFile

// Meta is profile.json's "events" object: profile.Events, where its
// fields are documented.
type Meta = profile.Events

// An Experiment is a run directory with an event stream: what the
// readers need of its profile, and its stream files.
type Experiment struct {
	Dir     string
	Program string
	PID     int
	Clock   Clock
	Events  Meta
	Regions []profile.Region
	Threads []profile.Thread
	// Profile is the whole profile, when this gopari can read it.
	Profile *profile.Profile
	// Killed is set for a run that ended without writing its profile
	// (killed by SIGKILL or the system): the experiment is then read
	// from events/stream.json, and its stream up to each file's last
	// complete block. Profile is nil.
	Killed *Killed
}

// A Rank is one process of an MPI job, with its event stream: what the
// trace exports (internal/chrome, internal/otf2) write a job from.
type Rank struct {
	Rank int
	Exp  *Experiment
}

// ErrNoEvents is returned by OpenExperiment for a run without a stream.
var ErrNoEvents = errors.New("no event stream")

// OpenExperiment reads dir/profile.json and checks that the stream files
// it lists are there. A run recorded without an event stream gives an
// error wrapping ErrNoEvents. A directory without profile.json is read
// as a killed run when the runtime's stream.json is there (see Killed);
// otherwise the error wraps fs.ErrNotExist.
func OpenExperiment(dir string) (*Experiment, error) {
	path := experiment.Profile(dir)
	b, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			exp, kerr := openKilled(dir)
			if kerr == nil || !errors.Is(kerr, fs.ErrNotExist) {
				return exp, kerr
			}
			if _, serr := os.Stat(filepath.Join(dir, experiment.ProfileTmpFile)); serr == nil {
				return nil, fmt.Errorf("%s: the run stopped while writing its profile (only profile.json.tmp is there): %w", dir, err)
			}
			return nil, fmt.Errorf("%s: no profile.json: not a gopari experiment directory: %w", dir, err)
		}
		return nil, err
	}
	var raw struct {
		Format  string           `json:"format"`
		Version int              `json:"version"`
		Program string           `json:"program"`
		PID     int              `json:"pid"`
		Clock   json.RawMessage  `json:"clock"`
		Events  *json.RawMessage `json:"events"`
		Regions []profile.Region `json:"regions"`
		Threads []profile.Thread `json:"threads"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("%s: not a gopari profile: %v", path, err)
	}
	if raw.Format != profile.Format {
		return nil, fmt.Errorf("%s: not a gopari profile (format %q)", path, raw.Format)
	}
	if raw.Version > profile.Version {
		return nil, fmt.Errorf("%s: profile version %d is newer than this gopari reads (%d)", path, raw.Version, profile.Version)
	}
	e := &Experiment{Dir: dir, Program: raw.Program, PID: raw.PID, Regions: raw.Regions, Threads: raw.Threads}
	if p, err := profile.Read(path); err == nil {
		e.Profile = p
	}
	if raw.Events == nil || string(*raw.Events) == "null" {
		return nil, fmt.Errorf("%s: %w: the run was not recorded with GOPARI_MODE=trace or GOPARI_GRAINS=1", dir, ErrNoEvents)
	}
	if err := json.Unmarshal(*raw.Events, &e.Events); err != nil {
		return nil, fmt.Errorf("%s: its \"events\" object: %v", path, err)
	}
	if err := json.Unmarshal(raw.Clock, &e.Clock); err != nil {
		return nil, fmt.Errorf("%s: its \"clock\" object: %v", path, err)
	}
	if !(e.Clock.NsPerTick > 0) || e.Clock.NsPerTick > 1e9 {
		return nil, fmt.Errorf("%s: clock.ns_per_tick %v is not a tick length", path, e.Clock.NsPerTick)
	}
	if e.Events.Version > Version {
		return nil, fmt.Errorf("%s: event stream version %d is newer than this gopari reads (%d); update gopari", path, e.Events.Version, Version)
	}
	if e.Events.Dir == "" {
		e.Events.Dir = experiment.EventsDir
	}
	if !local(e.Events.Dir) {
		return nil, fmt.Errorf("%s: events.dir %q is not a directory inside the experiment", path, e.Events.Dir)
	}
	if err := e.checkTables(path); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, f := range e.Events.Files {
		if !local(f.Name) || strings.ContainsRune(f.Name, '/') {
			return nil, fmt.Errorf("%s: event file name %q is not a plain file name", path, f.Name)
		}
		if seen[f.Name] {
			return nil, fmt.Errorf("%s: event file %s is listed twice", path, f.Name)
		}
		seen[f.Name] = true
	}
	return e, nil
}

// checkTables checks that regions and threads are numbered in order, as
// the readers index them; path names the file they came from.
func (e *Experiment) checkTables(path string) error {
	for i := range e.Regions {
		if e.Regions[i].ID != i+1 {
			return fmt.Errorf("%s: regions[%d] has id %d, want %d", path, i, e.Regions[i].ID, i+1)
		}
	}
	for i, t := range e.Threads {
		if t.Index != i {
			return fmt.Errorf("%s: threads[%d] has index %d, want %d", path, i, t.Index, i)
		}
	}
	return nil
}

// local reports whether name is a relative path that stays inside its
// directory.
func local(name string) bool { return filepath.IsLocal(name) && name != "." }

// FilePath returns the path of a stream file.
func (e *Experiment) FilePath(f FileInfo) string {
	return filepath.Join(e.Dir, e.Events.Dir, f.Name)
}

// Region returns the region with id, or nil.
func (e *Experiment) Region(id uint32) *profile.Region {
	if id >= 1 && int(id) <= len(e.Regions) {
		return &e.Regions[id-1]
	}
	return nil
}

// Open opens every stream file of the run, checking each header against
// the profile.
func (e *Experiment) Open() ([]*Reader, error) {
	var rs []*Reader
	for _, f := range e.Events.Files {
		var r *Reader
		var err error
		if e.Killed != nil {
			r, err = openSized(e.FilePath(f), f.Bytes) // its complete blocks
		} else {
			r, err = Open(e.FilePath(f))
		}
		if err != nil {
			closeAll(rs)
			return nil, err
		}
		rs = append(rs, r)
		if int(r.Header().OSThread) != f.OSThread {
			closeAll(rs)
			return nil, r.errf(12, "header says OS thread %d, profile.json says %d", r.Header().OSThread, f.OSThread)
		}
	}
	return rs, nil
}

func closeAll(rs []*Reader) {
	for _, r := range rs {
		r.Close()
	}
}
