package report

import (
	"fmt"
	"io"
	"math"
	"strings"

	"gopari/internal/job"
	"gopari/internal/pop"
)

// metric prints an efficiency with POP's rating when it is not good.
func metric(v float64) string {
	switch r := pop.Rating(v); r {
	case "none":
		return "   -"
	case "good":
		return fmt.Sprintf("%.2f", v)
	default:
		return fmt.Sprintf("%.2f (%s)", v, r)
	}
}

// efficiency prints the POP metrics of a run (internal/pop defines them).
func efficiency(w io.Writer, m *pop.Metrics) {
	if math.IsNaN(m.ParallelEfficiency) {
		return
	}
	fmt.Fprintf(w, "\nEfficiency (POP metrics over %d thread(s); 1 is ideal, below 0.8 is worth a look)\n", m.Threads)
	fmt.Fprintf(w, "  parallel efficiency   %-12s mean useful time per thread / wall time\n", metric(m.ParallelEfficiency))
	fmt.Fprintf(w, "  serial fraction       %-12s time outside parallel regions / wall time; serial region efficiency %s\n",
		fmt.Sprintf("%.2f", m.SerialFraction), metric(m.SerialRegionEfficiency))
	if math.IsNaN(m.LoadBalance) {
		return
	}
	fmt.Fprintf(w, "  load balance          %-12s in parallel regions: mean / max useful time per thread\n", metric(m.LoadBalance))
	fmt.Fprintf(w, "  sync and scheduling   %-12s in parallel regions: max useful time per thread / time in them\n", metric(m.SyncEfficiency))
	in := m.InRegions
	fmt.Fprintf(w, "  time in parallel regions: %s useful; lost to %s\n", share(in.UsefulNs, in.TotalNs), lostText(in.Lost, in.TotalNs))
}

func share(part, whole float64) string {
	if whole <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*part/whole)
}

// lostText lists the causes of lost time with their shares of whole.
func lostText(l pop.Lost, whole float64) string {
	causes := []struct {
		name string
		v    float64
	}{{"barriers", l.Barrier}, {"taskwait and taskloop", l.Taskwait}, {"critical and locks", l.Critical},
		{"task creation", l.Create}, {"MPI", l.MPI}, {"fork, join and idle threads", l.Other}}
	var parts []string
	for _, c := range causes {
		if c.v > 0 || c.name == "barriers" {
			parts = append(parts, c.name+" "+share(c.v, whole))
		}
	}
	return strings.Join(parts, ", ")
}

// jobEfficiency prints the POP metrics of an MPI job.
func jobEfficiency(w io.Writer, jb *job.Job, m *job.Merged) {
	j := pop.ComputeJob(jb, m)
	if math.IsNaN(j.ParallelEfficiency) {
		return
	}
	fmt.Fprintf(w, "\nEfficiency (POP metrics over %d rank(s); 1 is ideal, below 0.8 is worth a look)\n", len(j.Ranks))
	fmt.Fprintf(w, "  parallel efficiency   %-12s mean useful time per rank and thread / the job's wall time\n", metric(j.ParallelEfficiency))
	fmt.Fprintf(w, "  rank load balance     %-12s mean / max useful time per rank; rank imbalance %.1f%%\n", metric(j.RankLoadBalance), 100*j.RankImbalance)
	fmt.Fprintf(w, "  communication         %-12s max useful time per rank / the job's wall time\n", metric(j.CommEfficiency))
	fmt.Fprintf(w, "  MPI share             %-12s time in MPI calls / (that + time in OpenMP constructs)\n", share(j.MPIShare, 1))
}
