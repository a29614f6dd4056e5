package scale

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"gopari/internal/model"
	"gopari/internal/profile"
)

// The metrics of a region, each with the statistic over threads that
// matters: the slowest thread for the time a construct takes, the mean
// for time spent waiting.
var metricInfo = map[string]struct{ stat, what string }{
	"construct":   {"max", "time per visit of the construct"},
	"body":        {"max", "time per visit of the body"},
	"barrier":     {"mean", "wait per visit in the implicit barrier"},
	"wait":        {"mean", "wait per visit at the end (taskgroup)"},
	"exclusive":   {"max", "exclusive time per run"},
	"task_create": {"mean", "creation time per task"},
	"task_exec":   {"mean", "execution time per task"},
	"lock_wait":   {"mean", "lock wait per acquisition"},
}

var metricOrder = []string{"construct", "body", "barrier", "wait", "exclusive", "task_create", "task_exec", "lock_wait"}

// A series is one metric of one region over the runs: in the thread
// count (points), for one value of a second parameter (param), or in the
// thread count and that parameter together (multi).
type series struct {
	region *profile.Region // from the first run
	metric string
	param  string // "NAME=VALUE" of the second parameter, or ""
	points map[float64][]float64
	fit    *model.Model

	paramName string
	multi     map[[2]float64][]float64 // by thread count and parameter value
	mfit      *model.MultiModel

	growth float64 // predicted at --predict over measured at the smallest t; 1 for a constant
	pred   float64
	base   float64 // measured at the smallest t (and largest parameter value)
}

func (s *series) modelText() string {
	if s.mfit != nil {
		return s.mfit.Format(model.Duration)
	}
	return s.fit.Format(model.Duration)
}

func (s *series) constant() bool {
	if s.mfit != nil {
		return s.mfit.IsConstant()
	}
	return s.fit.IsConstant()
}

func (s *series) adjR2() float64 {
	if s.mfit != nil {
		return s.mfit.AdjR2
	}
	return s.fit.AdjR2
}

func (s *series) noise() float64 {
	if s.mfit != nil {
		return s.mfit.Noise
	}
	return s.fit.Noise
}

func (s *series) verdict() (string, string) {
	if s.mfit != nil {
		return s.mfit.Verdict(), s.mfit.VerdictText()
	}
	return s.fit.Verdict(), s.fit.VerdictText()
}

// metrics computes the metrics of every region in one profile, keyed by
// region key and metric name.
func metrics(p *profile.Profile) map[[2]string]float64 {
	type acc struct {
		max, sum float64
		n        int
	}
	per := map[[2]string]*acc{}
	add := func(r *profile.Region, metric string, v float64) {
		k := [2]string{regionKey(r), metric}
		a := per[k]
		if a == nil {
			a = &acc{max: math.Inf(-1)}
			per[k] = a
		}
		a.max = math.Max(a.max, v)
		a.sum += v
		a.n++
	}
	lockWait := map[string][2]float64{}
	for _, s := range p.Stats {
		r := p.Region(s.Region)
		if r == nil {
			continue
		}
		phases := []struct {
			name string
			ph   *profile.Phase
		}{{"construct", s.Construct}, {"body", s.Body}, {"barrier", s.Barrier}, {"wait", s.Wait}}
		for _, ph := range phases {
			if ph.ph != nil && ph.ph.Visits > 0 {
				add(r, ph.name, float64(ph.ph.InclNs)/float64(ph.ph.Visits))
			}
		}
		if r.Kind != "task" && r.Kind != "taskloop" {
			ph := s.Construct
			if r.Kind == "parallel" {
				ph = s.Body
			}
			excl, seen := 0.0, false
			if ph != nil {
				excl, seen = ph.ExclEstimateNs(), true // scaled to all visits where timing was sampled
			}
			if s.Barrier != nil {
				excl, seen = excl+float64(s.Barrier.ExclNs), true
			}
			if seen {
				add(r, "exclusive", excl)
			}
		}
		if s.LockAcquired > 0 {
			lw := lockWait[regionKey(r)]
			lockWait[regionKey(r)] = [2]float64{lw[0] + float64(s.LockWaitNs), lw[1] + float64(s.LockAcquired)}
		}
	}
	out := map[[2]string]float64{}
	for k, a := range per {
		if metricInfo[k[1]].stat == "max" {
			out[k] = a.max
		} else {
			out[k] = a.sum / float64(a.n)
		}
	}
	for k, lw := range lockWait {
		out[[2]string{k, "lock_wait"}] = lw[0] / lw[1]
	}
	for _, t := range p.Tasks {
		r := p.Region(t.Region)
		if r == nil {
			continue
		}
		if t.Create.Timed > 0 {
			out[[2]string{regionKey(r), "task_create"}] = t.Create.MeanNs()
		}
		if t.Exec.Timed > 0 {
			out[[2]string{regionKey(r), "task_exec"}] = t.Exec.MeanNs()
		}
	}
	return out
}

