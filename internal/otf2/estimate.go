package otf2

import (
	"gopari/internal/events"
	"gopari/internal/timeline"
)

// Estimate returns about how many bytes the archive of runs with these
// censuses (timeline.Count) takes: OTF2 writes an ENTER or LEAVE in
// about 12 bytes (its timestamp, 8 bytes, shared by the records written
// at the same time), a task's create, switch or complete in about 8 more;
// the figures are those of the Fib and loop scenarios' archives, whose
// records they predict within 1%. Definitions add a few kilobytes.
func Estimate(census []*timeline.Census, locations int) int64 {
	n := int64(4096 + 256*locations)
	for _, cs := range census {
		for k, c := range cs.ByKey {
			n += c * recordBytes(k.Type)
		}
	}
	return n
}

// recordBytes is what a stream record of type typ becomes in an archive.
func recordBytes(typ events.Type) int64 {
	switch {
	case typ.IsEnter(), typ.IsExit(), typ == events.ChunkBegin, typ == events.ChunkEnd,
		typ == events.FuncEnter, typ == events.FuncExit, typ == events.CreateEnd,
		typ == events.LockAcquired, typ == events.LockReleased, typ == events.Resume:
		return 12
	case typ == events.CreateBegin, typ == events.TaskBegin, typ == events.TaskloopBegin, typ == events.ImplicitBegin:
		return 20
	case typ == events.TaskEnd, typ == events.TaskloopEnd, typ == events.ImplicitEnd, typ == events.Join, typ == events.Dropped:
		return 28
	}
	return 0
}
