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

// maxGaps is the most missing or damaged ranks listed one by one when
// the ranks are summarised.
const maxGaps = 10

// WriteJob prints a job's merged profile. Past job.SummariseAbove ranks
// the ranks are summarised as distributions, unless allRanks.
func WriteJob(w io.Writer, j *job.Job, m *job.Merged, top int, allRanks bool) {
	size := fmt.Sprintf("%d", m.Size)
	if m.Size == 0 {
		size = "?"
	}
	fmt.Fprintf(w, "gopari job %s of %s (%s): %d of %s ranks wrote a profile\n", m.Job, m.Program, m.Launcher, len(m.Ranks), size)
	summarise := len(m.Ranks) > job.SummariseAbove && !allRanks
	if gaps := strings.Split(strings.TrimPrefix(JobGaps(j), "\n"), "\n"); gaps[0] != "" {
		if summarise && len(gaps) > maxGaps {
			gaps = append(gaps[:maxGaps], fmt.Sprintf("… %d more missing or damaged ranks (--ranks all lists them)", len(gaps)-maxGaps))
		}
		fmt.Fprintln(w, strings.Join(gaps, "\n"))
	}
	if summarise {
		jobRankDists(w, m)
	} else {
		jobRankTable(w, m)
	}
	jobEfficiency(w, j, m)

	fmt.Fprintln(w, "\nRegions by their largest time on a rank (a rank's time: inclusive, summed over its threads, as its own report counts it; imbalance: (max - mean) / max)")
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', tabwriter.AlignRight)
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

// jobRankTable prints a row per rank.
func jobRankTable(w io.Writer, m *job.Merged) {
	fmt.Fprintln(w, "\nRanks (times summed over each rank's threads; OpenMP: exclusive time in OpenMP constructs, MPI calls made inside them excluded)")
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "rank\texit\twall ms\tthreads\tOpenMP ms\tMPI ms\tMPI share\tMPI calls\tmessages\tbytes\t")
	for _, r := range m.Ranks {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%d\t%s\t%s\t%s\t%d\t%d\t%d\t\n", r.Rank, r.Exit, ms(r.WallNs), r.Threads,
			ms(r.OpenMPNs), ms(r.MPINs), percent(r.MPIShare()), r.MPICalls, r.Messages, r.Bytes)
	}
	tw.Flush()
}

// distValue prints a value of distribution d in its unit.
func distValue(d *job.Dist, v float64) string {
	switch d.Unit {
	case "ns":
		return msf(v)
	case "share":
		return percent(v)
	}
	return fmt.Sprintf("%.0f", v)
}

// distName names distribution d's metric with its unit.
func distName(d *job.Dist) string {
	if d.Unit == "ns" {
		return d.Name + " ms"
	}
	return d.Name
}

// jobRankDists prints the ranks as distributions (job.Distributions)
// and names the outlier ranks.
func jobRankDists(w io.Writer, m *job.Merged) {
	ds := job.Distributions(m)
	fmt.Fprintf(w, "\nRanks: %d, as distributions over ranks (--ranks all lists each; times summed over each rank's threads; OpenMP: exclusive time in OpenMP constructs, MPI calls made inside them excluded)\n", len(m.Ranks))
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "metric\tmin\tq1\tmedian\tq3\tmax\toutliers\t")
	for i := range ds {
		d := &ds[i]
		n := len(d.Outliers) + d.More
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%d\t\n", distName(d), distValue(d, d.Min), distValue(d, d.Q1),
			distValue(d, d.Median), distValue(d, d.Q3), distValue(d, d.Max), n)
	}
	tw.Flush()
	var exits []string
	for _, e := range job.Exits(m) {
		s := fmt.Sprintf("%d %s", e.Count, e.Exit)
		if e.Count <= job.MaxOutliers && e.Count < len(m.Ranks) {
			s += fmt.Sprintf(" (rank %s)", joinInts(e.Ranks))
		}
		exits = append(exits, s)
	}
	fmt.Fprintf(w, "ended: %s\n", strings.Join(exits, ", "))
	out := job.OutlierRanks(ds)
	if len(out) == 0 {
		fmt.Fprintln(w, "no outlier rank (none beyond 1.5 interquartile ranges of the quartiles, and 5% of the median)")
		return
	}
	fmt.Fprintf(w, "Outlier ranks (beyond 1.5 interquartile ranges of the quartiles, and 5%% of the median; at most %d per metric, farthest first):\n", job.MaxOutliers)
	for _, r := range out {
		var of []string
		for _, o := range r.Of {
			unit := ""
			if o.Dist.Unit == "ns" {
				unit = " ms"
			}
			of = append(of, fmt.Sprintf("%s %s%s (median %s)", o.Dist.Name, distValue(o.Dist, o.Value), unit, distValue(o.Dist, o.Dist.Median)))
		}
		fmt.Fprintf(w, "  rank %d (%s): %s\n", r.Rank, r.Dir, strings.Join(of, ", "))
	}
	for i := range ds {
		if ds[i].More > 0 {
			fmt.Fprintf(w, "  … and %d more outliers of %s\n", ds[i].More, distName(&ds[i]))
		}
	}
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = fmt.Sprint(n)
	}
	return strings.Join(s, ", ")
}
