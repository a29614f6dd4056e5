package html

import (
	"fmt"
	"math"

	"gopari/internal/experiment"
	"gopari/internal/job"
	"gopari/internal/pop"
)

// A metricRow is one efficiency metric with its definition.
type metricRow struct {
	ID, Name   string
	Value      float64
	Rating     string // of Value, or of Rated when that is set
	Note       string // beside the value
	Definition string
	Formula    string
	Indent     bool
}

// A stackPart is one part of a stacked bar.
type stackPart struct {
	Name  string
	Class string
	Ns    float64
	Pct   float64
}

type effView struct {
	Threads  int
	Rows     []metricRow
	InRegion []stackPart // time in parallel regions, by what it was used for
	Workers  []bar       // useful time per worker
	HasPar   bool
}

func effOf(m *pop.Metrics) *effView {
	if math.IsNaN(m.ParallelEfficiency) {
		return nil
	}
	v := &effView{Threads: m.Threads, HasPar: !math.IsNaN(m.LoadBalance)}
	v.Rows = []metricRow{
		{ID: "eff-pe", Name: "Parallel efficiency", Value: m.ParallelEfficiency,
			Definition: "The share of the threads' time that was useful: mean useful time per thread over the wall time. Useful time is time in the program's own code: not waiting in barriers, taskwait, taskgroup, taskloops, critical sections, locks or MPI calls, not creating tasks, and, for the threads other than the initial one, not idle outside parallel regions.",
			Formula:    "PE = (U_serial + Σ U_t) / (n · T) = σ·u/n + (1 − σ) · LB · SE"},
		{ID: "eff-serial", Name: "Serial fraction σ", Value: m.SerialFraction, Rating: pop.Rating(m.SerialRegionEfficiency),
			Note:       fmt.Sprintf("serial region efficiency %s", numText(m.SerialRegionEfficiency)),
			Definition: "The share of the wall time spent outside parallel regions, where only the initial thread works (Amdahl's serial part). Its cost is the serial region efficiency: the other n − 1 threads idle during it. The colour is that efficiency's.",
			Formula:    "σ = (T − P) / T;  serial region efficiency = 1 − σ · (n − 1) / n"},
	}
	if v.HasPar {
		v.Rows = append(v.Rows,
			metricRow{ID: "eff-region", Name: "OpenMP region efficiency", Value: m.RegionEfficiency,
				Definition: "Inside parallel regions: the mean useful time per thread over the time in parallel regions; the product of load balance and synchronisation and scheduling efficiency.",
				Formula:    "LB · SE = mean_t(U_t) / P"},
			metricRow{ID: "eff-lb", Name: "Load balance", Value: m.LoadBalance, Indent: true,
				Definition: "How evenly the threads shared the useful work of the parallel regions: the mean over the threads of their useful time over the largest. One thread doing all the work of two gives 0.5. Summed over the run: imbalance that moves from thread to thread between regions cancels out (the load-balance section shows each region).",
				Formula:    "LB = mean_t(U_t) / max_t(U_t)"},
			metricRow{ID: "eff-sync", Name: "Synchronisation and scheduling efficiency", Value: m.SyncEfficiency, Indent: true,
				Definition: "How much of the time in parallel regions the busiest thread spent on useful work; the rest went to synchronisation (barriers, taskwait, critical sections, locks), to creating and scheduling tasks, and to forking and joining teams.",
				Formula:    "SE = max_t(U_t) / P"},
		)
	}
	for i := range v.Rows {
		if v.Rows[i].Rating == "" {
			v.Rows[i].Rating = pop.Rating(v.Rows[i].Value)
		}
	}
	if v.HasPar {
		in := m.InRegions
		for _, p := range []stackPart{{"useful", "useful", in.UsefulNs, 0}, {"barriers", "barrier", in.Lost.Barrier, 0},
			{"taskwait, taskgroup, taskloop", "taskwait", in.Lost.Taskwait, 0}, {"critical, ordered, locks", "critical", in.Lost.Critical, 0},
			{"task creation", "create", in.Lost.Create, 0}, {"MPI", "mpi", in.Lost.MPI, 0}, {"fork, join, idle threads", "other", in.Lost.Other, 0}} {
			if p.Ns > 0 && in.TotalNs > 0 {
				p.Pct = math.Round(1000*p.Ns/in.TotalNs) / 10
				v.InRegion = append(v.InRegion, p)
			}
		}
		var maxU float64
		for _, w := range m.Workers {
			maxU = math.Max(maxU, w.UsefulNs)
		}
		for _, w := range m.Workers {
			b := bar{Thread: w.Path, Ns: w.UsefulNs}
			if maxU > 0 {
				b.Pct = math.Round(1000*w.UsefulNs/maxU) / 10
			}
			v.Workers = append(v.Workers, b)
		}
	}
	return v
}

