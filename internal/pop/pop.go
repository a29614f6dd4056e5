// Package pop computes the efficiency metrics of the POP Centre of
// Excellence from a gopari profile: parallel efficiency, and what it is
// made of — the serial fraction, load balance, and synchronisation and
// scheduling efficiency — for the OpenMP threads of one process, and for
// an MPI job the MPI share and the imbalance between ranks.
//
// Everything is computed from what the profile measures, per team-tree
// location (thread):
//
//   - T, the wall time of the run; P, the time inside the parallel
//     regions the initial thread (location 0) forked, fork to join; the
//     serial time S = T − P.
//   - The workers: the n threads of those teams (locations 0.0, 0.1, …).
//   - A worker's useful time: the time its implicit tasks ran (the
//     parallel regions' body phase and the tasks it ran in their closing
//     barriers, tasks it ran in other barriers included),
//     less the time it waited in barriers (worksharing implicit barriers,
//     barrier constructs, nested teams' closing barriers), in taskwait,
//     taskyield, taskgroup ends and taskloops (creating and awaiting their
//     tasks), to enter critical and ordered sections, for locks, in MPI
//     calls, and the time it spent creating tasks. Waits of its own
//     nested implicit tasks (same OS thread, deeper in the team tree)
//     count as its waits.
//     The initial thread's useful serial time is S less its own waits.
//
// From these:
//
//	serial fraction            σ    = S / T
//	serial region efficiency        = 1 − σ·(n−1)/n
//	load balance               LB   = mean(U) / max(U)        over the workers
//	sync./scheduling eff.      SE   = max(U) / P
//	OpenMP region efficiency        = LB · SE = mean(U) / P
//	parallel efficiency        PE   = (U_serial + ΣU) / (n·T)
//	                                = σ·u/n + (1 − σ)·LB·SE   (u: useful share of S)
//
// which is POP's additive hybrid model for one process (PE = serial
// region efficiency + OpenMP parallel efficiency − 1 when u = 1). Each
// efficiency lies between 0 and 1; POP counts values below 0.8 as a
// problem (Good, Fair, Poor: ≥ 0.8, ≥ 0.6, below).
//
// The profile sums a thread's time over the whole run, so imbalance that
// moves from thread to thread between regions cancels out in LB; the
// per-region view (Region) keeps each parallel region apart.
package pop

import (
	"math"
	"sort"
	"strings"

	"gopari/internal/profile"
)

// Thresholds of POP's traffic lights: an efficiency at or above Good is
// good, at or above Fair is fair, below is poor.
const (
	Good = 0.8
	Fair = 0.6
)

// Rating returns "good", "fair" or "poor" for an efficiency, "none" for
// NaN (not defined).
func Rating(v float64) string {
	switch {
	case math.IsNaN(v):
		return "none"
	case v >= Good:
		return "good"
	case v >= Fair:
		return "fair"
	}
	return "poor"
}

// Lost is time lost to one cause, in nanoseconds summed over threads.
type Lost struct {
	Barrier  float64 // barriers: worksharing implicit ones, barrier constructs, parallel regions' closing barriers
	Taskwait float64 // taskwait, and the end of taskgroup
	Critical float64 // waiting to enter critical and ordered sections, and for locks
	Create   float64 // creating tasks
	MPI      float64 // MPI calls
	Other    float64 // the rest: fork and join, thread start, threads outside a smaller team
}

// Total returns the sum of the causes.
func (l Lost) Total() float64 {
	return l.Barrier + l.Taskwait + l.Critical + l.Create + l.MPI + l.Other
}

// Worker is one thread of the outermost teams.
type Worker struct {
	Path     string
	OSThread int
	BodyNs   float64 // its implicit tasks' time
	UsefulNs float64
	Lost     Lost // its waits inside its implicit tasks (Other: 0), and its closing-barrier waits
}

// Metrics are a process's efficiency metrics. A metric that is not
// defined (no parallel region, no time) is NaN.
type Metrics struct {
	Threads    int // n: the workers
	WallNs     float64
	ParallelNs float64 // P
	SerialNs   float64 // S
	// SerialUsefulNs is the initial thread's useful time outside
	// parallel regions; SerialLost its waits there.
	SerialUsefulNs float64
	SerialLost     Lost
	Workers        []Worker

	ParallelEfficiency     float64
	SerialFraction         float64
	SerialRegionEfficiency float64
	LoadBalance            float64
	SyncEfficiency         float64
	RegionEfficiency       float64
	// InRegions is the workers' time in parallel regions (n·P), split
	// into useful time and what was lost, by cause.
	InRegions struct {
		TotalNs  float64
		UsefulNs float64
		Lost     Lost
	}
}

