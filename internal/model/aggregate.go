package model

import (
	"math"
	"sort"
)

// An Aggregate says how the repetitions at a point become one value, and
// how their spread gives the noise of one measurement.
type Aggregate int

const (
	// Robust takes the mean and standard deviation of the repetitions
	// that are not outliers (see OutlierMADs). Without an outlier it is
	// the mean, which uses every repetition fully; one disturbed run (on
	// a shared machine, a run that a preemption made slower) is left out.
	Robust Aggregate = iota
	// Mean takes the mean and standard deviation of all repetitions.
	Mean
	// Median takes the median and the median absolute deviation, which
	// one disturbed run cannot move far, but which uses evenly spread
	// noise less well than the mean.
	Median
)

// OutlierMADs is how far from its point's median a repetition may lie
// before Robust leaves it out, in robust standard deviations (the median
// absolute deviation × 1.4826): both its point's own, which five
// repetitions estimate poorly, and the relative one pooled over all
// points. Spreads below minSpread of the median count as minSpread, so
// that repetitions that agree to a fraction of a percent do not make the
// next one an outlier.
const (
	OutlierMADs = 5
	minSpread   = 0.005
	madScale    = 1.4826
)

// String names the aggregate.
func (a Aggregate) String() string {
	switch a {
	case Mean:
		return "mean"
	case Median:
		return "median"
	}
	return "mean without outliers"
}

// summarize aggregates the repetitions of every point: each point's
// value, and the pooled relative variance of one measurement with its
// degrees of freedom (0 without repetitions).
func (a Aggregate) summarize(sets [][]float64) (values []float64, variance float64, dof int) {
	values = make([]float64, len(sets))
	pooled := pooledMAD(sets)
	ss := 0.0
	for k, vs := range sets {
		if a == Median {
			values[k] = median(vs)
		} else {
			if a == Robust {
				vs = withoutOutliers(vs, pooled)
			}
			values[k] = mean(vs)
		}
		center := values[k]
		if len(vs) < 2 || center == 0 {
			continue
		}
		if a == Median {
			dev := make([]float64, len(vs))
			for i, v := range vs {
				dev[i] = math.Abs(v/center - 1)
			}
			s := madScale * median(dev)
			ss += s * s * float64(len(vs)-1)
		} else {
			for _, v := range vs {
				d := v/center - 1
				ss += d * d
			}
		}
		dof += len(vs) - 1
	}
	if dof > 0 {
		variance = ss / float64(dof)
	}
	return values, variance, dof
}

// pooledMAD returns the median relative absolute deviation of the
// repetitions from their point's median, over all points with three
// repetitions or more, as a relative standard deviation; 0 if none has.
func pooledMAD(sets [][]float64) float64 {
	var dev []float64
	for _, vs := range sets {
		med := median(vs)
		if len(vs) < 3 || med == 0 {
			continue
		}
		for _, v := range vs {
			dev = append(dev, math.Abs(v/med-1))
		}
	}
	if len(dev) == 0 {
		return 0
	}
	return madScale * median(dev)
}

// withoutOutliers returns the repetitions that lie within OutlierMADs
// robust standard deviations of their median, by their own spread and by
// the pooled relative spread; all of them if there are fewer than 3.
func withoutOutliers(vs []float64, pooled float64) []float64 {
	if len(vs) < 3 {
		return vs
	}
	med := median(vs)
	dev := make([]float64, len(vs))
	for i, v := range vs {
		dev[i] = math.Abs(v - med)
	}
	scale := math.Max(madScale*median(dev), math.Max(pooled, minSpread)*math.Abs(med))
	var in []float64
	for _, v := range vs {
		if math.Abs(v-med) <= OutlierMADs*scale {
			in = append(in, v)
		}
	}
	return in
}

func mean(vs []float64) float64 {
	s := 0.0
	for _, v := range vs {
		s += v
	}
	return s / float64(len(vs))
}

func median(vs []float64) float64 {
	s := append([]float64(nil), vs...)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