// collectSeries gathers the metrics of all runs into series, one per
// region, metric and value of the second parameter.
func collectSeries(runs []*Run, opts Options) ([]*series, string, error) {
	// The second parameter: recorded by the run, or given as --param.
	paramName := ""
	for _, r := range runs {
		for k, v := range opts.Params {
			if _, ok := r.params[k]; !ok {
				r.params[k] = v
			}
		}
		for k := range r.params {
			if paramName != "" && k != paramName {
				return nil, "", fmt.Errorf("runs vary in two parameters besides the thread count (%s and %s)", paramName, k)
			}
			paramName = k
		}
	}
	regions := map[string]*profile.Region{}
	for i := range runs[0].p.Regions {
		regions[regionKey(&runs[0].p.Regions[i])] = &runs[0].p.Regions[i]
	}
	byKey := map[[3]string]*series{}
	for _, r := range runs {
		param := ""
		if paramName != "" {
			v, ok := r.params[paramName]
			if !ok {
				return nil, "", fmt.Errorf("%s: no value for %s; give it with --param %s=VALUE", r.path, paramName, paramName)
			}
			param = paramName + "=" + v
		}
		for k, v := range metrics(r.p) {
			key := [3]string{k[0], k[1], param}
			s := byKey[key]
			if s == nil {
				s = &series{region: regions[k[0]], metric: k[1], param: param, points: map[float64][]float64{}}
				byKey[key] = s
			}
			s.points[float64(r.threads)] = append(s.points[float64(r.threads)], v)
		}
	}
	var out []*series
	for _, s := range byKey {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return seriesLess(out[i], out[j]) })
	return out, paramName, nil
}

func metricIndex(m string) int {
	for i, n := range metricOrder {
		if n == m {
			return i
		}
	}
	return len(metricOrder)
}

// seriesLess orders series by region (file, line), metric and parameter.
func seriesLess(a, b *series) bool {
	if a.region.File != b.region.File {
		return a.region.File < b.region.File
	}
	if a.region.BeginLine != b.region.BeginLine {
		return a.region.BeginLine < b.region.BeginLine
	}
	if ka, kb := regionKey(a.region), regionKey(b.region); ka != kb {
		return ka < kb
	}
	if a.metric != b.metric {
		return metricIndex(a.metric) < metricIndex(b.metric)
	}
	return paramLess(a.param, b.param)
}

// paramLess orders "n=VALUE" by the value.
func paramLess(a, b string) bool {
	_, va, _ := strings.Cut(a, "=")
	_, vb, _ := strings.Cut(b, "=")
	fa, _ := strconv.ParseFloat(va, 64)
	fb, _ := strconv.ParseFloat(vb, 64)
	if fa != fb {
		return fa < fb
	}
	return a < b
}

