package model

import (
	"bytes"
	"errors"
	"math"
	"testing"
)

// Without noise every hypothesis comes back with its coefficients.
func TestFitExact(t *testing.T) {
	ts := []float64{1, 2, 4, 8, 16}
	for _, h := range Hypotheses {
		var pts []Point
		for _, x := range ts {
			y := 5.0
			if !h.IsConstant() {
				y += 0.25 * h.Term(x)
			}
			pts = append(pts, Point{T: x, Values: []float64{y}})
		}
		m, err := Fit(pts, Options{})
		if err != nil {
			t.Fatal(err)
		}
		c1 := 0.25
		if h.IsConstant() {
			c1 = 0
		}
		if m.Hypothesis != h || math.Abs(m.C0-5) > 1e-9 || math.Abs(m.C1-c1) > 1e-9 || m.SMAPE > 1e-9 {
			t.Errorf("%s: got %s, c0 %v, c1 %v, SMAPE %v", h, m.Hypothesis, m.C0, m.C1, m.SMAPE)
		}
		if !h.IsConstant() && m.AdjR2 < 1-1e-9 {
			t.Errorf("%s: adjusted R² %v", h, m.AdjR2)
		}
	}
}

func TestFitNoise(t *testing.T) {
	// 9 and 11 at every point: each point's sample variance is 2, so the
	// relative standard deviation of one run is sqrt(2)/10.
	pts := []Point{{1, []float64{9, 11}}, {2, []float64{9, 11}}, {4, []float64{9, 11}}}
	m, err := Fit(pts, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := math.Sqrt(2 * 0.01); math.Abs(m.Noise-want) > 1e-12 || !m.IsConstant() || math.Abs(m.C0-10) > 1e-9 {
		t.Errorf("noise %v (want %v), model %s", m.Noise, want, m.Format(Duration))
	}
	// A rise of 1% against 10% noise is no trend; the best trend is named.
	pts = []Point{{1, []float64{9, 11}}, {2, []float64{9.05, 11.05}}, {4, []float64{9.1, 11.1}}, {8, []float64{9.2, 11.2}}}
	m, _ = Fit(pts, Options{})
	if !m.IsConstant() || m.WithinNoise == nil {
		t.Errorf("got %s, within noise %v", m.Format(Duration), m.WithinNoise)
	}
	// Without repetitions the noise is unknown.
	m, _ = Fit([]Point{{1, []float64{1}}, {2, []float64{2}}, {3, []float64{3}}}, Options{})
	if !math.IsNaN(m.Noise) || m.Hypothesis != (Hypothesis{I[6], 0}) {
		t.Errorf("noise %v, model %s", m.Noise, m.Hypothesis)
	}
}

func TestFitErrors(t *testing.T) {
	if _, err := Fit([]Point{{1, []float64{1}}, {2, []float64{2}}, {2, []float64{2}}}, Options{}); !errors.Is(err, ErrTooFewPoints) {
		t.Errorf("two distinct points: %v", err)
	}
	if _, err := Fit([]Point{{1, []float64{1}}, {2, []float64{math.NaN()}}, {3, []float64{2}}}, Options{}); err == nil {
		t.Error("NaN accepted")
	}
	if _, err := Fit([]Point{{0, []float64{1}}, {2, []float64{2}}, {3, []float64{2}}}, Options{}); err == nil {
		t.Error("t = 0 accepted")
	}
}

func TestFormat(t *testing.T) {
	for _, c := range []struct {
		m    Model
		want string
	}{
		{Model{Hypothesis: Hypothesis{Exponent{3, 2}, 0}, C0: 3100, C1: 420}, "3.1 µs + 420 ns · t^(3/2)"},
		{Model{Hypothesis: Hypothesis{Exponent{1, 1}, 1}, C0: 2.5e6, C1: -1.25e9}, "2.5 ms - 1.25 s · t · log2(t)"},
		{Model{Hypothesis: Hypothesis{Exponent{0, 1}, 2}, C0: 0, C1: 12}, "0 s + 12 ns · log2(t)^2"},
		{Model{Hypothesis: Constant, C0: 999.9}, "1000 ns"},
	} {
		if got := c.m.Format(Duration); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
	if v := (&Model{Hypothesis: Hypothesis{Exponent{1, 1}, 0}, C1: 1, AdjR2: 0.99}).VerdictText(); v != "grows faster than log t: check" {
		t.Errorf("verdict %q", v)
	}
	if v := (&Model{Hypothesis: Hypothesis{Exponent{0, 1}, 1}, C1: 1, AdjR2: 0.5}).Verdict(); v != Scales {
		t.Errorf("log verdict %q", v)
	}
	if v := (&Model{Hypothesis: Hypothesis{Exponent{2, 1}, 0}, C1: 1, AdjR2: 0.5}).Verdict(); v != Unclear {
		t.Errorf("invalid model's verdict %q", v)
	}
}

func TestWriteExtraP(t *testing.T) {
	var b bytes.Buffer
	err := WriteExtraP(&b, "made by a test", []string{"t"}, [][]float64{{1}, {2}},
		[]ExtraPSeries{
			{Region: "a.c:1 parallel", Metric: "construct.max", Values: [][]float64{{1e21, 0.5}, {3}}},
			{Region: "a.c:1 parallel", Metric: "body.max", Values: [][]float64{{1}, {2}}},
			{Region: "a ->\nb", Metric: "x", Values: [][]float64{{1}, {2}}},
		})
	if err != nil {
		t.Fatal(err)
	}
	want := `# made by a test
PARAMETER t
POINTS (1) (2)

REGION a.c:1 parallel
METRIC construct.max
DATA 1000000000000000000000 0.5
DATA 3
METRIC body.max
DATA 1
DATA 2

REGION a - b
METRIC x
DATA 1
DATA 2
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	if err := WriteExtraP(&b, "", []string{"t"}, [][]float64{{1}, {2}}, []ExtraPSeries{{Region: "r", Metric: "m", Values: [][]float64{{1}}}}); err == nil {
		t.Error("a missing point was accepted")
	}
}
