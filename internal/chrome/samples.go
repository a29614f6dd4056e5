package chrome

import (
	"fmt"
	"sort"
	"strings"

	"gopari/internal/callpath"
	"gopari/internal/events"
	"gopari/internal/experiment"
)

// readSamples reads a run's samples (GOPARI_SAMPLE_HZ in trace mode,
// events/samples.bin), sorted by time, and names their paths by profile
// node: the innermost frame ("sample: leaf"), and the whole path. None
// when the run has no samples or no call paths.
func readSamples(exp *events.Experiment) ([]events.Sample, map[uint32][2]string, error) {
	path := experiment.Samples(exp.Dir)
	ss, err := events.ReadSamples(path)
	if err != nil || len(ss) == 0 || exp.Profile == nil {
		return nil, nil, err
	}
	t, err := callpath.FromProfile(exp.Profile)
	if err != nil || t == nil {
		return nil, nil, err
	}
	paths := map[uint32][2]string{}
	for _, s := range ss {
		if int(s.Node) >= len(t.Of) || int(s.Loc) >= len(exp.Threads) {
			return nil, nil, fmt.Errorf("%s: a sample of node %d at location %d: no such node or location", path, s.Node, s.Loc)
		}
		if _, ok := paths[s.Node]; !ok {
			id := t.Of[s.Node]
			paths[s.Node] = [2]string{"sample: " + t.Nodes[id].Name, strings.Join(t.Path(id), ";")}
		}
	}
	sort.SliceStable(ss, func(i, j int) bool { return ss[i].Tick < ss[j].Tick })
	return ss, paths, nil
}

// loadSamples reads the run's samples for samplesTo.
func (c *writer) loadSamples(exp *events.Experiment) error {
	var err error
	c.next = 0
	c.samples, c.paths, err = readSamples(exp)
	return err
}

// keeps reports whether the cut opt keeps sample s of run.
func keeps(run Run, opt Options, s events.Sample) bool {
	if opt.Threads != nil && !opt.Threads[run.Exp.Threads[s.Loc].Path] {
		return false
	}
	ns := run.OffNs + run.Exp.Clock.Ns(s.Tick)
	return !opt.Window || ns >= opt.From && ns <= opt.To
}

// samplesTo writes the samples taken up to tick t as instant events on
// their threads' tracks, with their paths: those the cut keeps, the
// window open or not yet (a sample before the first event in the window
// is in it too).
func (c *writer) samplesTo(t uint64) {
	for ; c.next < len(c.samples) && c.samples[c.next].Tick <= t; c.next++ {
		s := c.samples[c.next]
		loc, ns := int(s.Loc), c.ns(s.Tick)
		if c.done || !c.tracks[loc].on || ns < c.opt.From || ns > c.opt.To {
			continue
		}
		p := c.paths[s.Node]
		c.enc.Instant(c.run.Pid, loc, ns, p[0], []Arg{{Key: "path", Kind: String, S: p[1]}})
		c.stats.Events++
		c.stats.Samples++
	}
}

// KeptSamples counts the samples of runs that the cut opt keeps (for
// an estimate; a run whose samples cannot be read counts none).
func KeptSamples(runs []Run, opt Options) int64 {
	var n int64
	for _, run := range runs {
		ss, _, _ := readSamples(run.Exp)
		for _, s := range ss {
			if keeps(run, opt, s) {
				n++
			}
		}
	}
	return n
}

// estimateSamples returns about how many bytes m takes for the samples
// of run that the cut opt keeps: each path's instant, encoded once for
// the names it interns and once more to measure, times its samples.
func estimateSamples(m Measurer, run Run, opt Options, tid int) int64 {
	ss, paths, _ := readSamples(run.Exp)
	n := map[uint32]int64{}
	var ns float64
	for _, s := range ss {
		if keeps(run, opt, s) {
			n[s.Node]++
			ns = run.OffNs + run.Exp.Clock.Ns(s.Tick)
		}
	}
	var total int64
	for node, k := range n {
		p := paths[node]
		args := []Arg{{Key: "path", Kind: String, S: p[1]}}
		m.Instant(run.Pid, tid, ns, p[0], args)
		before := m.Written()
		m.Instant(run.Pid, tid, ns, p[0], args)
		total += k * (m.Written() - before)
	}
	return total
}
