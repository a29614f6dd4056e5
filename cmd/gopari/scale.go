package main

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

	"github.com/urfave/cli/v2"
)

func scaleCommand() *cli.Command {
	flags := []cli.Flag{
		&cli.StringFlag{Name: "threads", Value: "1,2,4,8", Usage: "run at these `COUNTS` of threads (OMP_NUM_THREADS)"},
		&cli.IntFlag{Name: "repeat", Value: 3, Usage: "run `N` times at each count"},
		&cli.StringFlag{Name: "out", Usage: "collect the experiment directories in `DIR` (default: a new gopari-scale-PROG-DATE-TIME)"},
	}
	return &cli.Command{
		Name: "scale",
		// An argument named h or help is a directory, not a request for help.
		Usage:     "run a program at several thread counts and fit scaling models",
		ArgsUsage: "-- PROGRAM [ARG...]",
		Description: `Runs an instrumented program at each thread count (setting OMP_NUM_THREADS),
--repeat times, in rounds (every count once, then again) so that a change
in the machine's load spreads over all counts. Each run's experiment
directory goes below --out, named tT.rR, with a run.json that records its
thread count and parameters. Then it prints the models, as gopari model
does. A failing run stops it, with the program's output and exit status.`,
		Flags:  append(flags, modelFlags()...),
		Action: runScale,
	}
}

func parseThreads(s string) ([]int, error) {
	var out []int
	seen := map[int]bool{}
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return nil, usageErr("--threads %q: want thread counts such as 1,2,4,8", s)
		}
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out, nil
}

func runScale(c *cli.Context) error {
	if c.NArg() == 0 {
		return usageErr("scale: name the program to run: gopari scale [flags] -- ./prog ARGS")
	}
	threads, err := parseThreads(c.String("threads"))
	if err != nil {
		return err
	}
	repeat := c.Int("repeat")
	if repeat < 1 {
		return usageErr("--repeat %d: must be at least 1", repeat)
	}
	opts, err := modelOptions(c)
	if err != nil {
		return err
	}
	if len(threads) < 3 {
		return usageErr("--threads %s: a model needs 3 or more thread counts", c.String("threads"))
	}
	argv := c.Args().Slice()
	if _, err := exec.LookPath(argv[0]); err != nil {
		return &exitError{code: 1, msg: fmt.Sprintf("scale: %v", err)}
	}
	out, err := scaleDir(c.String("out"), argv[0])
	if err != nil {
		return &exitError{code: 1, msg: err.Error()}
	}
	stderr := c.App.ErrWriter
	fmt.Fprintf(stderr, "gopari scale: %d runs of %s in %s\n", len(threads)*repeat, strings.Join(argv, " "), out)
	n, start := len(threads)*repeat, time.Now()
	i := 0
	for r := 1; r <= repeat; r++ {
		for _, t := range threads {
			i++
			elapsed := time.Since(start)
			left := "?"
			if i > 1 {
				left = fmtSeconds(elapsed / time.Duration(i-1) * time.Duration(n-i+1))
			}
			fmt.Fprintf(stderr, "gopari scale: run %d of %d: %d thread(s), repetition %d (elapsed %s, about %s left)\n",
				i, n, t, r, fmtSeconds(elapsed), left)
			if err := scaleRun(c, out, argv, t, r, opts.params); err != nil {
				return err
			}
		}
	}
	fmt.Fprintf(stderr, "gopari scale: %d runs in %s\n", n, fmtSeconds(time.Since(start)))
	runs, err := loadRuns([]string{out}, stderr)
	if err != nil {
		return &exitError{code: 1, msg: err.Error()}
	}
	return writeOut(c, func(w io.Writer) error { return writeModels(w, runs, opts) })
}

func fmtSeconds(d time.Duration) string { return fmt.Sprintf("%.1f s", d.Seconds()) }

// scaleDir creates the directory for the runs: out, which must not
// exist or be empty, or a new name that was never used.
func scaleDir(out, prog string) (string, error) {
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

// scaleRun runs the program once at t threads into out/tT.rR.
func scaleRun(c *cli.Context, out string, argv []string, t, rep int, params map[string]string) error {
	dir := filepath.Join(out, fmt.Sprintf("t%d.r%d", t, rep))
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), "OMP_NUM_THREADS="+strconv.Itoa(t), "GOPARI_EXPERIMENT_DIRECTORY="+dir)
	cmd.Stdin = nil
	stdout, stderr := &tail{max: 64 << 10}, &tail{max: 64 << 10}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	t0 := time.Now()
	err := cmd.Run()
	wall := time.Since(t0)
	if err != nil {
		w := c.App.ErrWriter
		fmt.Fprintf(w, "gopari scale: %s at %d thread(s) failed: %v\n", strings.Join(argv, " "), t, err)
		for _, o := range []struct {
			name string
			t    *tail
		}{{"stdout", stdout}, {"stderr", stderr}} {
			if len(o.t.buf) == 0 {
				continue
			}
			cut := ""
			if o.t.cut || len(o.t.buf) > o.t.max {
				cut = ", its end"
			}
			fmt.Fprintf(w, "--- its %s%s:\n%s", o.name, cut, o.t.Bytes())
			if !bytes.HasSuffix(o.t.Bytes(), []byte("\n")) {
				fmt.Fprintln(w)
			}
		}
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
				return &exitError{code: 128 + int(ws.Signal())}
			}
			return &exitError{code: ee.ExitCode()}
		}
		return &exitError{code: 1}
	}
	if _, err := os.Stat(filepath.Join(dir, "profile.json")); err != nil {
		return &exitError{code: 1, msg: fmt.Sprintf("%s wrote no profile to %s: is it built with gopari cc, and GOPARI_MODE not off?", argv[0], dir)}
	}
	rec := runRecord{Format: runRecordFormat, Version: 1, Threads: t, Repetition: rep, Params: params, Command: argv, WallNs: wall.Nanoseconds()}
	b, _ := json.MarshalIndent(rec, "", " ")
	for _, f := range []struct {
		name string
		data []byte
	}{{"run.json", append(b, '\n')}, {"stdout.txt", stdout.Bytes()}, {"stderr.txt", stderr.Bytes()}} {
		if err := writeFileAtomic(filepath.Join(dir, f.name), f.data); err != nil {
			return &exitError{code: 1, msg: err.Error()}
		}
	}
	return nil
}
