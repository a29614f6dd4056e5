package job

import (
	"math"
	"sort"
)

// At scale a table of one row per rank says nothing: 4,096 rows, and no
// one reads them for the few ranks that matter. Past SummariseAbove
// ranks the text report and the HTML page show each metric of the ranks
// as a distribution (minimum, quartiles, maximum, a histogram) and name
// the outlier ranks, as Cube and Scalasca users look at a job first.
// Distributions computes them once; both render it.

// SummariseAbove is the most ranks that reports list one by one.
const SummariseAbove = 32

// MaxOutliers is the most outlier ranks named per metric.
const MaxOutliers = 5

// Bins is the number of bins of a distribution's histogram.
const Bins = 20

// A Dist is one metric over the ranks.
type Dist struct {
	Name string
	// Unit says how to print its values: "ns", "share" (0 to 1),
	// "count" or "bytes".
	Unit                     string
	Min, Q1, Median, Q3, Max float64
	Values                   []float64 // per rank, in Merged.Ranks' order
	// Hist counts the ranks in Bins equal bins from Min to Max (all in
	// the first when Min = Max).
	Hist []int
	// Outliers are the ranks beyond the fences (Tukey's: 1.5 times the
	// interquartile range beyond the quartiles, and at least 5% of the
	// median), farthest first, at most MaxOutliers; More counts the
	// others.
	Outliers []Outlier
	More     int
}

// An Outlier is a rank whose value lies beyond a fence.
type Outlier struct {
	Rank  int
	Dir   string
	Value float64
	High  bool // above the upper fence; else below the lower
}

// Distributions returns the distributions of the ranks' metrics of m:
// wall time, time in OpenMP constructs, in MPI calls, MPI share, MPI
// calls, messages and bytes (RankSummary), those every rank has at 0
// left out.
func Distributions(m *Merged) []Dist {
	metrics := []struct {
		name, unit string
		v          func(r RankSummary) float64
	}{
		{"wall", "ns", func(r RankSummary) float64 { return float64(r.WallNs) }},
		{"OpenMP", "ns", func(r RankSummary) float64 { return float64(r.OpenMPNs) }},
		{"MPI", "ns", func(r RankSummary) float64 { return float64(r.MPINs) }},
		{"MPI share", "share", RankSummary.MPIShare},
		{"MPI calls", "count", func(r RankSummary) float64 { return float64(r.MPICalls) }},
		{"messages", "count", func(r RankSummary) float64 { return float64(r.Messages) }},
		{"bytes", "bytes", func(r RankSummary) float64 { return float64(r.Bytes) }},
	}
	var out []Dist
	for _, mt := range metrics {
		d := Dist{Name: mt.name, Unit: mt.unit, Values: make([]float64, len(m.Ranks))}
		any := false
		for i, r := range m.Ranks {
			d.Values[i] = mt.v(r)
			if d.Values[i] != 0 && !math.IsNaN(d.Values[i]) {
				any = true
			}
		}
		if !any {
			continue
		}
		out = append(out, DistOf(mt.name, mt.unit, d.Values, m.Ranks))
	}
	return out
}

// DistOf returns the distribution of values, one per rank of ranks (NaN
// values, a rank without the metric, left out): its quantiles,
// histogram and outliers.
func DistOf(name, unit string, values []float64, ranks []RankSummary) Dist {
	d := Dist{Name: name, Unit: unit, Values: values}
	var sorted []float64
	for _, v := range d.Values {
		if !math.IsNaN(v) {
			sorted = append(sorted, v)
		}
	}
	if len(sorted) == 0 {
		return d
	}
	sort.Float64s(sorted)
	d.Min, d.Max = sorted[0], sorted[len(sorted)-1]
	d.Q1, d.Median, d.Q3 = quantile(sorted, 0.25), quantile(sorted, 0.5), quantile(sorted, 0.75)
	d.Hist = make([]int, Bins)
	for _, v := range sorted {
		d.Hist[d.Bin(v)]++
	}
	reach := math.Max(1.5*(d.Q3-d.Q1), 0.05*math.Abs(d.Median))
	lo, hi := d.Q1-reach, d.Q3+reach
	var all []Outlier
	for i, v := range d.Values {
		if v < lo || v > hi {
			all = append(all, Outlier{Rank: ranks[i].Rank, Dir: ranks[i].Dir, Value: v, High: v > hi})
		}
	}
	dist := func(o Outlier) float64 { return math.Abs(o.Value - d.Median) }
	sort.SliceStable(all, func(a, b int) bool {
		if dist(all[a]) != dist(all[b]) {
			return dist(all[a]) > dist(all[b])
		}
		return all[a].Rank < all[b].Rank
	})
	if len(all) > MaxOutliers {
		d.More = len(all) - MaxOutliers
		all = all[:MaxOutliers]
	}
	d.Outliers = all
	return d
}

// Bin returns the histogram bin of value v.
func (d *Dist) Bin(v float64) int {
	if d.Max <= d.Min {
		return 0
	}
	return min(Bins-1, max(0, int(float64(Bins)*(v-d.Min)/(d.Max-d.Min))))
}

// quantile is the q-quantile of sorted values, interpolated linearly
// between the closest ranks (R's and NumPy's default).
func quantile(sorted []float64, q float64) float64 {
	pos := q * float64(len(sorted)-1)
	i := int(pos)
	if i+1 >= len(sorted) {
		return sorted[len(sorted)-1]
	}
	return sorted[i] + (pos-float64(i))*(sorted[i+1]-sorted[i])
}

// OutlierRanks returns the ranks that are an outlier of any of ds, in
// rank order, with the metrics they are one of.
func OutlierRanks(ds []Dist) []RankOutliers {
	by := map[int]*RankOutliers{}
	for i := range ds {
		for _, o := range ds[i].Outliers {
			r := by[o.Rank]
			if r == nil {
				r = &RankOutliers{Rank: o.Rank, Dir: o.Dir}
				by[o.Rank] = r
			}
			r.Of = append(r.Of, MetricOutlier{Dist: &ds[i], Value: o.Value, High: o.High})
		}
	}
	out := make([]RankOutliers, 0, len(by))
	for _, r := range by {
		out = append(out, *r)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Rank < out[b].Rank })
	return out
}

// RankOutliers is a rank and the metrics it is an outlier of.
type RankOutliers struct {
	Rank int
	Dir  string
	Of   []MetricOutlier
}

// A MetricOutlier is a rank's value of a metric it is an outlier of.
type MetricOutlier struct {
	Dist  *Dist
	Value float64
	High  bool
}

// An ExitCount is how many ranks ended one way, and the first few.
type ExitCount struct {
	Exit  string
	Count int
	Ranks []int // the first MaxOutliers of them
}

// Exits counts the ranks of m by how they ended, most first.
func Exits(m *Merged) []ExitCount {
	index := map[string]int{}
	var out []ExitCount
	for _, r := range m.Ranks {
		i, ok := index[r.Exit]
		if !ok {
			i = len(out)
			index[r.Exit] = i
			out = append(out, ExitCount{Exit: r.Exit})
		}
		out[i].Count++
		if len(out[i].Ranks) < MaxOutliers {
			out[i].Ranks = append(out[i].Ranks, r.Rank)
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Count > out[b].Count })
	return out
}