// jobView is an MPI job's sections.
type jobView struct {
	Rows    []metricRow
	Ranks   []rankRow // a row per rank, unless Summarised
	Regions []jobRegionRow
	Gaps    []string
	// Summarised: past job.SummariseAbove ranks, the ranks as
	// distributions (ranks.go).
	Summarised bool
	NRanks     int
	Dists      []distRow
	Outliers   []outlierRow
	Exits      string
}

type rankRow struct {
	Rank, Threads                int
	Exit, Dir                    string
	WallNs, MPINs, OpenMPNs      float64
	PE, Serial, LB, SE, MPIShare float64
	UsefulPct                    float64
	MPICalls, Messages, Bytes    uint64
}

type jobRegionRow struct {
	Label, Where, Search string
	Min, Mean, Max       float64
	MaxRank, Ranks       int
	RankImb, ThreadImb   float64
	Visits               uint64
	Bars                 []bar
	Hist                 []histBar // when the ranks are summarised
}

func jobSections(j *job.Job, m *job.Merged, allRanks bool) *jobView {
	jm := pop.ComputeJob(j, m)
	v := &jobView{Rows: []metricRow{
		{ID: "eff-pe", Name: "Parallel efficiency", Value: jm.ParallelEfficiency,
			Definition: "The share of the job's thread time that was useful: over the ranks, the mean useful time per thread (each rank's parallel efficiency times its wall time) over the job's wall time (its longest rank's). MPI calls are not useful time.",
			Formula:    "PE = mean_r(Ū_r) / T = rank LB · CommE"},
		{ID: "eff-rank-lb", Name: "Rank load balance", Value: jm.RankLoadBalance, Indent: true,
			Note:       fmt.Sprintf("rank imbalance %.1f%%", 100*jm.RankImbalance),
			Definition: "How evenly the ranks shared the useful work: the mean over ranks of their useful time per thread over the largest. The rank imbalance is 1 − this: near 0 balanced, near 1 one rank did nearly everything while the others waited (in MPI calls).",
			Formula:    "rank LB = mean_r(Ū_r) / max_r(Ū_r);  rank imbalance = 1 − rank LB"},
		{ID: "eff-comm", Name: "Communication efficiency", Value: jm.CommEfficiency, Indent: true,
			Definition: "The useful time of the busiest rank over the job's wall time: what MPI communication, serial parts and synchronisation inside the ranks cost it.",
			Formula:    "CommE = max_r(Ū_r) / T"},
		{ID: "eff-mpi", Name: "MPI share", Value: jm.MPIShare, Rating: "none",
			Definition: "The time in MPI calls over that time plus the time in OpenMP constructs (user code in parallel regions included), summed over ranks and threads: the MPI share gopari report prints per rank.",
			Formula:    "Σ MPI / Σ (MPI + OpenMP)"},
	}}
	for i := range v.Rows {
		if v.Rows[i].Rating == "" {
			v.Rows[i].Rating = pop.Rating(v.Rows[i].Value)
		}
	}
	var maxU float64
	for _, r := range jm.Ranks {
		maxU = math.Max(maxU, r.UsefulNs)
	}
	v.NRanks = len(m.Ranks)
	if v.Summarised = len(m.Ranks) > job.SummariseAbove && !allRanks; v.Summarised {
		v.rankDists(m)
	}
	for i, r := range m.Ranks {
		if v.Summarised {
			break
		}
		row := rankRow{Rank: r.Rank, Threads: r.Threads, Exit: r.Exit, Dir: r.Dir, WallNs: float64(r.WallNs), MPINs: float64(r.MPINs),
			OpenMPNs: float64(r.OpenMPNs), MPICalls: r.MPICalls, Messages: r.Messages, Bytes: r.Bytes,
			PE: math.NaN(), Serial: math.NaN(), LB: math.NaN(), SE: math.NaN(), MPIShare: math.NaN()}
		if i < len(jm.Ranks) {
			rm := jm.Ranks[i]
			row.PE, row.Serial, row.LB, row.SE, row.MPIShare = rm.ParallelEfficiency, rm.SerialFraction, rm.LoadBalance, rm.SyncEfficiency, rm.MPIShare
			if maxU > 0 {
				row.UsefulPct = math.Round(1000*rm.UsefulNs/maxU) / 10
			}
		}
		v.Ranks = append(v.Ranks, row)
	}
	for _, r := range m.Regions {
		reg := r.Region()
		row := jobRegionRow{Label: reg.Label(), Where: reg.Where(), Min: float64(r.InclNs.Min), Mean: r.InclNs.Mean,
			Max: float64(r.InclNs.Max), MaxRank: r.InclNs.MaxRank, Ranks: r.Ranks, RankImb: r.RankImbalance, ThreadImb: r.ThreadImbalance, Visits: r.Visits.Max}
		row.Search = row.Label + " " + row.Where
		if v.Summarised {
			row.Hist = regionHist(&r, m.Ranks)
			v.Regions = append(v.Regions, row)
			continue
		}
		for _, on := range r.PerRank {
			b := bar{Thread: fmt.Sprintf("rank %d", on.Rank), Ns: float64(on.InclNs)}
			if r.InclNs.Max > 0 {
				b.Pct = math.Round(1000*float64(on.InclNs)/float64(r.InclNs.Max)) / 10
			}
			row.Bars = append(row.Bars, b)
		}
		v.Regions = append(v.Regions, row)
	}
	for _, r := range j.Missing {
		v.Gaps = append(v.Gaps, fmt.Sprintf("rank %d wrote nothing (no %s directory): it was killed before it could, or never started", r, experiment.RankDir(r)))
	}
	for _, d := range j.Damaged {
		v.Gaps = append(v.Gaps, fmt.Sprintf("rank %d: %s", d.Rank, d.Error))
	}
	if most := 10; v.Summarised && len(v.Gaps) > most {
		v.Gaps = append(v.Gaps[:most], fmt.Sprintf("… %d more missing or damaged ranks (gopari report lists them with --ranks all)", len(v.Gaps)-most))
	}
	return v
}

