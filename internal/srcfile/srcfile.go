// Package srcfile reads the source files that gopari instrument and
// gopari diff rewrite: a file in one read (two halves on two threads for a
// large one), or standard input.
package srcfile

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"gopari/internal/mem"
)

// Read reads a source file, or standard input for "-".
func Read(name string, stdin interface{ Read([]byte) (int, error) }) ([]byte, error) {
	if name == "-" {
		var b bytes.Buffer
		_, err := b.ReadFrom(stdin)
		return b.Bytes(), err
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return nil, fmt.Errorf("%s: is a directory", name)
	}
	if !st.Mode().IsRegular() {
		return io.ReadAll(f) // a pipe or a device: its size says nothing
	}
	// One read into a buffer of the file's size (and a byte more, to see
	// that the file did not grow), in huge pages where the kernel has them.
	b := mem.Huge[byte](int(st.Size()) + 1)
	if size := int(st.Size()); size >= 1<<20 {
		return readHalves(f, b[:size+1])
	}
	for {
		n, err := f.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return nil, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)] // it grew while we read
		}
	}
}

// readHalves reads the file f of len(b)-1 bytes into b, one half on
// another thread: copying a large file, and the page faults of a fresh
// buffer, take two cores half the time. A file that changed meanwhile is
// read again, from the start.
func readHalves(f *os.File, b []byte) ([]byte, error) {
	size := len(b) - 1
	half := size / 2
	var n2 int
	var err2 error
	done := make(chan struct{})
	go func() {
		n2, err2 = f.ReadAt(b[half:size], int64(half))
		close(done)
	}()
	n1, err1 := f.ReadAt(b[:half], 0)
	<-done
	if n1 == half && n2 == size-half && err1 == nil && (err2 == nil || err2 == io.EOF) {
		if m, _ := f.ReadAt(b[size:], int64(size)); m == 0 {
			return b[:size], nil
		}
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	return io.ReadAll(f)
}

// Same reports whether two paths name the same existing file.
func Same(a, b string) bool {
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}
