package pop

import (
	"math"

	"gopari/internal/job"
)

// JobMetrics are the metrics of an MPI job: each rank's own, and how the
// ranks compare.
//
//	Ū_r   a rank's useful time per thread: PE_r · T_r (MPI calls are not useful)
//	T     the job's wall time, the longest rank's
//	rank load balance          = mean(Ū) / max(Ū);  rank imbalance = 1 − that
//	communication efficiency   = max(Ū) / T
//	parallel efficiency        = mean(Ū) / T = rank load balance · communication efficiency
//	MPI share                  = time in MPI calls / (that + time in OpenMP constructs)
//
// The MPI share is the one gopari report prints per rank: MPI calls
// against the exclusive time of OpenMP constructs, user code inside
// parallel regions included, summed over threads.
type JobMetrics struct {
	Ranks              []RankMetrics
	WallNs             float64
	ParallelEfficiency float64
	RankLoadBalance    float64
	RankImbalance      float64
	CommEfficiency     float64
	MPIShare           float64
}

// RankMetrics are one rank's metrics.
type RankMetrics struct {
	Rank     int
	MPIShare float64
	UsefulNs float64 // Ū_r
	*Metrics
}

// ComputeJob returns the metrics of job j, merged as m.
func ComputeJob(j0 *job.Job, m *job.Merged) *JobMetrics {
	j := &JobMetrics{ParallelEfficiency: math.NaN(), RankLoadBalance: math.NaN(), RankImbalance: math.NaN(),
		CommEfficiency: math.NaN(), MPIShare: math.NaN()}
	var mpi, omp, sum, maxU float64
	for i, r := range m.Ranks {
		if i >= len(j0.Ranks) || j0.Ranks[i].Rank != r.Rank {
			break
		}
		pm := Compute(j0.Ranks[i].Profile)
		rm := RankMetrics{Rank: r.Rank, Metrics: pm, MPIShare: r.MPIShare()}
		if !math.IsNaN(pm.ParallelEfficiency) {
			rm.UsefulNs = pm.ParallelEfficiency * pm.WallNs
		}
		mpi += float64(r.MPINs)
		omp += float64(r.OpenMPNs)
		sum += rm.UsefulNs
		maxU = math.Max(maxU, rm.UsefulNs)
		j.WallNs = math.Max(j.WallNs, pm.WallNs)
		j.Ranks = append(j.Ranks, rm)
	}
	if mpi+omp > 0 {
		j.MPIShare = mpi / (mpi + omp)
	}
	if len(j.Ranks) == 0 || j.WallNs <= 0 {
		return j
	}
	mean := sum / float64(len(j.Ranks))
	if maxU > 0 {
		j.RankLoadBalance = mean / maxU
		j.RankImbalance = 1 - j.RankLoadBalance
	}
	j.CommEfficiency = maxU / j.WallNs
	j.ParallelEfficiency = mean / j.WallNs
	return j
}
