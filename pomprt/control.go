package main

/*
#include <sys/socket.h>
#include "rt.h"
*/
import "C"

import (
	"fmt"
	"os"
	"strconv"
	"syscall"
)

// A controller reads the control socket of lifecycle.c: one-byte
// messages report the signal that ends the run, longer ones carry the
// snapshot of a forked child, whose profile it writes.
type controller struct {
	fd     int
	served chan struct{} // closed when serve returns
	// inSignal is set while serve ends the run for a signal: finalize
	// then runs on serve's goroutine and drains the socket itself.
	inSignal bool
}

var control *controller

// message kinds
const (
	msgEnd = iota // the socket is shut down and empty
	msgSignal
	msgFork
)

// receive returns the next message: a signal number or a snapshot's file
// descriptor.
func (c *controller) receive() (kind, value int) {
	var buf [16]byte
	oob := make([]byte, syscall.CmsgSpace(4*4))
	for {
		n, oobn, _, _, err := syscall.Recvmsg(c.fd, buf[:], oob, syscall.MSG_CMSG_CLOEXEC)
		if err == syscall.EINTR {
			continue
		}
		if err != nil || n == 0 {
			return msgEnd, 0
		}
		var fds []int
		if msgs, err := syscall.ParseSocketControlMessage(oob[:oobn]); err == nil {
			for _, m := range msgs {
				if f, err := syscall.ParseUnixRights(&m); err == nil {
					fds = append(fds, f...)
				}
			}
		}
		if n == 1 && len(fds) == 0 {
			return msgSignal, int(buf[0])
		}
		if n == 16 && string(buf[:8]) == "GOPARIfk" && len(fds) == 1 {
			return msgFork, fds[0]
		}
		for _, f := range fds { // not ours
			syscall.Close(f)
		}
	}
}

// serve handles messages until the socket is shut down.
func (c *controller) serve() {
	defer close(c.served)
	for {
		switch kind, v := c.receive(); kind {
		case msgEnd:
			return
		case msgSignal:
			c.inSignal = true
			C.pomp_signal_exit(C.int(v)) // returns only for a crash, or when exit() ends the run
			c.inSignal = false
		case msgFork:
			writeFork(v)
		}
	}
}

// close stops accepting snapshots — a child that ends later is told so —
// and waits until those already sent are written.
func (c *controller) close() {
	if c == nil {
		return
	}
	syscall.Shutdown(c.fd, syscall.SHUT_RD)
	if !c.inSignal {
		<-c.served
		return
	}
	for {
		switch kind, v := c.receive(); kind {
		case msgEnd:
			return
		case msgFork:
			writeFork(v)
		}
	}
}

// writeFork writes the profile of a forked child from the snapshot in
// fd, into a directory named after this run's and the forks' pids.
func writeFork(fd int) {
	defer syscall.Close(fd)
	var s C.pomp_snapshot
	if C.pomp_snapshot_open(C.int(fd), &s) != 0 {
		fmt.Fprintf(os.Stderr, "gopari: a forked process sent a damaged snapshot; no profile written for it\n")
		return
	}
	defer C.pomp_snapshot_close(&s)
	g := &s.rt
	mode := modeName(g.mode)
	if mode == "off" || g.nregions == 0 {
		return
	}
	p := collect(g, calibrate(), uint64(s.end_ns-s.start_ns))
	p.Mode = mode
	p.Exit = C.GoString(s.exit)
	p.PID = int(s.pid)
	p.ForkedFrom = int(s.ppid)
	p.Program, p.Args = commandLine() // a fork runs this program
	if m := thisJob(); m != nil {
		p.MPI = &m.MPIRank
	}
	base, explicit, err := runBase(p.Program)
	if err != nil {
		fmt.Fprintf(os.Stderr, "gopari: no profile written for process %d: %v\n", p.PID, err)
		return
	}
	for i := 0; i < int(s.depth); i++ {
		base += ".fork-" + strconv.Itoa(int(s.chain[i]))
	}
	writeExperiment(base, explicit, p, g)
}
