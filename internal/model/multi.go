package model

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"
)

// A MultiPoint is a point in several parameters (thread count and, say,
// problem size) and the measurements there, one per repetition.
type MultiPoint struct {
	X      []float64
	Values []float64
}

// A Factor is one parameter's part of a term: param^i · log2(param)^j.
type Factor struct {
	Param int // index into MultiModel.Params
	Hypothesis
}

// A Term is a coefficient times a product of factors.
type Term struct {
	Coef    float64
	Factors []Factor
}

// MultiFitted is a fitted point in several parameters.
type MultiFitted struct {
	X         []float64 `json:"x"`
	Values    []float64 `json:"values"`
	Value     float64   `json:"value"`
	Predicted float64   `json:"predicted"`
	RelErr    float64   `json:"rel_err"`
}

// A MultiModel is a PMNF model in several parameters, as Extra-P builds
// it: the best single-parameter hypothesis of each parameter, combined
// into c0 + one term per parameter (additive), or c0 + one term that is
// their product (multiplicative), or fewer terms, whichever
// cross-validates best.
type MultiModel struct {
	Params []string
	C0     float64
	Terms  []Term
	// Single holds the hypothesis chosen for each parameter on its own
	// (the constant where it has no effect).
	Single                []Hypothesis
	AdjR2, SMAPE, CVSMAPE float64
	Noise                 float64 // as in Model; NaN without repetitions
	// WithinNoise is true when a trend was found but rejected as within
	// the noise.
	WithinNoise bool
	Points      []MultiFitted
}

// Eval returns the model's value at x.
func (m *MultiModel) Eval(x []float64) float64 {
	v := m.C0
	for _, t := range m.Terms {
		v += t.Coef * termValue(t.Factors, x)
	}
	return v
}

func termValue(fs []Factor, x []float64) float64 {
	v := 1.0
	for _, f := range fs {
		v *= f.Term(x[f.Param])
	}
	return v
}

// Format writes the model readably: "3.1 µs + 420 ns · t^(3/2) · log2(n)".
func (m *MultiModel) Format(unit func(float64) string) string {
	s := unit(m.C0)
	for _, t := range m.Terms {
		op, c := "+", t.Coef
		if c < 0 {
			op, c = "-", -c
		}
		var fs []string
		for _, f := range t.Factors {
			fs = append(fs, f.term(m.Params[f.Param]))
		}
		s += fmt.Sprintf(" %s %s · %s", op, unit(c), strings.Join(fs, " · "))
	}
	return s
}

// IsConstant reports whether the model has no term.
func (m *MultiModel) IsConstant() bool { return len(m.Terms) == 0 }

// Growing reports whether some term grows faster than log in its
// parameters with a positive coefficient.
func (m *MultiModel) growsFast() bool {
	for _, t := range m.Terms {
		if t.Coef <= 0 {
			continue
		}
		for _, f := range t.Factors {
			if f.I.Num != 0 {
				return true
			}
		}
	}
	return false
}

// Verdict judges the model as Model.Verdict does.
func (m *MultiModel) Verdict() string {
	if !m.growsFast() {
		return Scales
	}
	if m.AdjR2 >= ValidR2 {
		return Check
	}
	return Unclear
}

// VerdictText is the verdict in words.
func (m *MultiModel) VerdictText() string {
	switch m.Verdict() {
	case Scales:
		return "scales"
	case Check:
		return "grows faster than log: check"
	}
	return fmt.Sprintf("grows, but no valid model (adj. R² %.2f < %.2f)", m.AdjR2, ValidR2)
}

// FitMulti fits a model in the parameters named by params to points.
// Each parameter must take MinPoints values or more along some line of
// points where the others are fixed.
func FitMulti(params []string, points []MultiPoint, opt Options) (*MultiModel, error) {
	if len(params) == 0 {
		return nil, errors.New("no parameters")
	}
	if opt.Alpha == 0 {
		opt.Alpha = 0.001
	}
	fitted, variance, dof, err := mergeMulti(len(params), points, opt.Aggregate)
	if err != nil {
		return nil, err
	}
	m := &MultiModel{Params: params, Noise: math.NaN(), Points: fitted}
	if dof > 0 {
		m.Noise = math.Sqrt(variance)
	}
	// The hypothesis of each parameter on its own, from the lines of
	// points along it.
	for pi := range params {
		h, err := singleHypothesis(fitted, pi, opt)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", params[pi], err)
		}
		m.Single = append(m.Single, h)
	}
	w := weights(fitted)
	cands := candidates(m.Single)
	best, bestCV := 0, math.Inf(1)
	for ci, c := range cands {
		cv, ok := crossValidateMulti(fitted, w, c)
		if ok && cv < bestCV*(1-1e-9) {
			best, bestCV = ci, cv
		}
	}
	chosen := cands[best]
	if len(chosen) > 0 && !multiStandsOut(fitted, w, chosen, m.Noise, variance, dof, len(cands)-1, opt) {
		m.WithinNoise = true
		chosen = nil
	}
	coef, _ := solveMulti(fitted, w, chosen, -1)
	m.C0 = coef[0]
	for k, fs := range chosen {
		m.Terms = append(m.Terms, Term{Coef: coef[k+1], Factors: fs})
	}
	if len(chosen) == 0 {
		m.C0 = 0
		for _, f := range fitted {
			m.C0 += f.Value / float64(len(fitted))
		}
	}
	cv, _ := crossValidateMulti(fitted, w, chosen)
	m.CVSMAPE = cv * 100
	m.finish(len(chosen))
	return m, nil
}

