package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

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

func writeModelTable(w io.Writer, runs []*profRun, ts []int, fitted []*series, opts modelOpts) {
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
	fmt.Fprintf(w, "growth: the model at t = %d over the measurement at t = %d", opts.predict, ts[0])
	if len(fitted) > 0 && fitted[0].mfit != nil {
		vmax := math.Inf(-1)
		for _, p := range fitted[0].mfit.Points {
			vmax = math.Max(vmax, p.X[1])
		}
		fmt.Fprintf(w, ", both at %s = %s", fitted[0].paramName, strconv.FormatFloat(vmax, 'g', -1, 64))
	}
	fmt.Fprintf(w, " (1 for a constant); worst first\n\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "growth\tat t=%d\tat t=%d\tmodel\tadj R²\tnoise\tverdict\tmetric\tregion\n", ts[0], opts.predict)
	for i, s := range fitted {
		if opts.top > 0 && i == opts.top {
			fmt.Fprintf(tw, "(%d more; --top 0 shows them)\t\t\t\t\t\t\t\t\n", len(fitted)-opts.top)
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
			s.modelText(), r2, noise, verdict, metricLabel(s), where(s.region), label(s.region))
	}
	tw.Flush()
	fmt.Fprintf(w, "\nmodels are c0 + c1 · t^i · log2(t)^j (seed 004), chosen by leave-one-out cross-validation; a trend within the noise of repeated runs counts as constant.\nadj R² ≥ 0.95 makes a model valid; growth faster than log t with a valid model is worth a look.\n")
}

func minMax(m map[int]int) (int, int) {
	lo, hi := math.MaxInt, 0
	for _, v := range m {
		lo, hi = min(lo, v), max(hi, v)
	}
	return lo, hi
}

// modelJSON is one model in gopari model --json; README documents it.
type modelJSON struct {
	File        string         `json:"file"`
	Line        int            `json:"line"`
	EndLine     int            `json:"end_line"`
	Kind        string         `json:"kind"`
	Name        string         `json:"name"`
	SubName     string         `json:"sub_name,omitempty"`
	Metric      string         `json:"metric"`
	Stat        string         `json:"stat"`
	Param       string         `json:"param,omitempty"`
	Unit        string         `json:"unit"`
	I           float64        `json:"i"`
	IText       string         `json:"i_text"`
	J           int            `json:"j"`
	C0          float64        `json:"c0"`
	C1          float64        `json:"c1"`
	Model       string         `json:"model"`
	Class       string         `json:"class"`
	AdjR2       float64        `json:"adj_r2"`
	SMAPE       float64        `json:"smape"`
	CVSMAPE     float64        `json:"cv_smape"`
	Noise       *float64       `json:"noise"`
	WithinNoise string         `json:"within_noise,omitempty"`
	Verdict     string         `json:"verdict"`
	VerdictText string         `json:"verdict_text"`
	PredictT    int            `json:"predict_t"`
	Predicted   float64        `json:"predicted"`
	Growth      float64        `json:"growth"`
	Points      []model.Fitted `json:"points"`
	// A model in the thread count and a second parameter: the parameters
	// ("t" and the other), every term, and the points with both
	// coordinates. i, j are then the thread count's own hypothesis and c1
	// the first term's coefficient.
	Params   []string            `json:"params,omitempty"`
	Terms    []termJSON          `json:"terms,omitempty"`
	PointsXY []model.MultiFitted `json:"points_xy,omitempty"`
}

type termJSON struct {
	Coef    float64      `json:"coefficient"`
	Factors []factorJSON `json:"factors"`
}

type factorJSON struct {
	Param string  `json:"param"`
	I     float64 `json:"i"`
	IText string  `json:"i_text"`
	J     int     `json:"j"`
}

func writeModelsJSON(w io.Writer, fitted []*series, opts modelOpts) error {
	out := []modelJSON{}
	for _, s := range fitted {
		verdict, text := s.verdict()
		j := modelJSON{
			File: s.region.File, Line: s.region.BeginLine, EndLine: s.region.EndLine,
			Kind: s.region.Kind, Name: s.region.Name, SubName: s.region.SubName,
			Metric: s.metric, Stat: metricInfo[s.metric].stat, Param: s.param, Unit: "ns",
			Model: s.modelText(), AdjR2: s.adjR2(), Verdict: verdict, VerdictText: text,
			PredictT: opts.predict, Predicted: s.pred, Growth: s.growth,
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
				tj := termJSON{Coef: t.Coef}
				for _, f := range t.Factors {
					tj.Factors = append(tj.Factors, factorJSON{Param: m.Params[f.Param], I: f.I.Float(), IText: f.I.String(), J: f.J})
				}
				j.Terms = append(j.Terms, tj)
			}
		}
		out = append(out, j)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(out)
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
func writeExtraPFile(path string, runs []*profRun, all []*series, paramName string) error {
	params := []string{"t"}
	type coord struct {
		t     float64
		param string
	}
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
	// Series of the same region and metric at different values of the
	// parameter are one Extra-P series.
	type key struct{ region, metric string }
	merged := map[key]map[coord][]float64{}
	var order []key
	for _, s := range all {
		k := key{regionKey(s.region), s.metric}
		if merged[k] == nil {
			merged[k] = map[coord][]float64{}
			order = append(order, k)
		}
		for t, vs := range s.points {
			merged[k][coord{t, s.param}] = vs
		}
	}
	regions := map[string]*profile.Region{}
	for _, s := range all {
		regions[regionKey(s.region)] = s.region
	}
	var out []model.ExtraPSeries
	skipped := 0
	for _, k := range order {
		es := model.ExtraPSeries{Region: extraPRegion(regions[k.region]), Metric: k.metric + "." + metricInfo[k.metric].stat}
		for _, c := range coords {
			es.Values = append(es.Values, merged[k][c])
		}
		complete := true
		for _, vs := range es.Values {
			complete = complete && len(vs) > 0
		}
		if !complete {
			skipped++
			continue
		}
		out = append(out, es)
	}
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
	return writeAtomic(path, func(w io.Writer) error {
		return model.WriteExtraP(w, comment, params, points, out)
	})
}

// extraPRegion names a region for Extra-P: "file:line kind".
func extraPRegion(r *profile.Region) string {
	return fmt.Sprintf("%s:%d %s", r.File, r.BeginLine, label(r))
}