// threadCounts returns the distinct thread counts of the runs.
func threadCounts(runs []*Run) []int {
	seen := map[int]bool{}
	var ts []int
	for _, r := range runs {
		if !seen[r.threads] {
			seen[r.threads] = true
			ts = append(ts, r.threads)
		}
	}
	sort.Ints(ts)
	return ts
}

// fitAll fits every series that has enough thread counts (and values of
// the second parameter) and is not all zero; it returns those fitted,
// worst scaling first.
func fitAll(all []*series, opts Options) ([]*series, error) {
	var out []*series
	mopts := model.RunOptions
	if opts.Mean {
		mopts.Aggregate = model.Mean
	}
	for _, s := range all {
		if allZero(s) {
			continue
		}
		var err error
		if s.multi != nil {
			err = fitMulti(s, opts, mopts)
		} else {
			err = fitSingle(s, opts, mopts)
		}
		if errors.Is(err, model.ErrTooFewPoints) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("%s %s %s: %v", s.region.Where(), s.region.Label(), s.metric, err)
		}
		// A constant does not grow, however its measurement at the
		// smallest count strayed from it.
		switch {
		case s.constant():
			s.growth = 1
		case s.base > 0 && s.pred > 0:
			s.growth = s.pred / s.base
		default:
			s.growth = 0
		}
		out = append(out, s)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].growth > out[j].growth })
	return out, nil
}

func fitSingle(s *series, opts Options, mopts model.Options) error {
	var pts []model.Point
	for t, vs := range s.points {
		pts = append(pts, model.Point{T: t, Values: vs})
	}
	m, err := model.Fit(pts, mopts)
	if err != nil {
		return err
	}
	s.fit = m
	s.pred = m.Eval(float64(opts.Predict))
	s.base = m.Points[0].Value
	return nil
}

// fitMulti fits a model in the thread count and the second parameter;
// growth compares the prediction at --predict threads with the
// measurement at the smallest count, both at the largest value of the
// parameter.
func fitMulti(s *series, opts Options, mopts model.Options) error {
	var pts []model.MultiPoint
	for x, vs := range s.multi {
		pts = append(pts, model.MultiPoint{X: []float64{x[0], x[1]}, Values: vs})
	}
	m, err := model.FitMulti([]string{"t", s.paramName}, pts, mopts)
	if err != nil {
		return err
	}
	s.mfit = m
	tmin, vmax := math.Inf(1), math.Inf(-1)
	for _, p := range m.Points {
		tmin, vmax = math.Min(tmin, p.X[0]), math.Max(vmax, p.X[1])
	}
	for _, p := range m.Points {
		if p.X[0] == tmin && p.X[1] == vmax {
			s.base = p.Value
		}
	}
	s.pred = m.Eval([]float64{float64(opts.Predict), vmax})
	return nil
}

// multiSeries joins the series of each region and metric over the values
// of the second parameter, where it takes enough values for a model in
// both.
func multiSeries(all []*series, paramName string) []*series {
	values := map[string]bool{}
	for _, s := range all {
		values[s.param] = true
	}
	if paramName == "" || len(values) < model.MinPoints {
		return all
	}
	byKey := map[[2]string]*series{}
	var out []*series
	for _, s := range all {
		k := [2]string{regionKey(s.region), s.metric}
		m := byKey[k]
		if m == nil {
			m = &series{region: s.region, metric: s.metric, paramName: paramName, multi: map[[2]float64][]float64{}}
			byKey[k] = m
			out = append(out, m)
		}
		_, v, _ := strings.Cut(s.param, "=")
		pv, _ := strconv.ParseFloat(v, 64)
		for t, vs := range s.points {
			m.multi[[2]float64{t, pv}] = vs
		}
	}
	return out
}

func allZero(s *series) bool {
	for _, vs := range s.points {
		for _, v := range vs {
			if v != 0 {
				return false
			}
		}
	}
	for _, vs := range s.multi {
		for _, v := range vs {
			if v != 0 {
				return false
			}
		}
	}
	return true
}
