package experiment

// Finding a run's directory, and saying what happened to a run whose
// profile cannot be read.

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// NoDirNote says why a run's directory may not be there.
const NoDirNote = "(a run in profile mode makes its directory when it writes its profile, at its end: one killed by SIGKILL leaves none)"

// Newest finds the most recent experiment directory in dir, whether or
// not its run wrote a profile.
func Newest(dir string) (string, error) {
	matches, _ := filepath.Glob(filepath.Join(dir, Prefix+"*"))
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
		return "", fmt.Errorf("no %s* experiment directory here; name one: gopari report DIR %s", Prefix, NoDirNote)
	}
	sort.SliceStable(cands, func(i, j int) bool {
		if cands[i].time != cands[j].time {
			return cands[i].time > cands[j].time
		}
		return cands[i].path > cands[j].path
	})
	return cands[0].path, nil
}

// Explain turns a failure to read the profile at path into a message
// that says what happened to the run and what its experiment directory
// holds instead: a run stopped while it wrote its profile leaves
// profile.json.tmp, one stopped earlier an empty directory, or in trace
// or grains mode its event stream, and one in profile mode killed by
// SIGKILL leaves none.
func Explain(path string, err error) string {
	dir := filepath.Dir(path)
	if _, serr := os.Lstat(path); errors.Is(err, fs.ErrNotExist) && filepath.Base(path) != ProfileFile && errors.Is(serr, fs.ErrNotExist) {
		return fmt.Sprintf("%s: no such file or directory %s", path, NoDirNote)
	}
	if errors.Is(err, fs.ErrNotExist) && filepath.Base(path) == ProfileFile {
		return explainMissing(path, dir, err)
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

// explainMissing says why the run in dir has no profile at path.
func explainMissing(path, dir string, err error) string {
	entries, derr := os.ReadDir(dir)
	if errors.Is(derr, fs.ErrNotExist) {
		return fmt.Sprintf("%s: no such directory %s", dir, NoDirNote)
	}
	if derr != nil {
		return err.Error()
	}
	stream := ""
	if _, serr := os.Stat(Stream(dir)); serr == nil {
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

// Profiles returns the profiles that arg names: a profile, a run's
// directory, or a directory holding runs' directories (as gopari scale
// makes), whose profiles it returns in the order of their names.
func Profiles(arg string) ([]string, error) {
	st, err := os.Stat(arg)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: no such file or directory", arg)
	}
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return []string{arg}, nil
	}
	if _, err := os.Stat(Profile(arg)); err == nil {
		return []string{Profile(arg)}, nil
	}
	entries, err := os.ReadDir(arg)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		p := Profile(filepath.Join(arg, e.Name()))
		if _, err := os.Stat(p); e.IsDir() && err == nil {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no %s in it or in its subdirectories", arg, ProfileFile)
	}
	return out, nil
}