func jobHeader(j *job.Job, m *job.Merged) header {
	size := fmt.Sprint(m.Size)
	if m.Size == 0 {
		size = "?"
	}
	h := header{Program: m.Program, Mode: "MPI job", Rows: [][2]string{{"job", m.Job + " (" + m.Launcher + ")"},
		{"ranks", fmt.Sprintf("%d of %s wrote a profile", len(m.Ranks), size)}}}
	var wall float64
	h.ThreadsAre = "team member(s)"
	for i, r := range m.Ranks {
		wall = math.Max(wall, float64(r.WallNs))
		h.Threads += r.Threads
		h.OSThreads += r.OSThreads
		if i < len(j.Ranks) && j.Ranks[i].Profile.ThreadCount().Members == 0 {
			h.ThreadsAre = "team member(s) (of a rank that forked no team: its initial threads)"
		}
		if i < len(j.Ranks) && h.Date == "" {
			h.Date = runDate(j.Ranks[i].Profile.Clock.Realtime0Ns)
			h.Args = quoteArgsJoin(j.Ranks[i].Profile.Args)
		}
	}
	h.Regions = len(m.Regions)
	h.Wall = dur(wall)
	if len(j.Missing)+len(j.Damaged) > 0 {
		h.Warnings = append(h.Warnings, fmt.Sprintf("%d rank(s) missing and %d damaged: see Ranks", len(j.Missing), len(j.Damaged)))
	}
	for _, r := range j.Ranks {
		if n := r.Profile.UnmatchedEvents; n > 0 {
			h.Warnings = append(h.Warnings, fmt.Sprintf("rank %d: %d events had no matching begin on their thread: their time is not attributed", r.Rank, n))
		}
	}
	return h
}
