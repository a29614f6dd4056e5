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

	"gopari/internal/experiment"
	"gopari/internal/profile"
)

// finalize writes the profile of this run, then the profiles of forked
// children that ended before it. It runs once, from exit() or when a
// signal ends the run (exit is then the signal's name). Failures are
// reported on stderr; they never change the program's exit status.
func finalize(exit string) {
	defer control.close()
	g := &C.pomp_g
	mode := modeName(g.mode)
	if mode == "off" || g.nregions == 0 {
		return // not instrumented: leave no trace
	}
	// The run's wall time ends where the program did, before the
	// stream is written out and the clock calibrated.
	end := uint64(g.end_ns)
	if end == 0 {
		end = uint64(C.pomp_ns())
	}
	ck := calibrate()
	p := collect(g, ck, end-uint64(g.ns0))
	addCallPaths(p, g, ck)
	p.Mode = mode
	p.Exit = exit
	p.PID = os.Getpid()
	p.Program, p.Args = commandLine()
	if m := thisJob(); m != nil {
		p.MPI = &m.MPIRank
	}
	if p.Events = streamMeta(g, ck); p.Events != nil && g.ev_all != 0 {
		p.Mode = "trace" // grains alone leave the mode profile
	}
	dir, err := rootDir(p.Program) // made already if the event stream needed it
	if p.Events != nil {
		endStreamInfo(g, exit)
	}
	if writeExperimentIn(dir, err, p, g) && p.Events != nil {
		dropStreamInfo(dir)
	}
}

// runBase returns the name of this process's experiment directory (a
// numbered sibling is taken if it exists) and whether the user chose it:
// for a rank of an MPI job, rank-NNNNN in the job's directory.
func runBase(program string) (base string, explicit bool, err error) {
	if m := thisJob(); m != nil {
		base, err = m.rankBase(program)
		return base, false, err
	}
	base, explicit = experimentBase(program)
	return base, explicit, nil
}

// modeName is the profile's name of a runtime mode.
func modeName(m C.int) string {
	switch m {
	case C.POMP_MODE_OFF:
		return "off"
	case C.POMP_MODE_PROFILE:
		return "profile"
	}
	return "ids"
}

// writeExperiment writes profile p, and the task IDs of g in
// POMP_MODE_RECORD, into a new experiment directory named base (or a
// numbered sibling).
func writeExperiment(base string, explicit bool, p *profile.Profile, g *C.pomp_rt) {
	dir, err := makeExperimentDir(base, explicit)
	writeExperimentIn(dir, err, p, g)
}

// writeExperimentIn writes p into dir, made with error err, and reports
// whether the profile is written.
func writeExperimentIn(dir string, err error, p *profile.Profile, g *C.pomp_rt) bool {
	if err != nil {
		fmt.Fprintf(os.Stderr, "gopari: no profile written: %v\n", err)
		return false
	}
	if err := writeJSON(experiment.Profile(dir), p); err != nil {
		// Leave nothing behind: the directory is this run's and empty
		// (but for an event stream, which stays).
		os.Remove(dir)
		fmt.Fprintf(os.Stderr, "gopari: no profile written: %v\n", err)
		return false
	}
	if p.Events != nil {
		writeSamples(dir) // GOPARI_SAMPLE_HZ in trace mode (sample.go)
	}
	if g.mode == C.POMP_MODE_RECORD {
		if err := writeIDs(filepath.Join(dir, "ids.bin"), g); err != nil {
			fmt.Fprintf(os.Stderr, "gopari: task IDs not written: %v\n", err)
		}
	}
	if C.pomp_env_value(C.ENV_SUMMARY) == 1 { // GOPARI_SUMMARY=1, validated in env.c
		summary(p, dir)
	}
	return true
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

// experimentBase returns the name of this run's experiment directory:
// GOPARI_EXPERIMENT_DIRECTORY (explicit), or
// gopari-PROGRAM-YYYYMMDD-HHMMSS-PID after the time the run started.
func experimentBase(program string) (base string, explicit bool) {
	if base := os.Getenv("GOPARI_EXPERIMENT_DIRECTORY"); base != "" {
		return base, true
	}
	return fmt.Sprintf("%s%s-%s-%d", experiment.Prefix, programName(program), startTime.Format("20060102-150405"), os.Getpid()), false
}

// programName is the program's file name, made safe for a directory name.
func programName(program string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == 0 || r < ' ' {
			return '_'
		}
		return r
	}, filepath.Base(program))
}

// makeExperimentDir creates the directory for a run's files. It never
// reuses an existing path, whether a directory, a file or a symbolic
// link: a taken name gets a numbered sibling instead, and stderr says so
// when the name was the user's.
func makeExperimentDir(base string, explicit bool) (string, error) {
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
// The JSON is compact: indenting it took more than the encoding itself
// (a sampled fibcut's 36 KB profile: 1.35M of the exit's 4.2M
// instructions), paid by every run at its exit; jq . indents it.
func writeJSON(path string, v any) error {
	return writeNew(path, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		return enc.Encode(v)
	})
}

// writeIDs writes every recorded task ID as a little-endian uint64.
func writeIDs(path string, g *C.pomp_rt) error {
	return writeNew(path, func(w io.Writer) error {
		var b [8]byte
		for _, ids := range recordedIDs(g) {
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
// temporary file behind on failure. Every failure is returned: of the
// writes (through the buffer's flush), of close (where NFS reports a full
// disk or quota) and of the rename.
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
	if rerr := os.Remove(tmp); err == nil && rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
		// The file is written; only its temporary name is left over.
		fmt.Fprintf(os.Stderr, "gopari: %s is written, but %s could not be removed: %v\n", path, tmp, rerr)
	}
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