// Compute returns the metrics of a profile.
func Compute(p *profile.Profile) *Metrics {
	m := &Metrics{WallNs: float64(p.WallNs)}
	locs := locations(p)
	createMean := map[int]float64{}
	for _, t := range p.Tasks {
		createMean[t.Region] = t.CreateMeanNs() // estimated: the timed creations are no fair sample
	}
	// Waits per location, and the workers' bodies.
	lost := make([]Lost, len(p.Threads))
	body := make([]float64, len(p.Threads))
	closing := make([]float64, len(p.Threads))
	for i := range p.Stats {
		s := &p.Stats[i]
		r := p.Region(s.Region)
		if r == nil || s.Thread < 0 || s.Thread >= len(p.Threads) {
			continue
		}
		if r.Kind == "parallel" {
			if locs[s.Thread].main && s.Construct != nil {
				m.ParallelNs += float64(s.Construct.InclNs)
			}
			work, wait := s.ImplicitTask()
			if locs[s.Thread].worker {
				body[s.Thread] += work
				closing[s.Thread] += wait
			} else { // a nested team's closing barrier
				lost[s.Thread].Barrier += wait
			}
			continue
		}
		addWaits(&lost[s.Thread], r, s, createMean[s.Region])
	}
	m.ParallelNs = math.Min(m.ParallelNs, m.WallNs)
	m.SerialNs = m.WallNs - m.ParallelNs
	// A worker's waits are those of the locations on its OS thread in
	// its subtree of the team tree.
	for i, l := range locs {
		if !l.worker {
			continue
		}
		w := Worker{Path: p.Threads[i].Path, OSThread: p.Threads[i].OSThread, BodyNs: body[i]}
		for j, o := range locs {
			if o.os == l.os && (j == i || strings.HasPrefix(p.Threads[j].Path, w.Path+".")) {
				w.Lost = w.Lost.plus(lost[j])
			}
		}
		w.UsefulNs = math.Max(0, w.BodyNs-w.Lost.Total())
		w.Lost.Barrier += closing[i]
		m.Workers = append(m.Workers, w)
	}
	sort.Slice(m.Workers, func(a, b int) bool { return PathLess(m.Workers[a].Path, m.Workers[b].Path) })
	for i, l := range locs {
		if l.main {
			m.SerialLost = lost[i]
		}
	}
	m.SerialUsefulNs = math.Max(0, m.SerialNs-m.SerialLost.Total())
	m.derive()
	return m
}

// derive computes the ratios from the times.
func (m *Metrics) derive() {
	n := len(m.Workers)
	m.Threads = max(n, 1)
	nan := math.NaN()
	m.ParallelEfficiency, m.SerialFraction, m.SerialRegionEfficiency = nan, nan, nan
	m.LoadBalance, m.SyncEfficiency, m.RegionEfficiency = nan, nan, nan
	if m.WallNs <= 0 {
		return
	}
	var sum, maxU float64
	for _, w := range m.Workers {
		sum += w.UsefulNs
		maxU = math.Max(maxU, w.UsefulNs)
	}
	m.SerialFraction = m.SerialNs / m.WallNs
	nf := float64(m.Threads)
	m.SerialRegionEfficiency = 1 - m.SerialFraction*(nf-1)/nf
	m.ParallelEfficiency = (m.SerialUsefulNs + sum) / (nf * m.WallNs)
	if n == 0 || m.ParallelNs <= 0 {
		return
	}
	if maxU > 0 {
		m.LoadBalance = sum / float64(n) / maxU
	}
	m.SyncEfficiency = math.Min(1, maxU/m.ParallelNs)
	m.RegionEfficiency = math.Min(1, sum/float64(n)/m.ParallelNs)
	in := &m.InRegions
	in.TotalNs = float64(n) * m.ParallelNs
	in.UsefulNs = sum
	for _, w := range m.Workers {
		in.Lost = in.Lost.plus(w.Lost)
	}
	in.Lost.Other = math.Max(0, in.TotalNs-in.UsefulNs-in.Lost.Total())
}

func (l Lost) plus(o Lost) Lost {
	return Lost{l.Barrier + o.Barrier, l.Taskwait + o.Taskwait, l.Critical + o.Critical, l.Create + o.Create, l.MPI + o.MPI, l.Other + o.Other}
}

// addWaits adds what a thread lost in region r (not a parallel region)
// to l: the phases that are waiting, and the creation of its tasks.
func addWaits(l *Lost, r *profile.Region, s *profile.Stat, createMean float64) {
	excl := func(ph *profile.Phase) float64 { return ph.ExclEstimateNs() }
	l.Barrier += excl(s.Barrier) // worksharing implicit barriers (nil: 0)
	switch r.Kind {
	case "barrier":
		l.Barrier += excl(s.Construct)
	case "taskwait", "taskyield":
		l.Taskwait += excl(s.Construct)
	case "taskgroup":
		l.Taskwait += excl(s.Wait)
	case "critical", "ordered":
		l.Critical += excl(s.Construct)
	case "lock":
		l.Critical += float64(s.LockWaitNs)
	case "mpi":
		if s.Construct != nil {
			l.MPI += float64(s.Construct.InclNs)
		}
	case "task":
		l.Create += float64(s.TasksCreated) * createMean
	case "taskloop": // creating its tasks and waiting for them; the tasks it runs meanwhile are its body
		l.Taskwait += excl(s.Construct)
	}
}

type loc struct {
	os     int
	worker bool // a thread of a team the main initial thread forked
	main   bool // the main initial thread, "0"
}

func locations(p *profile.Profile) []loc {
	out := make([]loc, len(p.Threads))
	for i, t := range p.Threads {
		out[i] = loc{os: t.OSThread, main: t.Path == "0",
			worker: t.Level == 1 && strings.HasPrefix(t.Path, "0.") && strings.Count(t.Path, ".") == 1}
	}
	return out
}

// PathLess orders team-tree paths numerically: 0.2 before 0.10.
func PathLess(a, b string) bool {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(as) && i < len(bs); i++ {
		if len(as[i]) != len(bs[i]) {
			return len(as[i]) < len(bs[i])
		}
		if as[i] != bs[i] {
			return as[i] < bs[i]
		}
	}
	return len(as) < len(bs)
}
