package model

import (
	"fmt"
	"math"
	"strings"
)

// Verdicts, as tokens for scripts; VerdictText explains them.
const (
	// Scales: constant, logarithmic or decreasing.
	Scales = "scales"
	// Check: a valid model (adjusted R² ≥ ValidR2) that grows faster
	// than log t.
	Check = "check"
	// Unclear: growth faster than log t, but no valid model.
	Unclear = "unclear"
)

// ValidR2 is the adjusted R² from which Iwainsky et al. count a model as a
// valid description of the measurements.
const ValidR2 = 0.95

// Verdict judges the model as Iwainsky et al. do: anything clearly worse than
// logarithmic growth is a scaling problem, if the model is valid.
func (m *Model) Verdict() string {
	switch m.Class() {
	case "constant", "logarithmic", "decreasing":
		return Scales
	}
	if m.AdjR2 >= ValidR2 {
		return Check
	}
	return Unclear
}

// VerdictText is the verdict in words.
func (m *Model) VerdictText() string {
	switch m.Verdict() {
	case Scales:
		switch m.Class() {
		case "logarithmic":
			return "scales (log t)"
		case "decreasing":
			return "scales (decreases)"
		}
		return "scales"
	case Check:
		return "grows faster than log t: check"
	}
	return fmt.Sprintf("grows, but no valid model (adj. R² %.2f < %.2f)", m.AdjR2, ValidR2)
}

// Format writes the model readably, each coefficient through unit:
// "3.1 µs + 420 ns · t^(3/2)".
func (m *Model) Format(unit func(float64) string) string {
	s := unit(m.C0)
	if m.IsConstant() {
		return s
	}
	op, c1 := "+", m.C1
	if c1 < 0 {
		op, c1 = "-", -c1
	}
	return fmt.Sprintf("%s %s %s · %s", s, op, unit(c1), m.Hypothesis)
}

// Duration writes nanoseconds with a unit and three significant digits.
func Duration(ns float64) string {
	a := math.Abs(ns)
	switch {
	case a == 0:
		return "0 s"
	case a < 1e3:
		return sig3(ns) + " ns"
	case a < 1e6:
		return sig3(ns/1e3) + " µs"
	case a < 1e9:
		return sig3(ns/1e6) + " ms"
	}
	return sig3(ns/1e9) + " s"
}

// sig3 writes x with three significant digits and no exponent.
func sig3(x float64) string {
	a := math.Abs(x)
	prec := 0
	switch {
	case a < 1:
		prec = 3
	case a < 10:
		prec = 2
	case a < 100:
		prec = 1
	}
	s := fmt.Sprintf("%.*f", prec, x)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}
