package otf2

import (
	"gopari/internal/events"
	"gopari/internal/timeline"
)

// Estimate returns about how many bytes the archive of runs with these
// censuses (timeline.Count) takes: OTF2 writes an ENTER or LEAVE in
// about 11 bytes (its timestamp, 8 bytes, shared by the records written
// at the same time), a task's create, switch or complete in about 10;
// the figures predict the archives of the tests' streams within 10%
// (Fib +2.5%, a dynamic loop -8%, critical sections +0.4%). Definitions
// add about a kilobyte. A sample (CALLING_CONTEXT_SAMPLE) takes about 16
// bytes with its share of the calling contexts: 1,609 samples added
// 26.3 kB to an archive of sampled.c.
func Estimate(census []*timeline.Census, locations int, samples int64) int64 {
	n := int64(1024+64*locations) + 16*samples
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
		return 11
	case typ == events.CreateBegin, typ == events.TaskBegin, typ == events.TaskloopBegin, typ == events.ImplicitBegin:
		return 21
	case typ == events.TaskEnd, typ == events.TaskloopEnd, typ == events.ImplicitEnd, typ == events.Join, typ == events.Dropped:
		return 31
	}
	return 0
}
