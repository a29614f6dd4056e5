package pop

import (
	"math"
	"testing"

	"gopari/internal/job"
	"gopari/internal/profile"
)

func ph(incl, excl uint64) *profile.Phase {
	return &profile.Phase{Visits: 1, Timed: 1, InclNs: incl, ExclNs: excl}
}

// constructed is a run of 1000 ns: 400 ns serial, of which 100 ns in an
// MPI call; a parallel region of 600 ns whose thread 0.0 runs 580 ns
// (40 ns in a loop's barrier, 20 ns in taskwait, 10 ns waiting for a
// critical section, 10 tasks created at 2 ns each) and thread 0.1 runs
// 290 ns and waits 290 ns in the closing barrier.
func constructed() *profile.Profile {
	p := &profile.Profile{WallNs: 1000}
	for i, k := range []string{"parallel", "for", "taskwait", "critical", "task", "mpi"} {
		p.Regions = append(p.Regions, profile.Region{ID: i + 1, Kind: k})
	}
	p.Threads = []profile.Thread{{Index: 0, Path: "0"}, {Index: 1, Path: "0.0", Level: 1}, {Index: 2, Path: "0.1", Level: 1, OSThread: 1}}
	p.Stats = []profile.Stat{
		{Region: 1, Thread: 0, Construct: ph(600, 20)},
		{Region: 1, Thread: 1, Body: ph(580, 100), Barrier: ph(0, 0)},
		{Region: 1, Thread: 2, Body: ph(290, 290), Barrier: ph(290, 290)},
		{Region: 2, Thread: 1, Construct: ph(200, 160), Barrier: ph(40, 40)},
		{Region: 3, Thread: 1, Construct: ph(60, 20)},
		{Region: 4, Thread: 1, Construct: ph(30, 10), Body: ph(20, 20)},
		{Region: 5, Thread: 1, Construct: ph(100, 100), TasksCreated: 10, TasksExecuted: 10},
		{Region: 6, Thread: 0, Construct: ph(100, 100)},
	}
	p.Tasks = []profile.TaskStats{{Region: 5, Created: 10, Executed: 10, Create: profile.Dist{Timed: 10, SumNs: 20, MinNs: 2, MaxNs: 2}}}
	return p
}

func near(t *testing.T, name string, got, want float64) {
	t.Helper()
	if math.Abs(got-want) > 1e-9 {
		t.Errorf("%s = %.6f, want %.6f", name, got, want)
	}
}

func TestConstructed(t *testing.T) {
	m := Compute(constructed())
	if m.Threads != 2 {
		t.Fatalf("%d workers, want 2", m.Threads)
	}
	near(t, "serial fraction", m.SerialFraction, 0.4)
	near(t, "serial region efficiency", m.SerialRegionEfficiency, 0.8)
	near(t, "serial useful", m.SerialUsefulNs, 300)
	near(t, "useful 0.0", m.Workers[0].UsefulNs, 580-40-20-10-20)
	near(t, "useful 0.1", m.Workers[1].UsefulNs, 290)
	near(t, "load balance", m.LoadBalance, 390.0/490)
	near(t, "sync efficiency", m.SyncEfficiency, 490.0/600)
	near(t, "region efficiency", m.RegionEfficiency, 390.0/600)
	near(t, "parallel efficiency", m.ParallelEfficiency, (300+780)/2000.0)
	// PE = σ·u/n + (1 − σ)·LB·SE, u = 300/400.
	near(t, "composition", m.ParallelEfficiency, 0.4*0.75/2+0.6*m.LoadBalance*m.SyncEfficiency)
	in := m.InRegions
	near(t, "in regions", in.TotalNs, 1200)
	near(t, "barrier", in.Lost.Barrier, 40+290)
	near(t, "taskwait", in.Lost.Taskwait, 20)
	near(t, "critical", in.Lost.Critical, 10)
	near(t, "create", in.Lost.Create, 20)
	near(t, "other", in.Lost.Other, 1200-780-330-20-10-20)
	near(t, "serial MPI", m.SerialLost.MPI, 100)
}

