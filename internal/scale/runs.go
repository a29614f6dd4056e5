// Package scale fits scaling models to the profiles of runs of one
// program at several thread counts (and a second parameter), runs a
// program for them (gopari scale), and writes the models as a table, as
// JSON (model.JSON) and in Extra-P's text format.
package scale

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

	"gopari/internal/experiment"
	"gopari/internal/model"
	"gopari/internal/profile"
)

// Options are what gopari model and gopari scale are asked for.
type Options struct {
	JSON    bool              // print the models as JSON
	ExtraP  string            // also write the measurements here in Extra-P's format
	Predict int               // rank regions by their cost predicted at this thread count
	Params  map[string]string // a second parameter given to runs that recorded none
	Mean    bool              // the mean of all repetitions, outliers included
	Top     int               // the worst-scaling models shown (0: all)
}

// A Run is one profile with its thread count and parameters.
type Run struct {
	path    string // profile.json
	p       *profile.Profile
	threads int
	rep     int // repetition, from run.json; 0 if unknown
	params  map[string]string
}

// runRecord is what gopari scale writes beside each profile (run.json),
// so that a run keeps its thread count and parameters when moved.
type runRecord struct {
	Format     string            `json:"format"`
	Version    int               `json:"version"`
	Threads    int               `json:"threads"`
	Repetition int               `json:"repetition"`
	Params     map[string]string `json:"params,omitempty"`
	Command    []string          `json:"command"`
	WallNs     int64             `json:"wall_ns"`
}

const runRecordFormat = "gopari-run"

// Load finds and reads the profiles that args name: experiment
// directories, profiles, or directories holding experiment directories.
// A run that did not end by exit() is left out, with a note on stderr.
func Load(args []string, stderr io.Writer) ([]*Run, error) {
	var paths []string
	seen := map[string]bool{}
	for _, a := range args {
		ps, err := experiment.Profiles(a)
		if err != nil {
			return nil, err
		}
		for _, p := range ps {
			// A run named twice is one run, not two repetitions.
			abs, err := filepath.Abs(p)
			if err != nil {
				return nil, err
			}
			if !seen[abs] {
				seen[abs] = true
				paths = append(paths, p)
			}
		}
	}
	var runs []*Run
	for _, path := range paths {
		p, err := profile.Read(path)
		if err != nil {
			return nil, err
		}
		if p.Exit != "" && p.Exit != "exit" {
			fmt.Fprintf(stderr, "gopari: %s: the run ended by %s; its profile is left out\n", path, p.Exit)
			continue
		}
		r := &Run{path: path, p: p, threads: p.OSThreads, params: map[string]string{}}
		if err := readRecord(r); err != nil {
			return nil, err
		}
		if r.threads < 1 {
			return nil, fmt.Errorf("%s: the profile does not say how many threads ran (gopari scale records it)", path)
		}
		runs = append(runs, r)
	}
	if len(runs) == 0 {
		return nil, fmt.Errorf("no complete profiles in %s", strings.Join(args, " "))
	}
	// Repetitions in the order they ran, whatever the directory names.
	sort.SliceStable(runs, func(i, j int) bool {
		if runs[i].threads != runs[j].threads {
			return runs[i].threads < runs[j].threads
		}
		return runs[i].rep < runs[j].rep
	})
	return runs, sameProgram(runs)
}

// readRecord reads the run.json beside a profile, if there is one.
func readRecord(r *Run) error {
	path := filepath.Join(filepath.Dir(r.path), experiment.RunRecordFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var rec runRecord
	if err := json.Unmarshal(b, &rec); err != nil || rec.Format != runRecordFormat {
		return fmt.Errorf("%s: not a gopari run record", path)
	}
	if rec.Version > 1 {
		return fmt.Errorf("%s: run record version %d is newer than this gopari reads (1)", path, rec.Version)
	}
	if rec.Threads > 0 {
		r.threads = rec.Threads
	}
	r.rep = rec.Repetition
	for k, v := range rec.Params {
		r.params[k] = v
	}
	return nil
}

func regionKey(r *profile.Region) string {
	return fmt.Sprintf("%s\x00%d\x00%d\x00%s\x00%s\x00%s", r.File, r.BeginLine, r.EndLine, r.Kind, r.Name, r.SubName)
}

// sameProgram checks that every profile has the regions of the first.
func sameProgram(runs []*Run) error {
	first := runs[0]
	want := map[string]bool{}
	for i := range first.p.Regions {
		want[regionKey(&first.p.Regions[i])] = true
	}
	for _, r := range runs[1:] {
		have := map[string]bool{}
		for i := range r.p.Regions {
			reg := &r.p.Regions[i]
			have[regionKey(reg)] = true
			if !want[regionKey(reg)] {
				return fmt.Errorf("%s and %s are profiles of different programs (%s has %s at %s, %s has not)",
					first.path, r.path, r.p.Program, reg.Label(), reg.Where(), first.p.Program)
			}
		}
		if len(have) != len(want) {
			return fmt.Errorf("%s and %s are profiles of different programs (%s has %d regions, %s has %d)",
				first.path, r.path, first.p.Program, len(want), r.p.Program, len(have))
		}
	}
	return nil
}

// WriteModels fits and prints the models of runs.
func WriteModels(w io.Writer, runs []*Run, opts Options) error {
	ts := threadCounts(runs)
	if len(ts) == 1 {
		return fmt.Errorf("all %d profiles ran at %d thread(s): a model needs runs at %d or more thread counts", len(runs), ts[0], model.MinPoints)
	}
	if len(ts) < model.MinPoints {
		return fmt.Errorf("the profiles ran at %s threads: a model needs runs at %d or more thread counts", joinInts(ts), model.MinPoints)
	}
	all, paramName, err := collectSeries(runs, opts)
	if err != nil {
		return err
	}
	fitted, err := fitAll(multiSeries(all, paramName), opts)
	if err != nil {
		return err
	}
	if opts.ExtraP != "" {
		if err := writeExtraPFile(opts.ExtraP, runs, all, paramName); err != nil {
			return err
		}
	}
	if opts.JSON {
		return writeModelsJSON(w, fitted, opts)
	}
	writeModelTable(w, runs, ts, fitted, opts)
	return nil
}
