package profile

// Estimates of times where the runtime timed a sample of the instances
// (see the package comment and Phase).

import "math"

// weight returns how many of n instances each of sampled samples stands
// for, when timed of them were timed: the instances that are neither
// certain nor samples are spread over the samples.
func weight(n, timed, sampled uint64) float64 {
	certain := timed - sampled
	if sampled == 0 || timed >= n || n <= certain {
		return 1
	}
	return float64(n-certain) / float64(sampled)
}

// A fit is how much of the samples' extrapolation to the untimed visits
// a phase keeps: 1 unless the estimates at its location would otherwise
// add up to more time than the location had (Profile.fitSamples).
type fit struct {
	known bool
	keep  float64
	most  float64 // the largest estimate of the exclusive time: the inclusive time
}

func (f fit) share() float64 {
	if !f.known {
		return 1
	}
	return f.keep
}

// exclExtra returns what the unfitted estimate of the exclusive time adds
// to ExclNs for the visits that were not timed: the samples' time scaled
// to the visits they stand for. Without samples (a profile of an older
// gopari, or fewer untimed visits than one sample stands for) all timed
// visits are scaled.
func (p *Phase) exclExtra() float64 {
	if p == nil || p.Timed == 0 || p.Timed >= p.Visits {
		return 0
	}
	if p.TimedSampled == 0 {
		return float64(p.ExclNs) * float64(p.Visits-p.Timed) / float64(p.Timed)
	}
	return float64(p.ExclSampledNs) * (weight(p.Visits, p.Timed, p.TimedSampled) - 1)
}

// inclExtra is exclExtra for the inclusive time of a task region's
// instances, which is their execution time and sampled like the
// exclusive time (other phases time every outermost visit: their
// inclusive time is exact).
func (p *Phase) inclExtra() float64 {
	if p == nil || p.Timed == 0 || p.Timed >= p.Visits {
		return 0
	}
	if p.TimedSampled == 0 {
		return float64(p.InclNs) * float64(p.Visits-p.Timed) / float64(p.Timed)
	}
	return float64(p.InclSampledNs) * (weight(p.Visits, p.Timed, p.TimedSampled) - 1)
}

// ExclEstimateNs returns the exclusive time of all visits: the certain
// visits' time as measured, and the samples' scaled to the visits they
// stand for, within what the location had (for a profile from Read).
func (p *Phase) ExclEstimateNs() float64 {
	if p == nil {
		return 0
	}
	extra := p.fit.share() * p.exclExtra()
	if p.fit.known {
		extra = min(extra, max(p.fit.most-float64(p.ExclNs), 0))
	}
	return float64(p.ExclNs) + extra
}

// taskExecNs returns the execution time of all instances of a task
// region's phase at its location, estimated and bounded as
// TaskStats.ExecTotalNs counts it.
func (p *Phase) taskExecNs() float64 {
	if p == nil {
		return 0
	}
	if p.fit.known {
		return p.fit.most
	}
	return p.taskInclNs()
}

// taskInclNs returns the execution time of all instances of a task
// region's phase, estimated as in ExclEstimateNs.
func (p *Phase) taskInclNs() float64 {
	if p == nil {
		return 0
	}
	return float64(p.InclNs) + p.fit.share()*p.inclExtra()
}

// TotalNs estimates the total duration of n instances, of which d timed
// some: the certain ones as measured, the samples scaled to the
// instances they stand for (see Phase).
func (d Dist) TotalNs(n uint64) float64 {
	if d.Timed == 0 || d.Timed >= n {
		return float64(d.SumNs)
	}
	if d.Sampled == 0 {
		return d.MeanNs() * float64(n)
	}
	return float64(d.SumNs) + float64(d.SampledSumNs)*(weight(n, d.Timed, d.Sampled)-1)
}

// CreateTotalNs estimates the total creation time from the timed
// creations.
func (t TaskStats) CreateTotalNs() float64 { return t.Create.TotalNs(t.Created) }

// ExecTotalNs estimates the total execution time of the instances. For a
// profile from Read it is the sum of the estimates of its instances at
// each location (see Phase), which stay within the
// run's time.
func (t TaskStats) ExecTotalNs() float64 {
	if t.execNs > 0 {
		return t.execNs
	}
	return t.Exec.TotalNs(t.Executed)
}

// CreateMeanNs and ExecMeanNs estimate the mean creation and execution
// time of all instances.
func (t TaskStats) CreateMeanNs() float64 { return mean(t.CreateTotalNs(), t.Created, t.Create) }

func (t TaskStats) ExecMeanNs() float64 { return mean(t.ExecTotalNs(), t.Executed, t.Exec) }

// Benefit is the task region's parallel benefit: its mean execution
// over its mean creation time (estimates); NaN without creation time.
// Below 1, a task costs more to create than it runs.
func (t TaskStats) Benefit() float64 {
	if c := t.CreateMeanNs(); c > 0 {
		return t.ExecMeanNs() / c
	}
	return math.NaN()
}

func mean(total float64, n uint64, d Dist) float64 {
	if d.Timed == 0 || n == 0 {
		return 0
	}
	if d.Timed >= n {
		return d.MeanNs()
	}
	return total / float64(n)
}

// phases returns the four phases of s.
func (s *Stat) phases() [4]*Phase { return [4]*Phase{s.Construct, s.Body, s.Barrier, s.Wait} }

// taskPhase returns the phase that holds the instances of a task or
// taskloop region, or nil for other kinds.
func (p *Profile) taskPhase(s *Stat) *Phase {
	r := p.Region(s.Region)
	switch {
	case r == nil:
		return nil
	case r.Kind == "task":
		return s.Construct
	case r.Kind == "taskloop":
		return s.Body
	}
	return nil
}

// fitSamples bounds the estimates. At a location, the time that no timed
// visit accounts for (the wall time, less the exclusive time measured
// there) is the most that the untimed visits can have taken together: the
// samples' extrapolation to them is scaled down to fit in it where it
// would not. The execution time of a task region's instances at a
// location is at most the wall time, and an exclusive time at most its
// inclusive time. So a region's times summed over the locations stay
// within the wall time times their number. The execution time of a task
// region's instances (TaskStats.ExecTotalNs) becomes the sum of their
// estimates at each location.
func (p *Profile) fitSamples() {
	wall := float64(p.WallNs)
	if wall <= 0 {
		return
	}
	measured, extra := map[int]float64{}, map[int]float64{}
	for i := range p.Stats {
		s := &p.Stats[i]
		for _, ph := range s.phases() {
			if ph != nil {
				measured[s.Thread] += float64(ph.ExclNs)
				extra[s.Thread] += ph.exclExtra()
			}
		}
	}
	for _, t := range p.Threads {
		measured[t.Index] += float64(t.InitialNs)
	}
	exec := map[int]float64{}
	for i := range p.Stats {
		s := &p.Stats[i]
		keep := 1.0
		if free := wall - measured[s.Thread]; extra[s.Thread] > free {
			keep = max(free, 0) / extra[s.Thread]
		}
		for _, ph := range s.phases() {
			if ph != nil {
				ph.fit = fit{known: true, keep: keep, most: float64(ph.InclNs)}
			}
		}
		if tp := p.taskPhase(s); tp != nil {
			tp.fit.most = min(tp.taskInclNs(), wall)
			exec[s.Region] += tp.fit.most
		}
	}
	for i := range p.Tasks {
		p.Tasks[i].execNs = exec[p.Tasks[i].Region]
	}
}
