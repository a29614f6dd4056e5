package html

import (
	"fmt"
	"html/template"
	"math"
	"strings"

	"gopari/internal/model"
)

type point struct {
	t      float64
	values []float64
	value  float64
}

// points returns the measured points along t (for two parameters, at
// the largest value of the second) and that value.
func points(m *model.JSON) ([]point, float64) {
	var out []point
	if len(m.PointsXY) == 0 {
		for _, p := range m.Points {
			out = append(out, point{p.T, p.Values, p.Value})
		}
		return out, math.NaN()
	}
	pmax := math.Inf(-1)
	for _, p := range m.PointsXY {
		if len(p.X) > 1 {
			pmax = math.Max(pmax, p.X[1])
		}
	}
	for _, p := range m.PointsXY {
		if len(p.X) > 1 && p.X[1] == pmax {
			out = append(out, point{p.X[0], p.Values, p.Value})
		}
	}
	return out, pmax
}

// A chart is one model drawn.
type chart struct {
	Title, Metric, Model, Verdict, Rating, Class string
	AdjR2                                        string
	SVG                                          template.HTML
}

func scalingCharts(ms []model.JSON) []chart {
	var out []chart
	for i := range ms {
		m := &ms[i]
		where := fmt.Sprintf("%s:%d", m.File, m.Line)
		if m.EndLine > m.Line {
			where += fmt.Sprintf("-%d", m.EndLine)
		}
		name := m.Kind
		if m.SubName != "" {
			name += " " + m.SubName
		}
		c := chart{Title: name + " " + where, Metric: m.Metric + " (" + m.Stat + ")", Model: m.Model, Verdict: m.VerdictText, Class: m.Class, AdjR2: "-"}
		if m.Param != "" {
			c.Metric += " " + m.Param
		}
		if m.Class != "constant" {
			c.AdjR2 = fmt.Sprintf("%.3f", m.AdjR2)
		}
		switch m.Verdict {
		case "scales":
			c.Rating = "good"
		case "check":
			c.Rating = "poor"
		default:
			c.Rating = "fair"
		}
		c.SVG = template.HTML(drawChart(m))
		out = append(out, c)
	}
	return out
}

// drawChart draws the measurements (each repetition, and their median or
// mean) and the fitted curve over the measured thread counts.
func drawChart(m *model.JSON) string {
	const w, h, left, right, top, bottom = 320.0, 190.0, 58.0, 10.0, 10.0, 28.0
	pts, pval := points(m)
	if len(pts) == 0 {
		return ""
	}
	tmin, tmax := math.Inf(1), math.Inf(-1)
	ymin, ymax := 0.0, 0.0
	for _, p := range pts {
		tmin, tmax = math.Min(tmin, p.t), math.Max(tmax, p.t)
		for _, v := range append([]float64{p.value}, p.values...) {
			ymin, ymax = math.Min(ymin, v), math.Max(ymax, v)
		}
	}
	const samples = 64
	curve := make([][2]float64, 0, samples+1)
	for k := 0; k <= samples; k++ {
		t := tmin + (tmax-tmin)*float64(k)/samples
		if tmax >= 8*tmin && tmin > 0 { // log-spaced samples for a wide range
			t = tmin * math.Pow(tmax/tmin, float64(k)/samples)
		}
		v := m.At(t, pval)
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			curve = append(curve, [2]float64{t, v})
			ymin, ymax = math.Min(ymin, v), math.Max(ymax, v)
		}
	}
	if ymax <= ymin {
		ymax = ymin + 1
	}
	ymax += (ymax - ymin) * 0.08
	logX := tmax >= 8*tmin && tmin > 0
	sx := func(t float64) float64 {
		f := 0.5
		switch {
		case tmax == tmin:
		case logX:
			f = math.Log(t/tmin) / math.Log(tmax/tmin)
		default:
			f = (t - tmin) / (tmax - tmin)
		}
		return left + f*(w-left-right)
	}
	sy := func(v float64) float64 { return top + (ymax-v)/(ymax-ymin)*(h-top-bottom) }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f">`, w, h, w, h)
	fmt.Fprintf(&b, `<line class="axis" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/>`, left, h-bottom, w-right, h-bottom)
	fmt.Fprintf(&b, `<line class="axis" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/>`, left, top, left, h-bottom)
	for _, v := range []float64{ymin, (ymin + ymax) / 2, ymax} {
		fmt.Fprintf(&b, `<text class="tick" x="%.1f" y="%.1f" text-anchor="end">%s</text>`, left-4, sy(v)+4, esc(dur(v)))
	}
	for _, p := range pts {
		fmt.Fprintf(&b, `<text class="tick" x="%.1f" y="%.1f" text-anchor="middle">%s</text>`, sx(p.t), h-bottom+14, esc(fmt.Sprint(p.t)))
	}
	fmt.Fprintf(&b, `<text class="tick" x="%.1f" y="%.1f" text-anchor="end">threads</text>`, w-right, h-2)
	if len(curve) > 1 {
		b.WriteString(`<polyline class="fit" points="`)
		for _, c := range curve {
			fmt.Fprintf(&b, "%.1f,%.1f ", sx(c[0]), sy(c[1]))
		}
		b.WriteString(`"/>`)
	}
	for _, p := range pts {
		for _, v := range p.values {
			fmt.Fprintf(&b, `<circle class="rep" cx="%.1f" cy="%.1f" r="2"/>`, sx(p.t), sy(v))
		}
		fmt.Fprintf(&b, `<circle class="pt" cx="%.1f" cy="%.1f" r="3.5"><title>t = %s: %s</title></circle>`, sx(p.t), sy(p.value), esc(fmt.Sprint(p.t)), esc(dur(p.value)))
	}
	b.WriteString("</svg>")
	return b.String()
}
