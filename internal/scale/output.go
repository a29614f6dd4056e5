package scale

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"gopari/internal/atomicfile"
	"gopari/internal/model"
	"gopari/internal/profile"
)

func joinInts(xs []int) string {
	var s []string
	for _, x := range xs {
		s = append(s, strconv.Itoa(x))
	}
	return strings.Join(s, ", ")
}

func metricLabel(s *series) string {
	l := s.metric + " (" + metricInfo[s.metric].stat + ")"
	if s.param != "" {
		l += " " + s.param
	}
	return l
}

func writeModelTable(w io.Writer, runs []*Run, ts []int, fitted []*series, opts Options) {
	reps := map[int]int{}
	for _, r := range runs {
		reps[r.threads]++
	}
	fmt.Fprintf(w, "Scaling models of %s from %d runs at t = %s threads", runs[0].p.Program, len(runs), joinInts(ts))
	if minRep, maxRep := minMax(reps); minRep == maxRep {
		fmt.Fprintf(w, ", %d each\n", minRep)
	} else {
		fmt.Fprintf(w, ", %d to %d each\n", minRep, maxRep)
	}
	fmt.Fprintf(w, "growth: the model at t = %d over the measurement at t = %d", opts.Predict, ts[0])
	if len(fitted) > 0 && fitted[0].mfit != nil {
		vmax := math.Inf(-1)
		for _, p := range fitted[0].mfit.Points {
			vmax = math.Max(vmax, p.X[1])
		}
		fmt.Fprintf(w, ", both at %s = %s", fitted[0].paramName, strconv.FormatFloat(vmax, 'g', -1, 64))
	}
	fmt.Fprintf(w, " (1 for a constant); worst first\n\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "growth\tat t=%d\tat t=%d\tmodel\tadj R²\tnoise\tverdict\tmetric\tregion\n", ts[0], opts.Predict)
	for i, s := range fitted {
		if opts.Top > 0 && i == opts.Top {
			fmt.Fprintf(tw, "(%d more; --top 0 shows them)\t\t\t\t\t\t\t\t\n", len(fitted)-opts.Top)
			break
		}
		growth, r2, noise := "-", "-", "-"
		if s.growth > 0 {
			growth = strconv.FormatFloat(s.growth, 'f', 2, 64)
		}
		if !s.constant() {
			r2 = fmt.Sprintf("%.3f", s.adjR2())
		}
		if n := s.noise(); !math.IsNaN(n) {
			noise = fmt.Sprintf("±%.1f%%", n*100)
		}
		_, verdict := s.verdict()
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s  %s\n", growth, model.Duration(s.base), model.Duration(s.pred),
			s.modelText(), r2, noise, verdict, metricLabel(s), s.region.Where(), s.region.Label())
	}
	tw.Flush()
	fmt.Fprintf(w, "\nmodels are c0 + c1 · t^i · log2(t)^j (Extra-P's performance model normal form), chosen by leave-one-out cross-validation; a trend within the noise of repeated runs counts as constant.\nadj R² ≥ 0.95 makes a model valid; growth faster than log t with a valid model is worth a look.\n")
}

func minMax(m map[int]int) (int, int) {
	lo, hi := math.MaxInt, 0
	for _, v := range m {
		lo, hi = min(lo, v), max(hi, v)
	}
	return lo, hi
}

// writeModelsJSON writes the fitted models as model.JSON.
func writeModelsJSON(w io.Writer, fitted []*series, opts Options) error {
	out := []model.JSON{}
	for _, s := range fitted {
		verdict, text := s.verdict()
		j := model.JSON{
			File: s.region.File, Line: s.region.BeginLine, EndLine: s.region.EndLine,
			Kind: s.region.Kind, Name: s.region.Name, SubName: s.region.SubName,
			Metric: s.metric, Stat: metricInfo[s.metric].stat, Param: s.param, Unit: "ns",
			Model: s.modelText(), AdjR2: s.adjR2(), Verdict: verdict, VerdictText: text,
			PredictT: opts.Predict, Predicted: s.pred, Growth: s.growth,
		}
		if n := s.noise(); !math.IsNaN(n) {
			j.Noise = &n
		}
		if m := s.fit; m != nil {
			j.I, j.IText, j.J, j.C0, j.C1 = m.I.Float(), m.I.String(), m.J, m.C0, m.C1
			j.Class, j.SMAPE, j.CVSMAPE, j.Points = m.Class(), m.SMAPE, m.CVSMAPE, m.Points
			if m.WithinNoise != nil {
				j.WithinNoise = m.WithinNoise.String()
			}
		} else {
			m := s.mfit
			h := m.Single[0]
			j.Param, j.Params = s.paramName, m.Params
			j.I, j.IText, j.J, j.C0 = h.I.Float(), h.I.String(), h.J, m.C0
			j.SMAPE, j.CVSMAPE, j.PointsXY = m.SMAPE, m.CVSMAPE, m.Points
			j.Class = multiClass(m)
			for k, t := range m.Terms {
				if k == 0 {
					j.C1 = t.Coef
				}
				tj := model.JSONTerm{Coef: t.Coef}
				for _, f := range t.Factors {
					tj.Factors = append(tj.Factors, model.JSONFactor{Param: m.Params[f.Param], I: f.I.Float(), IText: f.I.String(), J: f.J})
				}
				j.Terms = append(j.Terms, tj)
			}
		}
		out = append(out, j)
	}
	return model.WriteJSON(w, out)
}