// mergeMulti checks the points, merges the repetitions of equal points,
// sorts them and aggregates each; it returns them with the pooled
// relative variance of one measurement and its degrees of freedom.
func mergeMulti(nparams int, points []MultiPoint, a Aggregate) ([]MultiFitted, float64, int, error) {
	merged := map[string]*MultiFitted{}
	var keys []string
	for _, p := range points {
		if len(p.X) != nparams {
			return nil, 0, 0, fmt.Errorf("a point has %d coordinates for %d parameters", len(p.X), nparams)
		}
		for _, x := range p.X {
			if !(x > 0) || math.IsInf(x, 0) {
				return nil, 0, 0, fmt.Errorf("parameter value %v: must be positive", x)
			}
		}
		for _, v := range p.Values {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, 0, 0, fmt.Errorf("value %v: not a finite number", v)
			}
		}
		k := fmt.Sprint(p.X)
		if merged[k] == nil {
			merged[k] = &MultiFitted{X: append([]float64(nil), p.X...)}
			keys = append(keys, k)
		}
		merged[k].Values = append(merged[k].Values, p.Values...)
	}
	var fitted []MultiFitted
	for _, k := range keys {
		if f := merged[k]; len(f.Values) > 0 {
			fitted = append(fitted, *f)
		}
	}
	sort.Slice(fitted, func(a, b int) bool {
		for i := 0; i < nparams; i++ {
			if fitted[a].X[i] != fitted[b].X[i] {
				return fitted[a].X[i] < fitted[b].X[i]
			}
		}
		return false
	})
	sets := make([][]float64, len(fitted))
	for k, f := range fitted {
		sets[k] = f.Values
	}
	values, variance, dof := a.summarize(sets)
	for k := range fitted {
		fitted[k].Value = values[k]
	}
	return fitted, variance, dof, nil
}

// candidates are the combinations of the parameters' own hypotheses that
// FitMulti tries: none (the constant), each growing one alone, and with
// two or more, their sum and their product.
func candidates(single []Hypothesis) [][][]Factor {
	var growing []Factor
	for pi, h := range single {
		if !h.IsConstant() {
			growing = append(growing, Factor{pi, h})
		}
	}
	cands := [][][]Factor{{}}
	for _, f := range growing {
		cands = append(cands, [][]Factor{{f}})
	}
	if len(growing) > 1 {
		var all [][]Factor
		for _, f := range growing {
			all = append(all, []Factor{f})
		}
		cands = append(cands, all, [][]Factor{growing})
	}
	return cands
}

// singleHypothesis chooses parameter pi's hypothesis by a vote of the
// lines of points along it (the other parameters fixed), each line's vote
// weighed by how much the values change along it: where the parameter's
// term is small beside the constant, a line says little about its shape.
func singleHypothesis(fitted []MultiFitted, pi int, opt Options) (Hypothesis, error) {
	lines := map[string][]Point{}
	for _, f := range fitted {
		var other []string
		for i, x := range f.X {
			if i != pi {
				other = append(other, strconv.FormatFloat(x, 'g', -1, 64))
			}
		}
		k := strings.Join(other, " ")
		lines[k] = append(lines[k], Point{T: f.X[pi], Values: f.Values})
	}
	votes := map[Hypothesis]float64{}
	seen := false
	for _, pts := range lines {
		if len(pts) < MinPoints {
			continue
		}
		m, err := Fit(pts, opt)
		if err != nil {
			return Hypothesis{}, err
		}
		seen = true
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, f := range m.Points {
			lo, hi = math.Min(lo, f.Value), math.Max(hi, f.Value)
		}
		weight := 0.0
		if hi > 0 {
			weight = (hi - lo) / hi
		}
		votes[m.Hypothesis] += weight + 1e-9
	}
	if !seen {
		return Hypothesis{}, fmt.Errorf("%w along any line of points: need %d values with the other parameters fixed", ErrTooFewPoints, MinPoints)
	}
	best, most := Constant, -1.0
	for _, h := range Hypotheses {
		if votes[h] > most {
			best, most = h, votes[h]
		}
	}
	return best, nil
}

