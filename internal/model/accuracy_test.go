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

type confusion struct {
	ts     []float64
	noise  float64
	trials int
	picked map[Hypothesis]map[Hypothesis]int // generating -> chosen -> count
}

func runConfusion(seed uint64, ts []float64, noise float64, trials int, opt Options) *confusion {
	rng := rand.New(rand.NewPCG(seed, uint64(noise*1000)))
	c := &confusion{ts: ts, noise: noise, trials: trials, picked: map[Hypothesis]map[Hypothesis]int{}}
	for _, h := range Hypotheses {
		c.picked[h] = map[Hypothesis]int{}
		for k := 0; k < trials; k++ {
			c0, c1 := coefficients(rng, ts, h)
			m, err := Fit(synth(rng, ts, h, c0, c1, noise, 5), opt)
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

func (c *confusion) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "t = %v, noise %.0f%%, 5 repetitions, %d trials per hypothesis: %.1f%% exact\n", c.ts, c.noise*100, c.trials, c.total()*100)
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

// TestAccuracy is the acceptance test of the fitter: for every hypothesis
// of I × J, noisy synthetic data at two sets of thread counts, five
// repetitions per point; the generating exponent pair must come back in
// at least 95% of the cases at 1% noise and 80% at 5%, and constant data
// must stay constant at 10% noise in at least 95%.
func TestAccuracy(t *testing.T) {
	sets := [][]float64{{1, 2, 4, 8, 16, 32, 64}, {1, 2, 3, 4, 5, 6, 7, 8}}
	trials := 200
	if testing.Short() {
		trials = 40
	}
	for si, ts := range sets {
		for _, noise := range []float64{0.01, 0.05, 0.10} {
			c := runConfusion(uint64(si+1), ts, noise, trials, Options{})
			t.Log("\n" + c.String())
			var want float64
			switch noise {
			case 0.01:
				want = 0.95
			case 0.05:
				want = 0.80
			}
			if got := c.total(); got < want {
				t.Errorf("t = %v, noise %.0f%%: the generating hypothesis was found in %.1f%% of the cases, want at least %.0f%%", ts, noise*100, got*100, want*100)
			}
			if got := c.exact(Constant); got < 0.95 {
				t.Errorf("t = %v, noise %.0f%%: constant data stayed constant in %.1f%% of the cases, want at least 95%%", ts, noise*100, got*100)
			}
		}
	}
}

// TestAccuracyMedian shows the same figures with gopari model's settings:
// the median of the repetitions, which it takes because a disturbed run on
// a shared machine is slower, never faster, and trends of 10% or more.
// The median uses uniform noise less well than the mean; it is not held
// to the figures.
func TestAccuracyMedian(t *testing.T) {
	if testing.Short() {
		t.Skip("figures only")
	}
	for si, ts := range [][]float64{{1, 2, 4, 8, 16, 32, 64}, {1, 2, 3, 4, 5, 6, 7, 8}} {
		for _, noise := range []float64{0.01, 0.05, 0.10} {
			c := runConfusion(uint64(si+1), ts, noise, 200, Options{Median: true, MinChange: 0.10})
			t.Logf("median: t = %v, noise %.0f%%: %.1f%% exact, constant data constant in %.1f%%", ts, noise*100, c.total()*100, c.exact(Constant)*100)
		}
	}
}
