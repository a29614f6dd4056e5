package main

/*
#include "rt.h"
*/
import "C"

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"gopari/internal/profile"
)

// finalize writes the profile of this run. It runs once, from exit() or
// when a signal ends the run (exit is then the signal's name). Failures
// are reported on stderr; they never change the program's exit status.
func finalize(exit string) {
	mode := map[int]string{C.POMP_MODE_OFF: "off", C.POMP_MODE_IDS: "ids", C.POMP_MODE_PROFILE: "profile", C.POMP_MODE_RECORD: "ids"}[int(C.pomp_g.mode)]
	if mode == "off" || C.pomp_g.nregions == 0 {
		return // not instrumented: leave no trace
	}
	p := collect()
	p.Mode = mode
	p.Exit = exit
	p.PID = os.Getpid()
	p.Program, p.Args = commandLine()
	dir, err := makeExperimentDir(p.Program)
	if err != nil {
		fmt.Fprintf(os.Stderr, "gopari: no profile written: %v\n", err)
		return
	}
	if err := writeJSON(filepath.Join(dir, "profile.json"), p); err != nil {
		fmt.Fprintf(os.Stderr, "gopari: no profile written: %v\n", err)
		return
	}
	if int(C.pomp_g.mode) == C.POMP_MODE_RECORD {
		if err := writeIDs(filepath.Join(dir, "ids.bin")); err != nil {
			fmt.Fprintf(os.Stderr, "gopari: task IDs not written: %v\n", err)
		}
	}
	if v := os.Getenv("GOPARI_SUMMARY"); v != "" && v != "0" {
		summary(p, dir)
	}
}

// commandLine returns the program name and its arguments.
func commandLine() (string, []string) {
	b, err := os.ReadFile("/proc/self/cmdline")
	if err != nil || len(b) == 0 {
		return "program", nil
	}
	parts := strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
	return parts[0], parts[1:]
}

// makeExperimentDir creates the directory for this run's files. It never
// reuses an existing path, whether a directory, a file or a symbolic
// link: a taken name gets a numbered sibling instead, and stderr says so.
func makeExperimentDir(program string) (string, error) {
	base := os.Getenv("GOPARI_EXPERIMENT_DIRECTORY")
	explicit := base != ""
	if !explicit {
		name := filepath.Base(program)
		name = strings.Map(func(r rune) rune {
			if r == '/' || r == 0 || r < ' ' {
				return '_'
			}
			return r
		}, name)
		base = fmt.Sprintf("gopari-%s-%s-%d", name, time.Now().Format("20060102-150405"), os.Getpid())
	}
	dir := base
	for i := 1; ; i++ {
		err := os.Mkdir(dir, 0o755)
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrExist) {
			return "", err
		}
		if i == 100 {
			return "", fmt.Errorf("%s and 99 numbered alternatives exist", base)
		}
		dir = base + "." + strconv.Itoa(i)
	}
	if explicit && dir != base {
		fmt.Fprintf(os.Stderr, "gopari: %s exists and is kept; this run's profile goes to %s\n", base, dir)
	}
	return dir, nil
}

// writeJSON writes v to a new file; it refuses to replace anything.
func writeJSON(path string, v any) error {
	return writeNew(path, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", " ")
		return enc.Encode(v)
	})
}

// writeIDs writes every recorded task ID as a little-endian uint64.
func writeIDs(path string) error {
	return writeNew(path, func(w io.Writer) error {
		var b [8]byte
		for _, ids := range recordedIDs() {
			for _, id := range ids {
				binary.LittleEndian.PutUint64(b[:], id)
				if _, err := w.Write(b[:]); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// writeNew writes a new file at path with mode 0644 under the umask,
// through a temporary file and a rename, so that a reader never sees it
// half written. It never replaces an existing file, and leaves no
// temporary file behind on failure.
func writeNew(path string, write func(io.Writer) error) error {
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	err = write(w)
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		// A hard link, unlike rename, fails if path exists. Where the
		// file system has no hard links, rename in the directory this run
		// created.
		if lerr := os.Link(tmp, path); lerr != nil {
			if errors.Is(lerr, fs.ErrExist) {
				err = lerr
			} else {
				err = os.Rename(tmp, path)
			}
		}
	}
	os.Remove(tmp)
	return err
}

// summary prints a few lines about the run to stderr.
func summary(p *profile.Profile, dir string) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "gopari: %s: %d regions, %d threads (%d OS threads), %.3f s; profile in %s\n",
		filepath.Base(p.Program), len(p.Regions), len(p.Threads), p.OSThreads, float64(p.WallNs)/1e9, dir)
	var created, executed uint64
	for _, t := range p.Tasks {
		created += t.Created
		executed += t.Executed
	}
	if created > 0 {
		fmt.Fprintf(&b, "gopari: %d tasks created, %d executed, creation depth up to %d\n", created, executed, p.Tree.MaxDepth)
	}
	if p.UnmatchedEvents > 0 {
		fmt.Fprintf(&b, "gopari: %d unmatched events (cancellation or exit inside a region)\n", p.UnmatchedEvents)
	}
	os.Stderr.Write(b.Bytes())
}
