package report

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"gopari/internal/callpath"
	"gopari/internal/profile"
)

// callPaths prints the hot call paths of a run (callpath.Tree.Hot),
// top-down; nothing without call paths.
func callPaths(w io.Writer, p *profile.Profile) {
	t, err := callpath.FromProfile(p)
	if err != nil {
		fmt.Fprintf(w, "\nnote: %v: no call paths shown\n", err)
		return
	}
	if t == nil {
		return
	}
	if t.Sampling != nil {
		sampledPaths(w, t)
		return
	}
	fmt.Fprintf(w, "\nCall paths (top-down, summed over threads; paths with at least %g%% of the total time)\n", 100*callpath.DefaultShare)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "incl ms\texcl ms\tvisits\t  path\n")
	for _, r := range t.Hot(0) {
		n := &t.Nodes[r.Node]
		fmt.Fprintf(tw, "%s\t%s\t%d\t  %s%s\n", ms(n.InclNs), ms(n.ExclNs), n.Visits, strings.Repeat("  ", r.Depth), n.Name)
	}
	tw.Flush()
	for _, s := range t.Warnings {
		fmt.Fprintf(w, "note: %s\n", s)
	}
}

// sampledPaths prints the hot paths of a sampled run, weighed by their
// samples' CPU time, with the visits of the paths gopari measured.
func sampledPaths(w io.Writer, t *callpath.Tree) {
	sg := t.Sampling
	fmt.Fprintf(w, "\nSampled call paths (%d samples at %d Hz of %s time; top-down, summed over threads; paths with at least %g%% of the samples)\n",
		sg.Samples, sg.Hz, sg.Clock, 100*callpath.DefaultShare)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "%s incl ms\texcl ms\tsamples\tvisits\t  path\n", sg.Clock)
	for _, r := range t.Hot(0) {
		n := &t.Nodes[r.Node]
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t  %s%s\n", ms(n.InclCPUNs), ms(n.CPUNs), n.Samples, n.Visits, strings.Repeat("  ", r.Depth), n.Name)
	}
	tw.Flush()
	for _, s := range t.Warnings {
		fmt.Fprintf(w, "note: %s\n", s)
	}
}

// jobCallPaths prints an MPI job's merged hot call paths: the spread
// over ranks of each path's inclusive time.
func jobCallPaths(w io.Writer, m *callpath.Merged) {
	if m == nil {
		return
	}
	fmt.Fprintf(w, "\nCall paths over %d rank(s) (top-down, paths matched by name; a rank's time summed over its threads; paths with at least %g%% of the mean total)\n", len(m.Ranks), 100*callpath.DefaultShare)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "incl min ms\tmean ms\tmax ms\texcl mean ms\tvisits max\t  path\n")
	for _, r := range m.Hot(0) {
		n := &m.Nodes[r.Node]
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t  %s%s\n", ms(n.InclNs.Min), msf(n.InclNs.Mean), ms(n.InclNs.Max), msf(n.ExclNs.Mean),
			n.Visits.Max, strings.Repeat("  ", r.Depth), n.Name)
	}
	tw.Flush()
}
