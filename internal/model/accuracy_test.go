package model

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
)

// synth makes noisy measurements of c0 + c1·h(t): reps values per point,
// each the true value times a factor drawn uniformly from [1 - noise,
// 1 + noise], the noise model of Extra-P's evaluations ("±5% noise").
func synth(rng *rand.Rand, ts []float64, h Hypothesis, c0, c1, noise float64, reps int) []Point {
	var pts []Point
	for _, t := range ts {
		y := c0
		if !h.IsConstant() {
			y += c1 * h.Term(t)
		}
		p := Point{T: t}
		for r := 0; r < reps; r++ {
			p.Values = append(p.Values, y*(1+noise*(2*rng.Float64()-1)))
		}
		pts = append(pts, p)
	}
	return pts
}

// disturb makes one repetition slower at 30% of the points, by a factor
// drawn uniformly from [1.3, 2.3]: a run that another job on a shared
// machine preempted.
func disturb(rng *rand.Rand, pts []Point) {
	for i := range pts {
		if rng.Float64() < 0.3 {
			pts[i].Values[rng.IntN(len(pts[i].Values))] *= 1.3 + rng.Float64()
		}
	}
}

// coefficients draws a constant and a coefficient for h such that the
// term adds between 3 and 300 times the constant at the largest t (log
// uniform): from a trend that is plainly there to one that dominates.
func coefficients(rng *rand.Rand, ts []float64, h Hypothesis) (c0, c1 float64) {
	c0 = math.Pow(10, 3*rng.Float64()) // 1 ns to 1 µs, say
	if h.IsConstant() {
		return c0, 0
	}
	ratio := 3 * math.Pow(100, rng.Float64())
	return c0, c0 * ratio / h.Term(ts[len(ts)-1])
}

// A scenario is a set of thread counts and the noise of the data.
type scenario struct {
	ts        []float64
	noise     float64
	disturbed bool // one slow repetition at some points (disturb)
}

func (s scenario) String() string {
	d := ""
	if s.disturbed {
		d = ", one repetition 1.3-2.3x slower at 30% of the points"
	}
	return fmt.Sprintf("t = %v, noise ±%.0f%%%s", s.ts, s.noise*100, d)
}

type confusion struct {
	scenario
	opt    Options
	trials int
	picked map[Hypothesis]map[Hypothesis]int // generating -> chosen -> count
}

// runConfusion fits trials series of every hypothesis of scenario s, five
// repetitions per point, from a seed fixed by the scenario.
func runConfusion(s scenario, trials int, opt Options) *confusion {
	seed := uint64(len(s.ts))
	if s.disturbed {
		seed += 100
	}
	rng := rand.New(rand.NewPCG(seed, uint64(s.noise*1000)))
	c := &confusion{scenario: s, opt: opt, trials: trials, picked: map[Hypothesis]map[Hypothesis]int{}}
	for _, h := range Hypotheses {
		c.picked[h] = map[Hypothesis]int{}
		for k := 0; k < trials; k++ {
			c0, c1 := coefficients(rng, s.ts, h)
			pts := synth(rng, s.ts, h, c0, c1, s.noise, 5)
			if s.disturbed {
				disturb(rng, pts)
			}
			m, err := Fit(pts, opt)
			if err != nil {
				panic(err)
			}
			c.picked[h][m.Hypothesis]++
		}
	}
	return c
}

// exact returns the share of trials of h that found h.
func (c *confusion) exact(h Hypothesis) float64 {
	return float64(c.picked[h][h]) / float64(c.trials)
}

func (c *confusion) total() float64 {
	n := 0
	for _, h := range Hypotheses {
		n += c.picked[h][h]
	}
	return float64(n) / float64(c.trials*len(Hypotheses))
}

// summary is one line: the scenario, the settings and the shares.
func (c *confusion) summary() string {
	return fmt.Sprintf("%v, %s%s: %.1f%% exact, constant data constant in %.1f%%",
		c.scenario, c.opt.Aggregate, map[bool]string{true: ", 10% rule"}[c.opt.MinChange > 0], c.total()*100, c.exact(Constant)*100)
}