// TestNested: waits of a worker's own nested implicit task (0.1.0, on
// its OS thread: a barrier and the nested region's closing barrier) are
// its waits; those of the nested team's other thread (0.1.1, another OS
// thread) are not.
func TestNested(t *testing.T) {
	p := constructed()
	p.Regions = append(p.Regions, profile.Region{ID: 7, Kind: "barrier"})
	p.Threads = append(p.Threads, profile.Thread{Index: 3, Path: "0.1.0", Level: 2, OSThread: 1}, profile.Thread{Index: 4, Path: "0.1.1", Level: 2, OSThread: 2})
	p.Regions = append(p.Regions, profile.Region{ID: 8, Kind: "parallel"})
	p.Stats = append(p.Stats, profile.Stat{Region: 7, Thread: 3, Construct: ph(50, 50)}, profile.Stat{Region: 7, Thread: 4, Construct: ph(70, 70)},
		profile.Stat{Region: 8, Thread: 2, Construct: ph(200, 10)},
		profile.Stat{Region: 8, Thread: 3, Body: ph(150, 150), Barrier: ph(30, 30)},
		profile.Stat{Region: 8, Thread: 4, Body: ph(100, 100), Barrier: ph(80, 80)})
	m := Compute(p)
	near(t, "useful 0.1", m.Workers[1].UsefulNs, 290-50-30)
	if m.Threads != 2 {
		t.Errorf("%d workers, want 2", m.Threads)
	}
}

// TestSerialOnly: a run without parallel regions has one worker, no load
// balance and a parallel efficiency of its useful share.
func TestSerialOnly(t *testing.T) {
	p := &profile.Profile{WallNs: 1000, Regions: []profile.Region{{ID: 1, Kind: "mpi"}},
		Threads: []profile.Thread{{Path: "0"}}, Stats: []profile.Stat{{Region: 1, Thread: 0, Construct: ph(250, 250)}}}
	m := Compute(p)
	near(t, "serial fraction", m.SerialFraction, 1)
	near(t, "parallel efficiency", m.ParallelEfficiency, 0.75)
	if !math.IsNaN(m.LoadBalance) || !math.IsNaN(m.SyncEfficiency) {
		t.Errorf("load balance %v, sync efficiency %v; want NaN", m.LoadBalance, m.SyncEfficiency)
	}
	if Rating(m.LoadBalance) != "none" || Rating(0.8) != "good" || Rating(0.6) != "fair" || Rating(0.59) != "poor" {
		t.Error("ratings")
	}
}

// TestClosingTasks: tasks that thread 0.1 ran in the closing barrier
// (200 of its 290 ns there) are its useful work, not waiting.
func TestClosingTasks(t *testing.T) {
	p := constructed()
	p.Stats[2].Barrier = ph(290, 90)
	m := Compute(p)
	near(t, "useful 0.1", m.Workers[1].UsefulNs, 290+200)
	near(t, "barrier", m.InRegions.Lost.Barrier, 40+90)
	b := Balances(p)
	near(t, "work 0.1", b[0].Threads[1].BodyNs, 490)
	near(t, "wait 0.1", b[0].Threads[1].WaitNs, 90)
}

// TestSampledCreation: the time lost to creating tasks is the estimate of
// all creations, not the mean of the timed ones times their number: the
// first 1,000 creations at a place, all timed, took 100 ns each; of the
// 32,000 after them one in 32 was timed, at 2 ns each.
func TestSampledCreation(t *testing.T) {
	p := constructed()
	p.Stats[6].TasksCreated = 33000
	p.Tasks[0].Created = 33000
	p.Tasks[0].Create = profile.Dist{Timed: 2000, SumNs: 1000*100 + 1000*2, MinNs: 2, MaxNs: 100, Sampled: 1000, SampledSumNs: 1000 * 2}
	near(t, "create", Compute(p).InRegions.Lost.Create, 1000*100+32000*2)
}

func TestBalances(t *testing.T) {
	b := Balances(constructed())
	if len(b) != 1 || len(b[0].Threads) != 2 {
		t.Fatalf("%+v", b)
	}
	near(t, "balance", b[0].LoadBalance, (580+290)/2.0/580)
	near(t, "wait 0.1", b[0].Threads[1].WaitNs, 290)
}

// TestJob: two ranks, one with half the useful time of the other.
func TestJob(t *testing.T) {
	a, b := constructed(), constructed()
	b.Stats[7].Construct = ph(700, 700) // rank 1 waits 700 ns in MPI outside the region: serial useful 0
	m := &job.Merged{Ranks: []job.RankSummary{{Rank: 0, MPINs: 100, OpenMPNs: 900}, {Rank: 1, MPINs: 300, OpenMPNs: 700}}}
	j := ComputeJob(&job.Job{Ranks: []job.Rank{{Rank: 0, Profile: a}, {Rank: 1, Profile: b}}}, m)
	ua, ub := (300+780)/2.0, (0+780)/2.0
	near(t, "rank load balance", j.RankLoadBalance, (ua+ub)/2/ua)
	near(t, "rank imbalance", j.RankImbalance, 1-(ua+ub)/2/ua)
	near(t, "comm efficiency", j.CommEfficiency, ua/1000)
	near(t, "parallel efficiency", j.ParallelEfficiency, (ua+ub)/2/1000)
	near(t, "MPI share", j.MPIShare, 400.0/2000)
	near(t, "rank 1 MPI share", j.Ranks[1].MPIShare, 0.3)
}
