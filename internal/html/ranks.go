package html

import (
	"fmt"
	"math"
	"strings"

	"gopari/internal/job"
)

// Past job.SummariseAbove ranks the page shows the ranks as
// distributions (job.Distributions, which the text report prints too):
// per metric its minimum, quartiles and maximum, a histogram of the
// ranks and the outlier ranks by name; each region's time per rank as a
// histogram too, not a bar per rank. A page of 4,096 rows and 4,096
// bars per region was 4.2 MB.

// A distRow is one metric over the ranks.
type distRow struct {
	Name                     string
	Min, Q1, Median, Q3, Max string
	Hist                     []histBar
	Outliers                 []string // "rank 17: 6.1 ms"
	More                     int
}

// A histBar is a bin of a histogram of ranks.
type histBar struct {
	Pct   float64 // of the fullest bin
	Title string
}

// An outlierRow is an outlier rank and what it is an outlier of.
type outlierRow struct {
	Rank int
	Dir  string
	Of   string
}

// distText prints a value of d in its unit.
func distText(d *job.Dist, v float64) string {
	switch d.Unit {
	case "ns":
		return dur(v)
	case "share":
		return fmt.Sprintf("%.1f%%", 100*v)
	}
	return fmt.Sprintf("%.0f", v)
}

// histBars draws d's histogram: a bar per bin, its height the share of
// the fullest bin on a log scale (one outlier among 4,096 ranks still
// shows), its title the ranks in it and their range.
func histBars(d *job.Dist) []histBar {
	most := 0
	for _, n := range d.Hist {
		most = max(most, n)
	}
	out := make([]histBar, len(d.Hist))
	width := (d.Max - d.Min) / float64(len(d.Hist))
	for i, n := range d.Hist {
		lo, hi := d.Min+float64(i)*width, d.Min+float64(i+1)*width
		out[i] = histBar{Pct: math.Round(1000*math.Log1p(float64(n))/math.Log1p(float64(max(most, 1)))) / 10,
			Title: fmt.Sprintf("%d rank(s) from %s to %s", n, distText(d, lo), distText(d, hi))}
	}
	return out
}

// rankDists fills in the ranks' distributions and outliers of the page
// of job m.
func (v *jobView) rankDists(m *job.Merged) {
	ds := job.Distributions(m)
	for i := range ds {
		d := &ds[i]
		row := distRow{Name: d.Name, Min: distText(d, d.Min), Q1: distText(d, d.Q1), Median: distText(d, d.Median),
			Q3: distText(d, d.Q3), Max: distText(d, d.Max), Hist: histBars(d), More: d.More}
		for _, o := range d.Outliers {
			row.Outliers = append(row.Outliers, fmt.Sprintf("rank %d: %s", o.Rank, distText(d, o.Value)))
		}
		v.Dists = append(v.Dists, row)
	}
	for _, r := range job.OutlierRanks(ds) {
		var of []string
		for _, o := range r.Of {
			of = append(of, fmt.Sprintf("%s %s (median %s)", o.Dist.Name, distText(o.Dist, o.Value), distText(o.Dist, o.Dist.Median)))
		}
		v.Outliers = append(v.Outliers, outlierRow{Rank: r.Rank, Dir: r.Dir, Of: strings.Join(of, ", ")})
	}
	var exits []string
	for _, e := range job.Exits(m) {
		exits = append(exits, fmt.Sprintf("%d %s", e.Count, e.Exit))
	}
	v.Exits = strings.Join(exits, ", ")
}

// regionHist is the histogram of a region's inclusive time over the
// ranks.
func regionHist(r *job.MergedRegion, ranks []job.RankSummary) []histBar {
	values := make([]float64, len(r.PerRank))
	for i, on := range r.PerRank {
		values[i] = float64(on.InclNs)
	}
	d := job.DistOf("time", "ns", values, ranks)
	return histBars(&d)
}
