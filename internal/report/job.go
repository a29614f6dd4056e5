package report

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"gopari/internal/experiment"
	"gopari/internal/job"
)

// JobGaps lists the missing and damaged ranks, one per line.
func JobGaps(j *job.Job) string {
	var b strings.Builder
	for _, r := range j.Missing {
		fmt.Fprintf(&b, "\nmissing: rank %d wrote nothing (no %s directory): it was killed before it could, or never started", r, experiment.RankDir(r))
	}
	for _, d := range j.Damaged {
		fmt.Fprintf(&b, "\ndamaged: rank %d: %s", d.Rank, d.Error)
	}
	return b.String()
}

// percent prints a share, "-" where it is not defined.
func percent(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*v)
}

// WriteJob prints a job's merged profile.
func WriteJob(w io.Writer, j *job.Job, m *job.Merged, top int) {
	size := fmt.Sprintf("%d", m.Size)
	if m.Size == 0 {
		size = "?"
	}
	fmt.Fprintf(w, "gopari job %s of %s (%s): %d of %s ranks wrote a profile\n", m.Job, m.Program, m.Launcher, len(m.Ranks), size)
	if gaps := JobGaps(j); gaps != "" {
		fmt.Fprintln(w, strings.TrimPrefix(gaps, "\n"))
	}

	fmt.Fprintln(w, "\nRanks (times summed over each rank's threads; OpenMP: exclusive time in OpenMP constructs, MPI calls made inside them excluded)")
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "rank\texit\twall ms\tthreads\tOpenMP ms\tMPI ms\tMPI share\tMPI calls\tmessages\tbytes\t")
	for _, r := range m.Ranks {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%d\t%s\t%s\t%s\t%d\t%d\t%d\t\n", r.Rank, r.Exit, ms(r.WallNs), r.Threads,
			ms(r.OpenMPNs), ms(r.MPINs), percent(r.MPIShare()), r.MPICalls, r.Messages, r.Bytes)
	}
	tw.Flush()
	jobEfficiency(w, j, m)

	fmt.Fprintln(w, "\nRegions by their largest time on a rank (a rank's time: inclusive, summed over its threads, as its own report counts it; imbalance: (max - mean) / max)")
	tw = tabwriter.NewWriter(w, 0, 8, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "min ms\tmean ms\tmax ms\tmax rank\trank imb\tthread imb\tranks\tvisits (max)\t  region")
	for i, r := range m.Regions {
		if top > 0 && i == top {
			fmt.Fprintf(tw, "\t\t\t\t\t\t\t\t  … %d more (--top)\n", len(m.Regions)-top)
			break
		}
		reg := r.Region()
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%.1f%%\t%.1f%%\t%d\t%d\t  %s  %s\n", ms(r.InclNs.Min), ms(uint64(r.InclNs.Mean+0.5)),
			ms(r.InclNs.Max), r.InclNs.MaxRank, 100*r.RankImbalance, 100*r.ThreadImbalance, r.Ranks, r.Visits.Max, reg.Where(), reg.Label())
	}
	tw.Flush()
	fmt.Fprintln(w, "a parallel region's time is its team's: implicit tasks, closing-barrier waits and the fork and join; its thread imbalance compares the implicit tasks")
	jobCallPaths(w, m.CallPaths)
	for _, n := range m.CallPathNotes {
		fmt.Fprintf(w, "note: call paths of %s\n", n)
	}
	fmt.Fprintf(w, "\nOne rank: gopari report --rank N %s\n", j.Dir)
}
