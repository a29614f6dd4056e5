// Command pomprt is the POMP runtime of gopari, built as a C archive
// (go build -buildmode=c-archive) and linked into instrumented programs as
// libpomp.a. Its C part (rt.c, locks.c) handles every event on
// thread-local memory; this Go part runs once, at exit, to turn the
// collected statistics into a profile.
package main

/*
#cgo CFLAGS: -O2 -ftls-model=initial-exec -I${SRCDIR}
#include "rt.h"
*/
import "C"

//export pompGoFinalize
func pompGoFinalize() {
	finalize()
}

func main() {}
