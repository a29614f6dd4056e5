package model

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// An ExtraPSeries is what Extra-P calls the measurements of one metric in
// one region (callpath): the repetitions at each point.
type ExtraPSeries struct {
	Region, Metric string
	Values         [][]float64 // per point, in the order of the points
}

// WriteExtraP writes measurements in Extra-P's text input format: the
// PARAMETER names, the POINTS (one coordinate per parameter), then for
// each region its METRIC sections with one DATA line of repetitions per
// point. Numbers are written in plain decimal notation, which that
// format's grammar asks for, and read back exactly. Names lose line
// breaks and the callpath separator "->".
func WriteExtraP(w io.Writer, comment string, params []string, points [][]float64, series []ExtraPSeries) error {
	bw := bufio.NewWriter(w)
	for _, line := range strings.Split(comment, "\n") {
		if line != "" {
			fmt.Fprintf(bw, "# %s\n", line)
		}
	}
	fmt.Fprintf(bw, "PARAMETER %s\n", strings.Join(params, " "))
	bw.WriteString("POINTS")
	for _, p := range points {
		if len(p) != len(params) {
			return fmt.Errorf("extra-p: a point has %d coordinates for %d parameters", len(p), len(params))
		}
		var cs []string
		for _, c := range p {
			cs = append(cs, number(c))
		}
		fmt.Fprintf(bw, " (%s)", strings.Join(cs, " "))
	}
	bw.WriteString("\n")
	last := ""
	for _, s := range series {
		if len(s.Values) != len(points) {
			return fmt.Errorf("extra-p: %s %s has data for %d of %d points", s.Region, s.Metric, len(s.Values), len(points))
		}
		if r := extraPName(s.Region); r != last {
			fmt.Fprintf(bw, "\nREGION %s\n", r)
			last = r
		}
		fmt.Fprintf(bw, "METRIC %s\n", extraPName(s.Metric))
		for k, vs := range s.Values {
			if len(vs) == 0 {
				return fmt.Errorf("extra-p: %s %s has no data at point %d", s.Region, s.Metric, k+1)
			}
			bw.WriteString("DATA")
			for _, v := range vs {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return fmt.Errorf("extra-p: %s %s: %v is not a number the format can hold", s.Region, s.Metric, v)
				}
				bw.WriteString(" " + number(v))
			}
			bw.WriteString("\n")
		}
	}
	return bw.Flush()
}

// number writes v in decimal notation without an exponent, exactly.
func number(v float64) string {
	return strconv.FormatFloat(v, 'f', -1, 64)
}

func extraPName(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	return strings.ReplaceAll(s, "->", "-")
}
