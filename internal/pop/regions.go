package pop

import (
	"math"
	"sort"

	"gopari/internal/profile"
)

// A Balance is one parallel region's work per thread: the time each
// member's implicit tasks ran (Body: their bodies and the tasks they ran
// in the closing barrier) and waited in the closing barrier (Wait),
// summed over the region's executions.
type Balance struct {
	Region  int
	Threads []ThreadTime // in team-tree order
	// LoadBalance is mean(Body) / max(Body) over the members, and
	// Imbalance (max − mean) / max = 1 − LoadBalance.
	LoadBalance, Imbalance float64
	MinNs, MaxNs, MeanNs   float64 // of Body
	WaitMeanNs, WaitMaxNs  float64 // of Wait
}

// ThreadTime is one thread's part of a parallel region.
type ThreadTime struct {
	Path   string
	BodyNs float64
	WaitNs float64
}

// Balances returns the load balance of every parallel region that ran,
// by region id.
func Balances(p *profile.Profile) []Balance {
	by := map[int]*Balance{}
	for _, s := range p.Stats {
		r := p.Region(s.Region)
		if r == nil || r.Kind != "parallel" || s.Body == nil || s.Thread < 0 || s.Thread >= len(p.Threads) {
			continue
		}
		b := by[s.Region]
		if b == nil {
			b = &Balance{Region: s.Region}
			by[s.Region] = b
		}
		t := ThreadTime{Path: p.Threads[s.Thread].Path}
		t.BodyNs, t.WaitNs = s.ImplicitTask()
		b.Threads = append(b.Threads, t)
	}
	var out []Balance
	for _, b := range by {
		sort.Slice(b.Threads, func(i, j int) bool { return PathLess(b.Threads[i].Path, b.Threads[j].Path) })
		var sum, wait float64
		b.MinNs = math.Inf(1)
		for _, t := range b.Threads {
			sum += t.BodyNs
			wait += t.WaitNs
			b.MinNs = math.Min(b.MinNs, t.BodyNs)
			b.MaxNs = math.Max(b.MaxNs, t.BodyNs)
			b.WaitMaxNs = math.Max(b.WaitMaxNs, t.WaitNs)
		}
		b.MeanNs = sum / float64(len(b.Threads))
		b.WaitMeanNs = wait / float64(len(b.Threads))
		b.LoadBalance = math.NaN()
		if b.MaxNs > 0 {
			b.LoadBalance = b.MeanNs / b.MaxNs
			b.Imbalance = 1 - b.LoadBalance
		}
		out = append(out, *b)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Region < out[j].Region })
	return out
}
