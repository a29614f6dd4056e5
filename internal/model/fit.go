package model

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/stat/distuv"
)

// A Point is a value of the parameter (a thread count) and what was
// measured there, one value per repetition.
type Point struct {
	T      float64
	Values []float64
}

// Options change how Fit works; the zero value is the default.
type Options struct {
	// Aggregate says how the repetitions at a point become its value
	// and the noise estimate; the default is Robust.
	Aggregate Aggregate
	// Alpha is the significance level at which a trend must stand out
	// of the noise, corrected for the number of hypotheses tried
	// (Bonferroni). Zero means 0.001.
	Alpha float64
	// MinChange is the smallest relative change over the measured range
	// that counts as a trend, however small the noise of repetitions:
	// runs at different thread counts differ in ways that repeating one
	// of them does not show (frequency, placement, wake-up latency).
	MinChange float64
}

// RunOptions are the settings for measured runs, which gopari model
// uses: the mean of the repetitions without outliers, and a smallest
// trend of 10% over the measured range. On a machine that others share,
// runs at one thread count can differ from runs at another by a few
// percent for reasons that repeating them does not show.
var RunOptions = Options{Aggregate: Robust, MinChange: 0.10}

// A Fitted point: the measurements, their aggregate, and the model there.
type Fitted struct {
	T         float64   `json:"t"`
	Values    []float64 `json:"values"`
	Value     float64   `json:"value"`
	Predicted float64   `json:"predicted"`
	// RelErr is (Predicted - Value) / |Value|; where Value is 0, it is
	// the sign of Predicted.
	RelErr float64 `json:"rel_err"`
}

// A Model is the chosen hypothesis with its coefficients and how well it
// fits.
type Model struct {
	Hypothesis
	C0, C1 float64
	// AdjR2 is the adjusted coefficient of determination over the
	// aggregated points; Iwainsky et al. count a model valid from 0.95 on. The
	// constant model explains no variance: 0, or 1 for exactly equal
	// points.
	AdjR2 float64
	// SMAPE is the symmetric mean absolute percentage error of the model
	// at the points, in percent; CVSMAPE that of leave-one-out
	// cross-validation, by which the hypothesis was chosen.
	SMAPE, CVSMAPE float64
	// Noise is the relative standard deviation of one measurement,
	// pooled over the points with repetitions; NaN without repetitions.
	Noise float64
	// WithinNoise is the best trend when it was rejected because its
	// improvement over the constant is within the noise.
	WithinNoise *Hypothesis
	Points      []Fitted
}

// Eval returns the model's value at t.
func (m *Model) Eval(t float64) float64 {
	if m.IsConstant() {
		return m.C0
	}
	return m.C0 + m.C1*m.Term(t)
}

// Class is the growth class of the model: its hypothesis's class, or
// "decreasing" for a term with a negative coefficient.
func (m *Model) Class() string {
	if !m.IsConstant() && m.C1 < 0 {
		return "decreasing"
	}
	return m.Hypothesis.Class()
}

// MinPoints is the fewest distinct parameter values a model needs:
// leaving one out must leave two for the two coefficients.
const MinPoints = 3

// ErrTooFewPoints is returned for fewer than MinPoints distinct values.
var ErrTooFewPoints = errors.New("too few distinct parameter values")

// agg is one point during fitting.
type agg struct {
	t, y float64 // parameter, aggregated value
	w    float64 // weight: repetitions over the squared scale of the value
	n    int
}

