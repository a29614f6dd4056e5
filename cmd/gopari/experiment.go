package main

// Experiment directories: what report, trace and the other readers of a
// run take as their argument, and what to say when a run left no
// profile in its directory.

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"

	"gopari/internal/events"
	"gopari/internal/job"
)

// noDirNote says why a run's directory may not be there.
const noDirNote = "(a run in profile mode makes its directory when it writes its profile, at its end: one killed by SIGKILL leaves none)"

// explainProfileError turns a failure to read the profile at path into a
// message that says what happened to the run and what its experiment
// directory holds instead: a run stopped while it wrote its profile
// leaves profile.json.tmp, one stopped earlier an empty directory, or in
// trace or grains mode its event stream, and one in profile mode killed
// by SIGKILL leaves none.
func explainProfileError(path string, err error) string {
	dir := filepath.Dir(path)
	if _, serr := os.Lstat(path); errors.Is(err, fs.ErrNotExist) && filepath.Base(path) != "profile.json" && errors.Is(serr, fs.ErrNotExist) {
		return fmt.Sprintf("%s: no such file or directory %s", path, noDirNote)
	}
	if errors.Is(err, fs.ErrNotExist) && filepath.Base(path) == "profile.json" {
		entries, derr := os.ReadDir(dir)
		if errors.Is(derr, fs.ErrNotExist) {
			return fmt.Sprintf("%s: no such directory %s", dir, noDirNote)
		}
		if derr != nil {
			return err.Error()
		}
		stream := ""
		if _, serr := os.Stat(filepath.Join(dir, "events", events.RunInfoFile)); serr == nil {
			stream = "; gopari report, gopari trace and gopari grains read what its event stream kept"
		}
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		tmp := filepath.Base(path) + ".tmp"
		if st, terr := os.Stat(filepath.Join(dir, tmp)); terr == nil {
			return fmt.Sprintf("%s: no profile: the run was stopped while it wrote its profile; %s holds the first %d bytes, which cannot be read "+
				"(a run ends so when it is killed by SIGKILL, by a second Ctrl-C, or by the system, e.g. out of memory, while it writes)%s",
				dir, tmp, st.Size(), stream)
		}
		if stream != "" {
			return fmt.Sprintf("%s: no profile: the run was killed before it wrote one%s", dir, stream)
		}
		if len(names) == 0 {
			return fmt.Sprintf("%s: no profile: the directory is empty; the run was stopped after it created the directory and before it wrote %s",
				dir, filepath.Base(path))
		}
		return fmt.Sprintf("%s: no %s; the directory holds %s", dir, filepath.Base(path), strings.Join(names, ", "))
	}
	if b, rerr := os.ReadFile(path); rerr == nil && !json.Valid(b) {
		var v any
		var se *json.SyntaxError
		if jerr := json.Unmarshal(b, &v); errors.As(jerr, &se) {
			if se.Offset >= int64(len(b)) {
				return fmt.Sprintf("%s: offset %d: the profile is damaged: it ends in the middle (truncated after %d bytes)", path, se.Offset, len(b))
			}
			return fmt.Sprintf("%s: offset %d: the profile is damaged: %v", path, se.Offset, se)
		}
	}
	return err.Error()
}

// newestExperiment finds the most recent experiment directory in dir,
// whether or not its run wrote a profile.
func newestExperiment(dir string) (string, error) {
	matches, _ := filepath.Glob(filepath.Join(dir, "gopari-*"))
	type cand struct {
		path string
		time int64
	}
	var cands []cand
	for _, m := range matches {
		if st, err := os.Stat(m); err == nil && st.IsDir() {
			cands = append(cands, cand{m, st.ModTime().UnixNano()})
		}
	}
	if len(cands) == 0 {
		return "", fmt.Errorf("no gopari-* experiment directory here; name one: gopari report DIR %s", noDirNote)
	}
	sort.SliceStable(cands, func(i, j int) bool {
		if cands[i].time != cands[j].time {
			return cands[i].time > cands[j].time
		}
		return cands[i].path > cands[j].path
	})
	return cands[0].path, nil
}

// openExperiment resolves the EXPERIMENT argument (a directory, or its
// profile.json; default the newest gopari-* directory here) and opens its
// event stream. An MPI job's directory is refused with a hint.
func openExperiment(c *cli.Context, cmd string) (*events.Experiment, error) {
	dir, err := experimentArg(c, cmd)
	if err != nil {
		return nil, err
	}
	if job.IsJob(dir) {
		return nil, &exitError{code: 1, msg: fmt.Sprintf("%s is the directory of an MPI job: name one rank's directory (%s)", dir, filepath.Join(dir, "rank-00000"))}
	}
	return openExperimentDir(dir)
}

// experimentArg returns the directory that the EXPERIMENT argument names
// (a directory, or its profile.json; default the newest gopari-*
// directory here).
func experimentArg(c *cli.Context, cmd string) (string, error) {
	if c.NArg() > 1 {
		return "", usageErr("%s: one experiment directory at a time", cmd)
	}
	dir := c.Args().First()
	if dir == "" {
		var err error
		if dir, err = newestExperiment("."); err != nil {
			return "", &exitError{code: 1, msg: err.Error()}
		}
	}
	if filepath.Base(dir) == "profile.json" {
		dir = filepath.Dir(dir)
	}
	return dir, nil
}

// openExperimentDir opens the event stream of the run in dir: the one
// its profile lists, or, for a run killed before it wrote its profile,
// the complete blocks of the one it left.
func openExperimentDir(dir string) (*events.Experiment, error) {
	exp, err := events.OpenExperiment(dir)
	if errors.Is(err, fs.ErrNotExist) && !errors.Is(err, events.ErrNoEvents) {
		if _, serr := os.Stat(filepath.Join(dir, "profile.json")); serr != nil {
			return nil, &exitError{code: 1, msg: explainProfileError(filepath.Join(dir, "profile.json"), err)}
		}
	}
	if err != nil {
		return nil, &exitError{code: 1, msg: err.Error()}
	}
	return exp, nil
}

// warnStream says on w what the consumer of an export must know: records
// the runtime dropped, a run that ended while threads recorded, or one
// killed before it wrote its profile.
func warnStream(w io.Writer, exp *events.Experiment, dropped int64) {
	if exp.Killed != nil {
		if dropped > 0 {
			fmt.Fprintf(w, "gopari: warning: the runtime dropped %d records (GOPARI_TRACE_MAX_BYTES or a full disk); the trace has gaps where it says so\n", dropped)
		}
		warnKilled(w, exp)
		return
	}
	if d := max(dropped, exp.Events.Dropped); d > 0 {
		fmt.Fprintf(w, "gopari: warning: the runtime dropped %d records (GOPARI_TRACE_MAX_BYTES or a full disk); the trace has gaps where it says so, the profile is exact\n", d)
	}
	if !exp.Events.Complete {
		fmt.Fprintf(w, "gopari: warning: the run ended while threads were recording; their last events are missing\n")
	}
}

// partialIf returns the exit status of an export of exp: 3 when exp is a
// killed run's, whose export is partial.
func partialIf(exp *events.Experiment) error {
	if exp != nil && exp.Killed != nil {
		return partialExit
	}
	return nil
}
