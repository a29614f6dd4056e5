// Package otf2 writes a run's event stream as an OTF2 archive through
// the OTF2 library (libotf2), for Vampir and the otf2 tools: anchor file
// DIR/traces.otf2, definitions DIR/traces.def, events below DIR/traces/,
// as Score-P lays them out. Locations are the team-tree threads (0, 0.1,
// 0.1.1), grouped by the OS threads they ran on; OpenMP records are
// OTF2's own: thread fork/join, team begin/end, task create, switch and
// complete, lock acquire/release, and enter/leave of regions whose
// definitions carry the source file and lines. A sampled run's samples
// (GOPARI_SAMPLE_HZ in trace mode) are calling-context samples whose
// calling contexts are their call paths (samples.go).
//
// The package needs cgo and libotf2 (build tag otf2); without the tag,
// Write reports that support is missing and the rest of gopari builds.
package otf2

import (
	"gopari/internal/timeline"
)

// Stats counts the records written, by OTF2 record name as otf2-print
// shows them (ENTER, THREAD_TASK_CREATE, ...).
type Stats struct {
	Records   map[string]int64
	Locations int
	Regions   int
	Timeline  timeline.Stats
}

// Options cut an archive and report its progress. An archive cut to a
// window keeps the records from From to To (nanoseconds since the run's
// start; a job's since its first rank's): what is open at the window's
// start is entered there, what is open at its end left there. Cut to
// threads, it keeps the records of the locations of these team paths;
// every location is still defined.
type Options struct {
	Window   bool
	From, To float64
	Threads  map[string]bool
	// Progress, when not nil, is called every 1<<16 events with the
	// stream records read so far.
	Progress func(records int64)
}