// Fit chooses and fits the PMNF model for points. Points with equal T are
// merged; values must be finite and T positive.
func Fit(points []Point, opt Options) (*Model, error) {
	if opt.Alpha == 0 {
		opt.Alpha = 0.001
	}
	fitted, err := mergePoints(points)
	if err != nil {
		return nil, err
	}
	sets := make([][]float64, len(fitted))
	for k, f := range fitted {
		sets[k] = f.Values
	}
	values, noise, dof := opt.Aggregate.summarize(sets)
	for k := range fitted {
		fitted[k].Value = values[k]
	}

	pts := weigh(fitted)
	m := &Model{Points: fitted, Noise: math.NaN()}
	if dof > 0 {
		m.Noise = math.Sqrt(noise)
	}

	// Choose by leave-one-out cross-validation.
	xs := make([][]float64, len(Hypotheses))
	best, bestCV := Constant, math.Inf(1)
	for hi, h := range Hypotheses {
		xs[hi] = terms(pts, h)
		cv, ok := crossValidate(pts, xs[hi])
		if ok && cv < bestCV*(1-1e-9) {
			best, bestCV = h, cv
		}
		if hi == 0 {
			m.CVSMAPE = cv * 100 // the constant's, unless a trend wins
		}
	}
	if !best.IsConstant() && !standsOut(pts, terms(pts, best), m.Noise, noise, dof, opt) {
		h := best
		m.WithinNoise = &h
		best = Constant
	} else {
		m.CVSMAPE = bestCV * 100
	}
	m.Hypothesis = best
	m.C0, m.C1, _ = fitLine(pts, terms(pts, best), -1)
	if best.IsConstant() {
		// The weighted mean leans to the smallest values; a constant
		// summarizes the points best by their plain mean.
		m.C0 = 0
		for _, f := range fitted {
			m.C0 += f.Value / float64(len(fitted))
		}
	}
	m.finish()
	return m, nil
}

// mergePoints checks points and merges those with equal T: the points
// to fit, by T.
func mergePoints(points []Point) ([]Fitted, error) {
	merged := map[float64][]float64{}
	for _, p := range points {
		if !(p.T > 0) || math.IsInf(p.T, 0) {
			return nil, fmt.Errorf("parameter value %v: must be positive", p.T)
		}
		for _, v := range p.Values {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("value %v at %v: not a finite number", v, p.T)
			}
		}
		merged[p.T] = append(merged[p.T], p.Values...)
	}
	var fitted []Fitted
	for t, vs := range merged {
		if len(vs) > 0 {
			vs = append([]float64(nil), vs...)
			fitted = append(fitted, Fitted{T: t, Values: vs})
		}
	}
	if len(fitted) < MinPoints {
		return nil, fmt.Errorf("%w: %d, need %d", ErrTooFewPoints, len(fitted), MinPoints)
	}
	sort.Slice(fitted, func(i, j int) bool { return fitted[i].T < fitted[j].T })
	return fitted, nil
}

// weigh returns the points to fit with their weights.
func weigh(fitted []Fitted) []agg {
	// Noise is relative (a run is a few percent slower, not a few
	// nanoseconds): weigh each point by its repetitions over the square
	// of its value, so that the fit minimizes relative error.
	floor := 0.0
	for _, f := range fitted {
		floor = math.Max(floor, math.Abs(f.Value))
	}
	floor *= 1e-9
	pts := make([]agg, len(fitted))
	for k, f := range fitted {
		s := math.Max(math.Abs(f.Value), floor)
		w := 1.0
		if s > 0 {
			w = float64(len(f.Values)) / (s * s)
		}
		pts[k] = agg{t: f.T, y: f.Value, w: w, n: len(f.Values)}
	}
	return pts
}

// terms returns h's term at each point.
func terms(pts []agg, h Hypothesis) []float64 {
	x := make([]float64, len(pts))
	for k, p := range pts {
		x[k] = h.Term(p.t)
	}
	return x
}

// fitLine fits c0 + c1·x by weighted least squares, leaving out point
// skip (-1: none). It reports false when x does not vary over the points
// used; a constant x (the constant model) fits c0 alone.
func fitLine(pts []agg, x []float64, skip int) (c0, c1 float64, ok bool) {
	var sw, sx, sy float64
	for k, p := range pts {
		if k == skip {
			continue
		}
		sw += p.w
		sx += p.w * x[k]
		sy += p.w * p.y
	}
	xm, ym := sx/sw, sy/sw
	var sxx, sxy, scale float64
	for k, p := range pts {
		if k == skip {
			continue
		}
		dx := x[k] - xm
		sxx += p.w * dx * dx
		sxy += p.w * dx * (p.y - ym)
		scale += p.w * x[k] * x[k]
	}
	if !(sxx > 1e-12*scale) {
		return ym, 0, false
	}
	c1 = sxy / sxx
	return ym - c1*xm, c1, true
}

