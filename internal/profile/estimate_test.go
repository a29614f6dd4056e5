package profile

import (
	"math"
	"testing"
)

// TestStrata checks the estimates on a population known by construction:
// 1,000 certain instances of 8 µs and 3,200 more of 1 µs, of which 100
// were sampled. Scaling every timed instance, as gopari did before it
// kept the samples apart, gives 2.76 times the truth.
func TestStrata(t *testing.T) {
	const certain, pool, picks = 1000, 3200, 100
	truth := float64(certain*8000 + pool*1000)
	ph := &Phase{Visits: certain + pool, Timed: certain + picks, InclNs: certain*8000 + picks*1000, ExclNs: certain*4000 + picks*500,
		TimedSampled: picks, InclSampledNs: picks * 1000, ExclSampledNs: picks * 500}
	if got := ph.taskInclNs(); got != truth {
		t.Errorf("execution of all instances: %.0f, want %.0f", got, truth)
	}
	if got := ph.ExclEstimateNs(); got != truth/2 {
		t.Errorf("exclusive time of all instances: %.0f, want %.0f", got, truth/2)
	}
	d := Dist{Timed: certain + picks, SumNs: certain*8000 + picks*1000, Sampled: picks, SampledSumNs: picks * 1000}
	if got := d.TotalNs(certain + pool); got != truth {
		t.Errorf("Dist.TotalNs: %.0f, want %.0f", got, truth)
	}
	old := d
	old.Sampled, old.SampledSumNs = 0, 0
	if got := old.TotalNs(certain + pool); math.Abs(got/truth-2.76) > 0.01 {
		t.Errorf("without samples: %.0f, %.2f times the truth; want the old mean scaling, 2.76", got, got/truth)
	}
	// A phase whose untimed visits are fewer than a sample stands for
	// (no samples): the timed visits are scaled.
	few := &Phase{Visits: 1010, Timed: 1000, ExclNs: 1000}
	if got := few.ExclEstimateNs(); got != 1010 {
		t.Errorf("no samples: %.0f, want 1010", got)
	}
}

// TestFitSamples checks the bounds of Read's estimates: a sample that ran
// long (a preempted instance, a task that waited for a whole subtree)
// cannot make a location's estimates exceed its time, nor an exclusive
// time its inclusive time.
func TestFitSamples(t *testing.T) {
	p := &Profile{
		WallNs:  100e6,
		Regions: []Region{{ID: 1, Kind: "task"}, {ID: 2, Kind: "taskwait"}},
		Threads: []Thread{{Index: 0}, {Index: 1}},
		Stats: []Stat{
			// 10 ms measured; one sample of 5 ms stands for 1,000 instances.
			{Region: 1, Thread: 0, Construct: &Phase{Visits: 2000, Timed: 1001, InclNs: 10e6, ExclNs: 10e6,
				TimedSampled: 1, InclSampledNs: 5e6, ExclSampledNs: 5e6}},
			// A taskwait whose one sampled visit would stand for 3,000 ms.
			{Region: 2, Thread: 1, Construct: &Phase{Visits: 2000, Timed: 1001, InclNs: 50e6, ExclNs: 1e6,
				TimedSampled: 1, ExclSampledNs: 3e6}},
		},
		Tasks: []TaskStats{{Region: 1, Created: 2000, Executed: 2000,
			Exec: Dist{Timed: 1001, SumNs: 10e6, Sampled: 1, SampledSumNs: 5e6}}},
	}
	if p.Tasks[0].ExecTotalNs() < 2e9 || p.Stats[1].Construct.ExclEstimateNs() < 2e9 {
		t.Fatalf("the unbounded estimates should be seconds: %.0f, %.0f", p.Tasks[0].ExecTotalNs(), p.Stats[1].Construct.ExclEstimateNs())
	}
	p.fitSamples()
	limit := float64(p.WallNs)
	for _, s := range p.Stats {
		ph := s.Construct
		if e := ph.ExclEstimateNs(); e > limit || e < float64(ph.ExclNs) {
			t.Errorf("region %d at %d: exclusive %.0f, outside [%d, %.0f]", s.Region, s.Thread, e, ph.ExclNs, limit)
		}
	}
	task := p.Stats[0].Construct
	if e, i := task.ExclEstimateNs(), p.Tasks[0].ExecTotalNs(); i > limit || e > i {
		t.Errorf("task: exclusive %.0f, execution %.0f, wall %.0f", e, i, limit)
	}
	if e := p.Stats[1].Construct.ExclEstimateNs(); e > 50e6 {
		t.Errorf("taskwait: exclusive %.0f above its inclusive 50 ms", e)
	}
}
