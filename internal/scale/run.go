package scale

// Running a program at several thread counts, as gopari scale does.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"gopari/internal/atomicfile"
	"gopari/internal/experiment"
)

// A Plan is what gopari scale runs: Argv at each thread count, Repeat
// times, into Out, with Params recorded in each run's record.
type Plan struct {
	Out     string
	Argv    []string
	Threads []int
	Repeat  int
	Params  map[string]string
}

// A ProgramError is a run of the program that failed; gopari scale exits
// with Code, the program's exit status (128 + the signal that killed it).
type ProgramError struct{ Code int }

func (e *ProgramError) Error() string {
	return fmt.Sprintf("the program failed with status %d", e.Code)
}

// RunAll runs the plan in rounds (every count once, then again) so that a
// change in the machine's load spreads over all counts, saying on stderr
// how far it got. A failing run stops it, with the program's output.
func RunAll(stderr io.Writer, pl Plan) error {
	fmt.Fprintf(stderr, "gopari scale: %d runs of %s in %s\n", len(pl.Threads)*pl.Repeat, strings.Join(pl.Argv, " "), pl.Out)
	n, start := len(pl.Threads)*pl.Repeat, time.Now()
	i := 0
	for r := 1; r <= pl.Repeat; r++ {
		for _, t := range pl.Threads {
			i++
			elapsed := time.Since(start)
			left := "?"
			if i > 1 {
				left = fmtSeconds(elapsed / time.Duration(i-1) * time.Duration(n-i+1))
			}
			fmt.Fprintf(stderr, "gopari scale: run %d of %d: %d thread(s), repetition %d (elapsed %s, about %s left)\n",
				i, n, t, r, fmtSeconds(elapsed), left)
			if err := runOnce(stderr, pl, t, r); err != nil {
				return err
			}
		}
	}
	fmt.Fprintf(stderr, "gopari scale: %d runs in %s\n", n, fmtSeconds(time.Since(start)))
	return nil
}

func fmtSeconds(d time.Duration) string { return fmt.Sprintf("%.1f s", d.Seconds()) }

// Dir creates the directory for the runs: out, which must not exist or
// be empty, or a new name that was never used.
func Dir(out, prog string) (string, error) {
	if out != "" {
		err := os.Mkdir(out, 0o777)
		if errors.Is(err, fs.ErrExist) {
			if entries, rerr := os.ReadDir(out); rerr == nil && len(entries) == 0 {
				return out, nil
			}
			return "", fmt.Errorf("--out %s: exists and is not empty; name a new directory", out)
		}
		return out, err
	}
	base := fmt.Sprintf("gopari-scale-%s-%s", filepath.Base(prog), time.Now().Format("20060102-150405"))
	dir := base
	for k := 1; ; k++ {
		err := os.Mkdir(dir, 0o777)
		if err == nil {
			return dir, nil
		}
		if !errors.Is(err, fs.ErrExist) || k == 100 {
			return "", err
		}
		dir = fmt.Sprintf("%s.%d", base, k)
	}
}

// tail keeps the last max bytes written to it.
type tail struct {
	max int
	buf []byte
	cut bool
}

func (t *tail) Write(p []byte) (int, error) {
	t.buf = append(t.buf, p...)
	if len(t.buf) > 2*t.max {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.max:]...)
		t.cut = true
	}
	return len(p), nil
}

func (t *tail) Bytes() []byte {
	if len(t.buf) > t.max {
		return t.buf[len(t.buf)-t.max:]
	}
	return t.buf
}

// runOnce runs the program once at t threads into Out/tT.rR and writes
// its record (run.json) and the end of its output beside its profile.
func runOnce(stderr io.Writer, pl Plan, t, rep int) error {
	argv := pl.Argv
	dir := filepath.Join(pl.Out, fmt.Sprintf("t%d.r%d", t, rep))
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), "OMP_NUM_THREADS="+strconv.Itoa(t), "GOPARI_EXPERIMENT_DIRECTORY="+dir)
	cmd.Stdin = nil
	stdout, errout := &tail{max: 64 << 10}, &tail{max: 64 << 10}
	cmd.Stdout, cmd.Stderr = stdout, errout
	t0 := time.Now()
	err := cmd.Run()
	wall := time.Since(t0)
	if err != nil {
		fmt.Fprintf(stderr, "gopari scale: %s at %d thread(s) failed: %v\n", strings.Join(argv, " "), t, err)
		showTail(stderr, "stdout", stdout)
		showTail(stderr, "stderr", errout)
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
				return &ProgramError{Code: 128 + int(ws.Signal())}
			}
			return &ProgramError{Code: ee.ExitCode()}
		}
		return &ProgramError{Code: 1}
	}
	if _, err := os.Stat(filepath.Join(dir, experiment.ProfileFile)); err != nil {
		return fmt.Errorf("%s wrote no profile to %s: is it built with gopari cc, and GOPARI_MODE not off?", argv[0], dir)
	}
	rec := runRecord{Format: runRecordFormat, Version: 1, Threads: t, Repetition: rep, Params: pl.Params, Command: argv, WallNs: wall.Nanoseconds()}
	b, _ := json.MarshalIndent(rec, "", " ")
	for _, f := range []struct {
		name string
		data []byte
	}{{experiment.RunRecordFile, append(b, '\n')}, {"stdout.txt", stdout.Bytes()}, {"stderr.txt", errout.Bytes()}} {
		if err := atomicfile.WriteFile(filepath.Join(dir, f.name), f.data); err != nil {
			return err
		}
	}
	return nil
}

// showTail prints what a failed run wrote to its stream name, or the end
// of it.
func showTail(w io.Writer, name string, t *tail) {
	if len(t.buf) == 0 {
		return
	}
	cut := ""
	if t.cut || len(t.buf) > t.max {
		cut = ", its end"
	}
	fmt.Fprintf(w, "--- its %s%s:\n%s", name, cut, t.Bytes())
	if !bytes.HasSuffix(t.Bytes(), []byte("\n")) {
		fmt.Fprintln(w)
	}
}
