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

import "syscall"

//export pompGoFinalize
func pompGoFinalize(exit *C.char) {
	finalize(C.GoString(exit))
}

// init starts the goroutine that ends the run when the C signal handler
// (rt.c) reports SIGINT, SIGTERM or SIGHUP. The C constructor that sets
// the handler up runs before the Go runtime starts.
func init() {
	fd := int(C.pomp_signal_fd())
	if fd < 0 {
		return
	}
	go func() {
		var b [1]byte
		for {
			n, err := syscall.Read(fd, b[:])
			if n == 1 {
				C.pomp_signal_exit(C.int(b[0]))
				return
			}
			if err != syscall.EINTR {
				return
			}
		}
	}()
}

func main() {}
