//go:build !otf2

package otf2

import (
	"errors"

	"gopari/internal/events"
)

// Available reports whether this gopari was built with libotf2.
const Available = false

// Write would write exp as an OTF2 archive; this gopari was built without
// libotf2.
func Write(dir string, exp *events.Experiment) (Stats, error) {
	return Stats{}, errMissing
}

// WriteJob would write an MPI job's ranks as one OTF2 archive; this
// gopari was built without libotf2.
func WriteJob(dir, job string, ranks []events.Rank) (Stats, error) { return Stats{}, errMissing }

// WriteWith would write exp as an OTF2 archive; this gopari was built
// without libotf2.
func WriteWith(dir string, exp *events.Experiment, opt Options) (Stats, error) {
	return Stats{}, errMissing
}

// WriteJobWith would write an MPI job's ranks as one OTF2 archive; this
// gopari was built without libotf2.
func WriteJobWith(dir, job string, ranks []events.Rank, opt Options) (Stats, error) {
	return Stats{}, errMissing
}

var errMissing = errors.New("this gopari was built without OTF2 support: install libotf2-trace-dev (Debian) and rebuild with make, or build with -tags otf2")
