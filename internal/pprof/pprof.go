// Package pprof exports call paths (internal/callpath) for the tools
// that read pprof profiles (go tool pprof) and folded stacks
// (FlameGraph, speedscope): gopari pprof.
package pprof

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	gpprof "github.com/google/pprof/profile"

	"gopari/internal/callpath"
	"gopari/internal/experiment"
	"gopari/internal/job"
	"gopari/internal/profile"
)

// A Run is the call paths of one run; Rank is its MPI rank, -1 outside
// a job.
type Run struct {
	Rank int
	Tree *callpath.Tree
}

// Open reads the call paths of the run, or of every rank of the job,
// in dir. A run without call paths is an error that says how to get
// them.
func Open(dir string) ([]Run, error) {
	if !experiment.IsJob(dir) {
		path := experiment.Profile(dir)
		p, err := profile.Read(path)
		if err != nil {
			return nil, fmt.Errorf("%s", experiment.Explain(path, err))
		}
		t, err := callpath.FromProfile(p)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		if t == nil {
			return nil, fmt.Errorf("%s: the run recorded no call paths (build the program with gopari cc --functions, or run it with GOPARI_SAMPLE_HZ=1000)", dir)
		}
		return []Run{{Rank: -1, Tree: t}}, nil
	}
	j, err := job.Read(dir, experiment.Explain)
	if err != nil {
		return nil, err
	}
	var runs []Run
	for _, r := range j.Ranks {
		t, err := callpath.FromProfile(r.Profile)
		if err != nil {
			return nil, fmt.Errorf("%s: rank %d: %v", dir, r.Rank, err)
		}
		if t != nil {
			runs = append(runs, Run{Rank: r.Rank, Tree: t})
		}
	}
	if len(runs) == 0 {
		return nil, fmt.Errorf("%s: no rank of the job recorded call paths (build the program with gopari cc --functions, or run it with GOPARI_SAMPLE_HZ=1000)", dir)
	}
	return runs, nil
}

// Profile is the pprof profile of runs: sample types time/nanoseconds
// (a path's exclusive time) and visits/count, and when a run sampled
// (GOPARI_SAMPLE_HZ) samples/count and cpu/nanoseconds, its samples and
// their CPU time; one sample per location and path, labelled with the
// location's team path (thread) and, in a job, its rank. A sampled
// profile shows cpu by default.
func Profile(runs []Run) *gpprof.Profile {
	p := &gpprof.Profile{
		SampleType: []*gpprof.ValueType{{Type: "time", Unit: "nanoseconds"}, {Type: "visits", Unit: "count"}},
		PeriodType: &gpprof.ValueType{Type: "time", Unit: "nanoseconds"},
		Period:     1,
	}
	sampled := false
	for _, r := range runs {
		if sg := r.Tree.Sampling; sg != nil {
			sampled = true
			p.PeriodType, p.Period = &gpprof.ValueType{Type: "cpu", Unit: "nanoseconds"}, int64(sg.PeriodNs)
		}
	}
	if sampled {
		p.SampleType = append(p.SampleType, &gpprof.ValueType{Type: "samples", Unit: "count"}, &gpprof.ValueType{Type: "cpu", Unit: "nanoseconds"})
		p.DefaultSampleType = "cpu"
	}
	type fkey struct {
		name, file string
		line       int
	}
	locs := map[fkey]*gpprof.Location{}
	loc := func(n *callpath.Node) *gpprof.Location {
		k := fkey{n.Name, n.File, n.Line}
		if l, ok := locs[k]; ok {
			return l
		}
		f := &gpprof.Function{ID: uint64(len(p.Function) + 1), Name: n.Name, SystemName: n.Name, Filename: n.File, StartLine: int64(n.Line)}
		l := &gpprof.Location{ID: uint64(len(p.Location) + 1), Line: []gpprof.Line{{Function: f, Line: int64(n.Line)}}}
		p.Function = append(p.Function, f)
		p.Location = append(p.Location, l)
		locs[k] = l
		return l
	}
	for _, r := range runs {
		t := r.Tree
		stacks := make([][]*gpprof.Location, len(t.Nodes))
		for id := range t.Nodes {
			st := []*gpprof.Location{loc(&t.Nodes[id])}
			if id > 0 {
				st = append(st, stacks[t.Nodes[id].Parent]...)
			}
			stacks[id] = st
		}
		for _, l := range t.Locations {
			labels := map[string][]string{"thread": {l.Path}}
			if r.Rank >= 0 {
				labels["rank"] = []string{strconv.Itoa(r.Rank)}
			}
			for _, s := range l.Stats {
				if s.ExclNs == 0 && s.Visits == 0 && s.Samples == 0 {
					continue
				}
				v := []int64{int64(s.ExclNs), int64(s.Visits)}
				if sampled {
					v = append(v, int64(s.Samples), int64(s.CPUNs))
				}
				p.Sample = append(p.Sample, &gpprof.Sample{Location: stacks[s.Node], Value: v, Label: labels})
			}
		}
	}
	return p
}

// Write writes the pprof profile of runs, gzipped, as pprof reads it.
func Write(w io.Writer, runs []Run) error {
	p := Profile(runs)
	if err := p.CheckValid(); err != nil {
		return fmt.Errorf("internal error: the pprof profile is not valid: %v", err)
	}
	return p.Write(w)
}

// Folded writes the folded stacks of runs ("main;top;mid 20000000", a
// path's exclusive ns summed over locations and ranks: its sampled CPU
// ns in a sampled run, callpath.Tree.Excl), sorted by path, for
// FlameGraph and speedscope.
func Folded(w io.Writer, runs []Run) error {
	sums := map[string]uint64{}
	for _, r := range runs {
		t := r.Tree
		for id := range t.Nodes {
			if t.Excl(id) == 0 {
				continue
			}
			names := t.Path(id)
			for i, n := range names {
				names[i] = strings.NewReplacer(";", ",", "\n", " ").Replace(n)
			}
			sums[strings.Join(names, ";")] += t.Excl(id)
		}
	}
	keys := make([]string, 0, len(sums))
	for k := range sums {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	bw := bufio.NewWriter(w)
	for _, k := range keys {
		fmt.Fprintf(bw, "%s %d\n", k, sums[k])
	}
	return bw.Flush()
}
