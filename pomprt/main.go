// Command pomprt is the POMP runtime of gopari, built as a C archive
// (go build -buildmode=c-archive) and linked into instrumented programs as
// libpomp.a. Its C part handles every event on thread-local memory (the
// files pomprt/core.h lists) and the start and end of a run (lifecycle.c); this Go part runs
// once, at exit, to turn the collected statistics into a profile, and
// writes the profiles of the program's forked children (control.go).
package main

/*
#cgo CFLAGS: -O2 -Wall -Wextra -ftls-model=initial-exec -I${SRCDIR}
#include "rt.h"
int pomp_cp_go_ready(void);
*/
import "C"

import (
	"runtime"
	"runtime/debug"
	"time"
)

// startTime names the default experiment directory: when the run
// started.
var startTime time.Time

//export pompGoFinalize
func pompGoFinalize(exit *C.char) {
	// The process ends after this: collecting the garbage of building the
	// profile (its call-path tree, symbols, JSON) is wasted work, which
	// on a short sampled run of 12,000 task paths was a third of what the
	// run added. The collector runs only if the heap grows 128 MiB past
	// what it holds now.
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	debug.SetMemoryLimit(int64(m.HeapInuse+m.StackInuse) + 128<<20)
	debug.SetGCPercent(-1)
	finalize(C.GoString(exit))
}

// init starts the control goroutine, which ends the run when the C
// signal handler (lifecycle.c) reports a signal, and writes the profiles
// of forked children. The C constructor that sets the handler up runs
// before the Go runtime starts.
func init() {
	startTime = time.Now()
	C.pomp_cp_go_ready() // the call-path hooks may ask for the filter now
	if fd := int(C.pomp_control_fd()); fd >= 0 {
		control = &controller{fd: fd, served: make(chan struct{})}
		go control.serve()
	}
}

func main() {}