// weights are the repetitions over the squared value, as in Fit.
func weights(fitted []MultiFitted) []float64 {
	floor := 0.0
	for _, f := range fitted {
		floor = math.Max(floor, math.Abs(f.Value))
	}
	floor *= 1e-9
	w := make([]float64, len(fitted))
	for k, f := range fitted {
		s := math.Max(math.Abs(f.Value), floor)
		w[k] = 1
		if s > 0 {
			w[k] = float64(len(f.Values)) / (s * s)
		}
	}
	return w
}

// solveMulti fits c0 + Σ c_k · term_k by weighted least squares (gonum's
// QR), leaving out point skip (-1: none). Columns are scaled to unit
// maximum first, so that t² · log2(t)² beside a constant does not make
// the system look singular.
func solveMulti(fitted []MultiFitted, w []float64, terms [][]Factor, skip int) ([]float64, bool) {
	rows := len(fitted)
	if skip >= 0 {
		rows--
	}
	cols := 1 + len(terms)
	if rows < cols {
		return make([]float64, cols), false
	}
	a := mat.NewDense(rows, cols, nil)
	b := mat.NewDense(rows, 1, nil)
	scale := make([]float64, cols)
	r := 0
	for k, f := range fitted {
		if k == skip {
			continue
		}
		sw := math.Sqrt(w[k])
		a.Set(r, 0, sw)
		for c, fs := range terms {
			a.Set(r, c+1, sw*termValue(fs, f.X))
		}
		b.Set(r, 0, sw*f.Value)
		r++
	}
	for c := 0; c < cols; c++ {
		for i := 0; i < rows; i++ {
			scale[c] = math.Max(scale[c], math.Abs(a.At(i, c)))
		}
		if scale[c] == 0 {
			return make([]float64, cols), false
		}
		for i := 0; i < rows; i++ {
			a.Set(i, c, a.At(i, c)/scale[c])
		}
	}
	var x mat.Dense
	if err := x.Solve(a, b); err != nil {
		return make([]float64, cols), false
	}
	coef := make([]float64, cols)
	for c := range coef {
		coef[c] = x.At(c, 0) / scale[c]
	}
	return coef, true
}

func evalTerms(coef []float64, terms [][]Factor, x []float64) float64 {
	v := coef[0]
	for c, fs := range terms {
		v += coef[c+1] * termValue(fs, x)
	}
	return v
}

// crossValidateMulti is crossValidate for several parameters.
func crossValidateMulti(fitted []MultiFitted, w []float64, terms [][]Factor) (float64, bool) {
	sum := 0.0
	for k, f := range fitted {
		coef, ok := solveMulti(fitted, w, terms, k)
		if !ok {
			return 0, false
		}
		sum += smape(evalTerms(coef, terms, f.X), f.Value)
	}
	return sum / float64(len(fitted)), true
}

// multiStandsOut is standsOut for several parameters: an F test on the
// improvement over the constant with as many degrees of freedom as terms,
// corrected for the tries, and a change over the measured points larger
// than twice the noise and opt.MinChange.
func multiStandsOut(fitted []MultiFitted, w []float64, terms [][]Factor, relNoise, variance float64, dof, tries int, opt Options) bool {
	coef, ok := solveMulti(fitted, w, terms, -1)
	if !ok {
		return false
	}
	k0, sw := 0.0, 0.0
	for k, f := range fitted {
		k0 += w[k] * f.Value
		sw += w[k]
	}
	k0 /= sw
	var rss0, rss1 float64
	lo, hi := math.Inf(1), math.Inf(-1)
	for k, f := range fitted {
		p := evalTerms(coef, terms, f.X)
		rss0 += w[k] * (f.Value - k0) * (f.Value - k0)
		rss1 += w[k] * (f.Value - p) * (f.Value - p)
		lo, hi = math.Min(lo, p), math.Max(hi, p)
	}
	if rss1 >= rss0 {
		return false
	}
	if dof > 0 && variance > 0 {
		d1 := float64(len(terms))
		f := (rss0 - rss1) / d1 / variance
		if (distuv.F{D1: d1, D2: float64(dof)}).Survival(f)*float64(tries) >= opt.Alpha {
			return false
		}
	}
	floor := opt.MinChange
	if !math.IsNaN(relNoise) {
		floor = math.Max(floor, 2*relNoise)
	}
	ref := math.Max(math.Abs(lo), math.Abs(hi))
	return ref == 0 || (hi-lo)/ref > floor
}

func (m *MultiModel) finish(nterms int) {
	y := make([]float64, len(m.Points))
	pred := make([]float64, len(m.Points))
	for k := range m.Points {
		f := &m.Points[k]
		f.Predicted = m.Eval(f.X)
		f.RelErr = relErr(f.Predicted, f.Value)
		y[k], pred[k] = f.Value, f.Predicted
	}
	m.SMAPE, m.AdjR2 = goodness(y, pred, nterms)
}
