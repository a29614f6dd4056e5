// Package par runs the chunks of a pass on the calling goroutine and one
// helper, for a machine of two cores that other programs may be using:
// the chunks are claimed one at a time, so when the helper does not get
// a core the caller does every chunk itself, and waits at most for the
// one chunk the helper has in hand.
package par

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// Useful reports whether a helper thread is likely to get a core: when
// GOMAXPROCS allows two threads and, as the process starts, no more
// tasks than cores are runnable on the machine (/proc/loadavg counts
// this one). On a machine whose cores other programs keep busy, a pass
// split into chunks costs its forks and joins and gains no core: callers
// then run it in one piece. One other runnable task still leaves the
// helper a core much of the time (other programs wait for input and
// output, and the chunks are claimed one at a time, so a helper without
// a core holds up one chunk at most): on 2 cores at load 2.1, the
// instrumenter's passes in chunks took 0.85 of the wall time of one
// piece on gen.Dense 200k, 0.91 on gen.Mixed (21 pairs). The answer does
// not change the output of any pass.
func Useful() bool {
	useful.once.Do(func() {
		if runtime.GOMAXPROCS(0) < 2 {
			return
		}
		useful.yes = true
		b, err := os.ReadFile("/proc/loadavg")
		if err != nil {
			return // not Linux: assume the cores are free
		}
		f := strings.Fields(string(b))
		if len(f) < 4 {
			return
		}
		running, _, _ := strings.Cut(f[3], "/")
		if n, err := strconv.Atoi(running); err == nil && n > runtime.NumCPU() {
			useful.yes = false
		}
	})
	return useful.yes
}

var useful struct {
	once sync.Once
	yes  bool
}

// SetUseful makes Useful answer yes, for tests that check the passes in
// chunks whatever the machine's load.
func SetUseful(yes bool) {
	useful.once.Do(func() {})
	useful.yes = yes
}

// A Group is a pass of n chunks under way.
type Group struct {
	n        int32
	next     atomic.Int32 // the next chunk to claim
	finished atomic.Int32 // chunks done
	work     func(i int)
	done     chan struct{} // a token for each chunk the helper finished
	mu       sync.Mutex
	failure  any // the first panic of a chunk, passed on by Wait
}

// Start starts work on chunks 0 to n-1 on a helper goroutine.
func Start(n int, work func(i int)) *Group {
	g := &Group{n: int32(n), work: work, done: make(chan struct{}, n)}
	if n > 1 {
		go g.claim(true)
	}
	return g
}

// Do runs work on chunks 0 to n-1, on the calling goroutine and a helper.
func Do(n int, work func(i int)) { Start(n, work).Wait() }

// Wait works on the chunks that are left and returns when every chunk
// is done; it panics with a chunk's panic.
func (g *Group) Wait() {
	g.claim(false)
	for g.finished.Load() < g.n {
		<-g.done
	}
	if g.failure != nil {
		panic(g.failure)
	}
}

// claim works on chunks until none is left.
func (g *Group) claim(helper bool) {
	for {
		i := g.next.Add(1) - 1
		if i >= g.n {
			return
		}
		g.run(int(i))
		g.finished.Add(1)
		if helper {
			g.done <- struct{}{}
		}
	}
}

// run works on chunk i, keeping its panic for Wait.
func (g *Group) run(i int) {
	defer func() {
		if r := recover(); r != nil {
			g.mu.Lock()
			if g.failure == nil {
				g.failure = r
			}
			g.mu.Unlock()
		}
	}()
	g.work(i)
}