func smape(pred, y float64) float64 {
	d := math.Abs(pred) + math.Abs(y)
	if d == 0 {
		return 0
	}
	return 2 * math.Abs(pred-y) / d
}

// crossValidate returns the mean SMAPE (a fraction) of predicting each
// point from a fit of the others, for the term values x.
func crossValidate(pts []agg, x []float64) (float64, bool) {
	constant := true
	for _, v := range x {
		constant = constant && v == x[0]
	}
	sum := 0.0
	for k, p := range pts {
		c0, c1, ok := fitLine(pts, x, k)
		if !ok && !constant {
			return 0, false
		}
		sum += smape(c0+c1*x[k], p.y)
	}
	return sum / float64(len(pts)), true
}

// standsOut reports whether the trend h explains the points better than
// the constant by more than the noise: its improvement in weighted
// squared error must be significant (an F test against the pooled
// repetition variance), and the change it predicts over the measured
// range must be larger than two standard deviations of one measurement
// and than opt.MinChange. Without repetitions the noise is unknown, and
// only the last rule holds, as in Extra-P, which has no noise test.
func standsOut(pts []agg, x []float64, relNoise, variance float64, dof int, opt Options) bool {
	c0, c1, _ := fitLine(pts, x, -1)
	k0 := 0.0
	sw := 0.0
	for _, p := range pts {
		k0 += p.w * p.y
		sw += p.w
	}
	k0 /= sw
	var rss0, rss1 float64
	for k, p := range pts {
		d0 := p.y - k0
		d1 := p.y - (c0 + c1*x[k])
		rss0 += p.w * d0 * d0
		rss1 += p.w * d1 * d1
	}
	if rss1 >= rss0 {
		return false
	}
	if dof > 0 && variance > 0 {
		f := (rss0 - rss1) / variance
		p := distuv.F{D1: 1, D2: float64(dof)}.Survival(f) * float64(len(Hypotheses)-1)
		if p >= opt.Alpha {
			return false
		}
	}
	floor := opt.MinChange
	if !math.IsNaN(relNoise) {
		floor = math.Max(floor, 2*relNoise)
	}
	lo, hi := c0+c1*x[0], c0+c1*x[len(x)-1]
	ref := math.Max(math.Abs(lo), math.Abs(hi))
	return ref == 0 || math.Abs(hi-lo)/ref > floor
}

// finish fills in the predictions and the goodness of fit.
func (m *Model) finish() {
	y := make([]float64, len(m.Points))
	pred := make([]float64, len(m.Points))
	for k := range m.Points {
		f := &m.Points[k]
		f.Predicted = m.Eval(f.T)
		f.RelErr = relErr(f.Predicted, f.Value)
		y[k], pred[k] = f.Value, f.Predicted
	}
	nterms := 1
	if m.IsConstant() {
		nterms = 0
	}
	m.SMAPE, m.AdjR2 = goodness(y, pred, nterms)
}

// relErr is (pred - y) / |y|; where y is 0, the sign of pred.
func relErr(pred, y float64) float64 {
	switch {
	case y != 0:
		return (pred - y) / math.Abs(y)
	case pred != 0:
		return math.Copysign(1, pred)
	}
	return 0
}

// goodness returns the SMAPE (in percent) of the predictions pred of the
// values y, and the adjusted coefficient of determination of a model with
// nterms terms beside the constant: 1 for equal values; 0 for the
// constant, which explains no variance, and where no degree of freedom
// is left.
func goodness(y, pred []float64, nterms int) (smapePct, adjR2 float64) {
	n := float64(len(y))
	avg := mean(y)
	var sm, rss, tss float64
	for k := range y {
		rss += (y[k] - pred[k]) * (y[k] - pred[k])
		tss += (y[k] - avg) * (y[k] - avg)
		sm += smape(pred[k], y[k])
	}
	switch {
	case tss == 0:
		adjR2 = 1
	case nterms == 0 || n-float64(nterms)-1 <= 0:
		adjR2 = 0
	default:
		adjR2 = 1 - rss/tss*(n-1)/(n-float64(nterms)-1)
	}
	return sm / n * 100, adjR2
}