// String is the summary and, per hypothesis, its share of exact recovery
// and the three hypotheses most often chosen instead.
func (c *confusion) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%d trials per hypothesis)\n", c.summary(), c.trials)
	fmt.Fprintf(&b, "  %-22s %7s  %s\n", "generated", "exact", "chosen instead (share)")
	for _, h := range Hypotheses {
		type miss struct {
			h Hypothesis
			n int
		}
		var misses []miss
		for g, n := range c.picked[h] {
			if g != h {
				misses = append(misses, miss{g, n})
			}
		}
		sort.Slice(misses, func(i, j int) bool {
			if misses[i].n != misses[j].n {
				return misses[i].n > misses[j].n
			}
			return misses[i].h.String() < misses[j].h.String()
		})
		var ms []string
		for i, m := range misses {
			if i == 3 {
				ms = append(ms, "…")
				break
			}
			ms = append(ms, fmt.Sprintf("%s %.0f%%", m.h, 100*float64(m.n)/float64(c.trials)))
		}
		fmt.Fprintf(&b, "  %-22s %6.1f%%  %s\n", h, c.exact(h)*100, strings.Join(ms, ", "))
	}
	return b.String()
}

var threadSets = [][]float64{{1, 2, 4, 8, 16, 32, 64}, {1, 2, 3, 4, 5, 6, 7, 8}}

// TestAccuracy is the acceptance test of the fitter, with the settings
// that gopari model uses (RunOptions): for every hypothesis of I × J,
// noisy synthetic data at two sets of thread counts, five repetitions
// per point; the generating exponent pair must come back in at least 95%
// of the cases at 1% noise and 80% at 5%, and constant data must stay
// constant at 10% noise in at least 95%. At 1% noise every hypothesis
// on its own must come back in 95%. The output has the per-hypothesis
// figures (go test -run Accuracy -v).
func TestAccuracy(t *testing.T) {
	trials := 200
	if testing.Short() {
		trials = 40
	}
	for _, ts := range threadSets {
		for _, noise := range []float64{0.01, 0.05, 0.10} {
			c := runConfusion(scenario{ts: ts, noise: noise}, trials, RunOptions)
			t.Log("\n" + c.String())
			want := map[float64]float64{0.01: 0.95, 0.05: 0.80}[noise]
			if got := c.total(); got < want {
				t.Errorf("%v: the generating hypothesis was found in %.1f%% of the cases, want at least %.0f%%", c.scenario, got*100, want*100)
			}
			if got := c.exact(Constant); got < 0.95 {
				t.Errorf("%v: constant data stayed constant in %.1f%% of the cases, want at least 95%%", c.scenario, got*100)
			}
			for _, h := range Hypotheses {
				if got := c.exact(h); noise == 0.01 && got < 0.95 {
					t.Errorf("%v: %s was found in %.1f%% of its cases, want at least 95%%", c.scenario, h, got*100)
				}
			}
		}
	}
}

// TestAccuracyAggregates compares the ways of aggregating repetitions:
// on evenly spread noise the mean without outliers does as well as the
// mean (it leaves nothing out), and where one repetition of some points
// was disturbed, it does better than the mean and the median.
func TestAccuracyAggregates(t *testing.T) {
	trials := 200
	if testing.Short() {
		trials = 40
	}
	for _, ts := range threadSets {
		share := map[Aggregate]float64{}
		for _, s := range []scenario{{ts: ts, noise: 0.05}, {ts: ts, noise: 0.02, disturbed: true}} {
			for _, a := range []Aggregate{Robust, Mean, Median} {
				opt := RunOptions
				opt.Aggregate = a
				c := runConfusion(s, trials, opt)
				t.Log(c.summary())
				share[a] = c.total()
			}
			if !s.disturbed && share[Robust] < share[Mean]-0.01 {
				t.Errorf("%v: the mean without outliers found %.1f%%, the mean %.1f%%", s, share[Robust]*100, share[Mean]*100)
			}
			if s.disturbed && (share[Robust] < 0.95 || share[Robust] <= share[Mean] || share[Robust] <= share[Median]) {
				t.Errorf("%v: the mean without outliers found %.1f%%, want 95%% and more than the mean (%.1f%%) and the median (%.1f%%)", s, share[Robust]*100, share[Mean]*100, share[Median]*100)
			}
		}
	}
}
