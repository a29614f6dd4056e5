// Package atomicfile writes files so that a reader never sees one half
// written: a regular file is written through a temporary file beside it
// and a rename, and errors name the user's file, never the temporary one.
package atomicfile

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// WriteFile writes data to name; see writeAtomic.
func WriteFile(name string, data []byte) error {
	return Write(name, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// Write writes what write produces to name. A regular file, or a
// new one, is written through a temporary file in the same directory and
// a rename, so that name is never left half written: a new file gets mode
// 0644 under the umask, an existing one keeps its mode, and a symbolic
// link stays a link to the file written. Anything else (/dev/null,
// /dev/stdout, a terminal, a named pipe) is written in place: an atomic
// rename applies only to regular files. Errors name name, never the
// temporary file.
func Write(name string, write func(io.Writer) error) error {
	switch name {
	case "/dev/stdout":
		return writeStream(name, os.Stdout, write)
	case "/dev/stderr":
		return writeStream(name, os.Stderr, write)
	}
	target := name
	if real, err := filepath.EvalSymlinks(name); err == nil {
		target = real
	}
	perm, keep := fs.FileMode(0o644), false
	if st, err := os.Stat(target); err == nil {
		switch {
		case st.IsDir():
			return &fs.PathError{Op: "write", Path: name, Err: errors.New("is a directory")}
		case !st.Mode().IsRegular():
			return writeInPlace(name, write)
		}
		perm, keep = st.Mode().Perm(), true
	}
	tmp, err := createTemp(target, perm)
	if err != nil {
		return &fs.PathError{Op: "create", Path: name, Err: cause(err, "")}
	}
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := writeStream(name, tmp, write); err != nil {
		return err
	}
	if keep {
		// The file replaced keeps its mode exactly; a new one got 0644
		// minus the umask from OpenFile.
		if err := tmp.Chmod(perm); err != nil {
			return &fs.PathError{Op: "chmod", Path: name, Err: cause(err, "")}
		}
	}
	if err := tmp.Close(); err != nil {
		return &fs.PathError{Op: "write", Path: name, Err: cause(err, "")}
	}
	if err := os.Rename(tmp.Name(), target); err != nil {
		return &fs.PathError{Op: "rename", Path: name, Err: cause(err, "")}
	}
	ok = true
	return nil
}

// createTemp creates a new temporary file beside target.
func createTemp(target string, perm fs.FileMode) (*os.File, error) {
	dir := filepath.Dir(target)
	var err error
	for i := 0; i < 10; i++ {
		var b [6]byte
		rand.Read(b[:])
		path := filepath.Join(dir, TempPrefix(target)+hex.EncodeToString(b[:])+".tmp")
		var f *os.File
		f, err = os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if err == nil || !os.IsExist(err) {
			return f, err
		}
	}
	return nil, err
}

// writeInPlace writes to an existing file that is not a regular one.
func writeInPlace(name string, write func(io.Writer) error) error {
	f, err := os.OpenFile(name, os.O_WRONLY, 0)
	if err != nil {
		return &fs.PathError{Op: "open", Path: name, Err: cause(err, "")}
	}
	if err := writeStream(name, f, write); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return &fs.PathError{Op: "write", Path: name, Err: cause(err, "")}
	}
	return nil
}

// writeStream writes what write produces to f through a buffer; errors
// name name.
func writeStream(name string, f *os.File, write func(io.Writer) error) error {
	return WriteTo(name, f, write)
}

// WriteTo writes what write produces to w through a buffer; errors name
// name.
func WriteTo(name string, w io.Writer, write func(io.Writer) error) error {
	bw := newAsyncWriter(w)
	err := write(bw)
	werr := bw.Close()
	if err != nil {
		// bw keeps write errors to itself: err is one of making the
		// output (too few runs for a model, a damaged stream), not of
		// writing it, and says so by itself.
		return err
	}
	if err = werr; err != nil {
		written := "\x00" // no path: keep every path in err
		if f, ok := w.(*os.File); ok {
			written = f.Name()
		}
		return &fs.PathError{Op: "write", Path: name, Err: cause(err, written)}
	}
	return nil
}

// WriteBelow writes to DIR/FILE (the layout of --out-dir and of golden
// directories), creating the directories it needs.
func WriteBelow(dir, file string, write func(io.Writer) error) error {
	dest, err := OutPath(dir, file)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
		return err
	}
	return Write(dest, write)
}

// Cause strips the path of a file-system error, so that a message about
// a file gopari wrote names the user's file and not a temporary one.
func Cause(err error) error { return cause(err, "") }

// cause strips the path of a file-system error about the file gopari
// wrote (named written, or any path when written is ""), so that a
// message names the user's file and not a temporary one.
func cause(err error, written string) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && (written == "" || pe.Path == written) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// OutPath places file below dir, keeping its relative path. It refuses
// paths that would leave dir.
func OutPath(dir, file string) (string, error) {
	clean := filepath.Clean(file)
	if filepath.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%s: with --out-dir, files must be relative paths below the current directory", file)
	}
	return filepath.Join(dir, clean), nil
}

// asyncWriter buffers writes and passes full buffers to a goroutine that
// writes them, so that copying the output into the kernel overlaps with
// producing the rest of it.
type asyncWriter struct {
	buf  []byte
	full chan []byte // buffers to write
	free chan []byte // buffers written
	done chan error  // the first error, when the writer has stopped
}

// asyncBuffer is the size of each of the writer's three buffers.
const asyncBuffer = 256 << 10

func newAsyncWriter(w io.Writer) *asyncWriter {
	a := &asyncWriter{full: make(chan []byte, 2), free: make(chan []byte, 3), done: make(chan error, 1)}
	a.buf = make([]byte, 0, asyncBuffer)
	a.free <- make([]byte, 0, asyncBuffer)
	a.free <- make([]byte, 0, asyncBuffer)
	go func() {
		var err error
		for b := range a.full {
			if err == nil {
				_, err = w.Write(b)
			}
			a.free <- b[:0]
		}
		a.done <- err
	}()
	return a
}

func (a *asyncWriter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		if len(a.buf) == cap(a.buf) {
			a.full <- a.buf
			a.buf = <-a.free
		}
		k := copy(a.buf[len(a.buf):cap(a.buf)], p)
		a.buf = a.buf[:len(a.buf)+k]
		p = p[k:]
	}
	return n, nil
}

// Close writes what is left and waits for the writer; it returns the
// first error of any write.
func (a *asyncWriter) Close() error {
	if len(a.buf) > 0 {
		a.full <- a.buf
	}
	close(a.full)
	return <-a.done
}
