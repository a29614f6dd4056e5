// Package otf2 writes a run's event stream as an OTF2 archive through
// the OTF2 library (libotf2), for Vampir and the otf2 tools: anchor file
// DIR/traces.otf2, definitions DIR/traces.def, events below DIR/traces/,
// as Score-P lays them out. Locations are the team-tree threads (0, 0.1,
// 0.1.1), grouped by the OS threads they ran on; OpenMP records are
// OTF2's own: thread fork/join, team begin/end, task create, switch and
// complete, lock acquire/release, and enter/leave of regions whose
// definitions carry the source file and lines.
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