// multiClass is the class of the thread count's part of a model in two
// parameters: that of its own hypothesis, if a term has it.
func multiClass(m *model.MultiModel) string {
	for _, t := range m.Terms {
		for _, f := range t.Factors {
			if f.Param == 0 {
				if t.Coef < 0 {
					return "decreasing"
				}
				return f.Class()
			}
		}
	}
	return "constant"
}

// writeExtraPFile writes every series that has data at every point in
// Extra-P's text format, through a temporary file.
func writeExtraPFile(path string, runs []*Run, all []*series, paramName string) error {
	coords := extraPCoords(runs, paramName)
	params := []string{"t"}
	var points [][]float64
	for _, c := range coords {
		p := []float64{c.t}
		if paramName != "" {
			_, v, _ := strings.Cut(c.param, "=")
			f, _ := strconv.ParseFloat(v, 64)
			p = append(p, f)
		}
		points = append(points, p)
	}
	if paramName != "" {
		params = append(params, paramName)
	}
	out, skipped := extraPSeries(all, coords)
	comment := extraPComment(runs, out, skipped)
	return atomicfile.Write(path, func(w io.Writer) error {
		return model.WriteExtraP(w, comment, params, points, out)
	})
}

// A coord is a point of the measurements: a thread count, and the second
// parameter as NAME=VALUE ("" when there is none).
type coord struct {
	t     float64
	param string
}

// extraPCoords returns the points the runs measured, by parameter value
// and then thread count.
func extraPCoords(runs []*Run, paramName string) []coord {
	seen := map[coord]bool{}
	var coords []coord
	for _, r := range runs {
		c := coord{t: float64(r.threads)}
		if paramName != "" {
			c.param = paramName + "=" + r.params[paramName]
		}
		if !seen[c] {
			seen[c] = true
			coords = append(coords, c)
		}
	}
	sort.Slice(coords, func(i, j int) bool {
		if coords[i].param != coords[j].param {
			return paramLess(coords[i].param, coords[j].param)
		}
		return coords[i].t < coords[j].t
	})
	return coords
}

// extraPSeries returns the Extra-P series of all that have data at every
// point in coords, and how many others it left out. Series of the same
// region and metric at different values of the parameter are one
// Extra-P series.
func extraPSeries(all []*series, coords []coord) ([]model.ExtraPSeries, int) {
	type key struct{ region, metric string }
	merged := map[key]map[coord][]float64{}
	var order []key
	regions := map[string]*profile.Region{}
	for _, s := range all {
		k := key{regionKey(s.region), s.metric}
		regions[k.region] = s.region
		if merged[k] == nil {
			merged[k] = map[coord][]float64{}
			order = append(order, k)
		}
		for t, vs := range s.points {
			merged[k][coord{t, s.param}] = vs
		}
	}
	var out []model.ExtraPSeries
	skipped := 0
	for _, k := range order {
		es := model.ExtraPSeries{Region: extraPRegion(regions[k.region]), Metric: k.metric + "." + metricInfo[k.metric].stat}
		complete := true
		for _, c := range coords {
			es.Values = append(es.Values, merged[k][c])
			complete = complete && len(merged[k][c]) > 0
		}
		if !complete {
			skipped++
			continue
		}
		out = append(out, es)
	}
	return out, skipped
}

// extraPComment is the Extra-P file's comment: the program, and what
// each metric in out is.
func extraPComment(runs []*Run, out []model.ExtraPSeries, skipped int) string {
	comment := fmt.Sprintf("gopari model: %s, %d runs; times in nanoseconds", runs[0].p.Program, len(runs))
	used := map[string]bool{}
	for _, es := range out {
		used[es.Metric] = true
	}
	for _, m := range metricOrder {
		if name := m + "." + metricInfo[m].stat; used[name] {
			who := "the mean over threads"
			if metricInfo[m].stat == "max" {
				who = "the slowest thread"
			}
			comment += fmt.Sprintf("\n%s: %s, %s", name, metricInfo[m].what, who)
		}
	}
	if skipped > 0 {
		comment += fmt.Sprintf("\n%d series without data at every point are left out", skipped)
	}
	return comment
}

// extraPRegion names a region for Extra-P: "file:line kind".
func extraPRegion(r *profile.Region) string {
	return fmt.Sprintf("%s:%d %s", r.File, r.BeginLine, r.Label())
}
