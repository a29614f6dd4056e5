package main

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// writeFileAtomic writes data to name through a temporary file in the
// same directory and a rename, so that name is never left half written.
// A new file gets mode 0644 under the umask; an existing one keeps its
// mode, and a symbolic link stays a link to the file written.
func writeFileAtomic(name string, data []byte) error {
	return writeAtomic(name, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// writeAtomic is writeFileAtomic for content that write produces.
func writeAtomic(name string, write func(io.Writer) error) error {
	if real, err := filepath.EvalSymlinks(name); err == nil {
		name = real
	}
	dir := filepath.Dir(name)
	perm, keep := fs.FileMode(0o644), false
	if st, err := os.Stat(name); err == nil {
		if !st.Mode().IsRegular() {
			return fmt.Errorf("%s: not a regular file", name)
		}
		perm, keep = st.Mode().Perm(), true
	}
	var tmp *os.File
	var err error
	for i := 0; i < 10; i++ {
		var b [6]byte
		rand.Read(b[:])
		path := filepath.Join(dir, "."+filepath.Base(name)+".gopari-"+hex.EncodeToString(b[:])+".tmp")
		tmp, err = os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if err == nil || !os.IsExist(err) {
			break
		}
	}
	if err != nil {
		return err
	}
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	bw := bufio.NewWriterSize(tmp, 1<<16)
	if err := write(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if keep {
		// The file replaced keeps its mode exactly; a new one got 0644
		// minus the umask from OpenFile.
		if err := tmp.Chmod(perm); err != nil {
			return err
		}
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), name); err != nil {
		return err
	}
	ok = true
	return nil
}

// outPath places file below dir, keeping its relative path. It refuses
// paths that would leave dir.
func outPath(dir, file string) (string, error) {
	clean := filepath.Clean(file)
	if filepath.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%s: with --out-dir, files must be relative paths below the current directory", file)
	}
	return filepath.Join(dir, clean), nil
}

// readSource reads a source file, or standard input for "-".
func readSource(name string, stdin interface{ Read([]byte) (int, error) }) ([]byte, error) {
	if name == "-" {
		var b bytes.Buffer
		_, err := b.ReadFrom(stdin)
		return b.Bytes(), err
	}
	st, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return nil, fmt.Errorf("%s: is a directory", name)
	}
	return os.ReadFile(name)
}
