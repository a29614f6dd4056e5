// Package model fits scaling models in the performance model normal form
// (PMNF) of Calotoiu et al., as Iwainsky et al. ("How Many Threads will
// be too Many?", Euro-Par 2015) use it for OpenMP constructs:
//
//	f(t) = c0 + c1 · t^i · log2(t)^j
//
// with one term plus a constant, i from I = {0, 1/4, 1/3, 1/2, 2/3, 3/4,
// 1, 5/4, 4/3, 3/2, 5/3, 7/4, 2} and j from J = {0, 1, 2}. Each hypothesis
// (i, j) gets its coefficients by least squares; leave-one-out
// cross-validation (SMAPE) chooses among them; and repetitions at a
// point estimate the noise, so that a trend no larger than the noise is
// reported as a constant.
//
// The package knows nothing about profiles: it fits numbers.
package model

import (
	"fmt"
	"math"
	"strconv"
)

// An Exponent is the polynomial exponent i of a term, a fraction.
type Exponent struct{ Num, Den int }

// Float returns the exponent as a number.
func (e Exponent) Float() float64 { return float64(e.Num) / float64(e.Den) }

// String writes the exponent as Extra-P and Iwainsky et al. do: 0, 1, 2, 3/2.
func (e Exponent) String() string {
	if e.Den == 1 {
		return strconv.Itoa(e.Num)
	}
	return fmt.Sprintf("%d/%d", e.Num, e.Den)
}

// MarshalText writes the exponent as its String.
func (e Exponent) MarshalText() ([]byte, error) { return []byte(e.String()), nil }

// I is Iwainsky et al.'s set of polynomial exponents, in increasing order.
var I = []Exponent{{0, 1}, {1, 4}, {1, 3}, {1, 2}, {2, 3}, {3, 4}, {1, 1}, {5, 4}, {4, 3}, {3, 2}, {5, 3}, {7, 4}, {2, 1}}

// J is Iwainsky et al.'s set of logarithm exponents.
var J = []int{0, 1, 2}

// A Hypothesis is the shape of the term: t^I · log2(t)^J. The hypothesis
// (0, 0) is the constant model.
type Hypothesis struct {
	I Exponent
	J int
}

// Constant is the constant model, the hypothesis (0, 0).
var Constant = Hypothesis{I: Exponent{0, 1}}

// Hypotheses is I × J, constant first, then by i and j.
var Hypotheses = func() []Hypothesis {
	var hs []Hypothesis
	for _, i := range I {
		for _, j := range J {
			hs = append(hs, Hypothesis{i, j})
		}
	}
	return hs
}()

// IsConstant reports whether h is the constant model.
func (h Hypothesis) IsConstant() bool { return h.I.Num == 0 && h.J == 0 }

// Term returns t^i · log2(t)^j.
func (h Hypothesis) Term(t float64) float64 {
	v := 1.0
	if h.I.Num != 0 {
		v = math.Pow(t, h.I.Float())
	}
	if h.J > 0 {
		l := math.Log2(t)
		for k := 0; k < h.J; k++ {
			v *= l
		}
	}
	return v
}

// String writes the term: 1, t, t^(3/2), log2(t)^2, t · log2(t).
func (h Hypothesis) String() string { return h.term("t") }

func (h Hypothesis) term(p string) string {
	s := ""
	switch {
	case h.I.Num == 0:
	case h.I.Den == 1 && h.I.Num == 1:
		s = p
	case h.I.Den == 1:
		s = fmt.Sprintf("%s^%d", p, h.I.Num)
	default:
		s = fmt.Sprintf("%s^(%s)", p, h.I)
	}
	if h.J > 0 {
		l := "log2(" + p + ")"
		if h.J > 1 {
			l += "^" + strconv.Itoa(h.J)
		}
		if s != "" {
			s += " · "
		}
		s += l
	}
	if s == "" {
		s = "1"
	}
	return s
}

// Class names how fast the term grows: constant, logarithmic, sublinear
// (t^i with i < 1), linear (exactly t), or superlinear (t^i · log2(t)^j
// growing faster than t).
func (h Hypothesis) Class() string {
	switch {
	case h.IsConstant():
		return "constant"
	case h.I.Num == 0:
		return "logarithmic"
	case h.I.Float() < 1:
		return "sublinear"
	case h.I.Float() == 1 && h.J == 0:
		return "linear"
	}
	return "superlinear"
}
