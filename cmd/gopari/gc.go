package main

import (
	"os"
	"runtime/debug"
)

// pauseGC turns garbage collection off while one source file of size
// bytes is instrumented and written, and returns what turns it back on.
// Instrumenting keeps nearly all it allocates until the file is written
// (the 200k-line benchmark file peaks at the same RSS with and without
// collection), so a collection would find next to nothing to free, and
// its marking takes the second core from the scanner and the writer. A
// memory limit brings collection back should a file need far more than
// its size predicts. A GOGC set by the user is left alone.
func pauseGC(size int64) (resume func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	percent := debug.SetGCPercent(-1)
	limit := debug.SetMemoryLimit(1<<30 + 32*size)
	return func() {
		debug.SetMemoryLimit(limit)
		debug.SetGCPercent(percent)
	}
}

// sourceSize is the size of the file name, or 0 when it is not a
// regular file (standard input, a pipe).
func sourceSize(name string) int64 {
	if name == "-" {
		return 0
	}
	st, err := os.Stat(name)
	if err != nil || !st.Mode().IsRegular() {
		return 0
	}
	return st.Size()
}
