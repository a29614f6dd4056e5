package grains

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"gopari/internal/events"
	"gopari/internal/timeline"
)

// Columns are the CSV header.
var Columns = []string{"kind", "file", "line", "region", "id", "parent", "lineage", "thread", "threads",
	"create_thread", "first", "last", "first_value", "last_value",
	"start_ns", "end_ns", "create_begin_ns", "create_end_ns", "create_ns", "sched_ns", "exec_ns",
	"suspensions", "children", "undeferred",
	"parallel_benefit", "work_deviation", "parallelism", "load_balance", "scatter", "critical", "problems"}

// Outputs says where the second pass writes; nil writers are skipped.
type Outputs struct {
	CSV   io.Writer
	Graph *Graph // collects the grain graph, when not nil
}

// Totals are the per-region aggregates behind the summary.
type Totals struct {
	Kind      Kind
	Region    uint32
	Count     int64
	ExecNs    float64
	Flagged   [4]int64   // per problem bit
	FlagExec  [4]float64 // execution time of the flagged grains
	SumMetric [4]float64 // benefit, deviation, parallelism, balance of the flagged
	Critical  int64
	Matched   int64 // grains with a baseline grain (a work deviation)
}

// Result is what the second pass found.
type Result struct {
	Grains  int64
	ByKind  [3]int64
	Regions map[[2]uint32]*Totals // by kind and region
	// ByMatch counts the grains by how they were matched with the
	// baseline's (index Match).
	ByMatch [4]int64
	// Loops sums the chunks of each loop execution, with a baseline.
	Loops map[string]*LoopSum
}

// Write makes the second pass: every grain with its metrics to the CSV
// and the graph, and the per-region totals of the summary.
func (a *Analysis) Write(out Outputs) (*Result, error) {
	res := &Result{Regions: map[[2]uint32]*Totals{}, Loops: map[string]*LoopSum{}}
	var cw *csv.Writer
	if out.CSV != nil {
		cw = csv.NewWriter(out.CSV)
		if err := cw.Write(Columns); err != nil {
			return nil, err
		}
	}
	row := make([]string, 0, len(Columns))
	var werr error
	_, err := Extract(a.Exp, func(g *Grain, ev *timeline.Event) {
		if !a.Opts.Slice.keeps(a.Exp, g) {
			return
		}
		m := a.Measure(g)
		res.Grains++
		res.ByKind[g.Kind]++
		res.ByMatch[m.Baseline]++
		if a.baseline != nil {
			addLoop(res.Loops, g, m.ExecNs, m.Baseline == Matched)
		}
		k := [2]uint32{uint32(g.Kind), g.Region}
		t := res.Regions[k]
		if t == nil {
			t = &Totals{Kind: g.Kind, Region: g.Region}
			res.Regions[k] = t
		}
		t.Count++
		t.ExecNs += m.ExecNs
		if m.Critical {
			t.Critical++
		}
		if !math.IsNaN(m.Deviation) {
			t.Matched++
		}
		metric := [4]float64{m.Benefit, m.Deviation, m.Parallelism, m.Balance}
		for i := 0; i < 4; i++ {
			if m.Problems&(1<<i) != 0 {
				t.Flagged[i]++
				t.FlagExec[i] += m.ExecNs
				t.SumMetric[i] += metric[i]
			}
		}
		if out.Graph != nil {
			out.Graph.add(a, g, &m)
		}
		if cw == nil || werr != nil {
			return
		}
		werr = cw.Write(a.row(row[:0], g, &m))
	}, a.progress(a.Opts.Progress, "writing", nil))
	if err != nil {
		return nil, err
	}
	if cw != nil {
		cw.Flush()
		if werr == nil {
			werr = cw.Error()
		}
	}
	return res, werr
}

// row appends the CSV cells of grain g, in the order of Columns.
func (a *Analysis) row(row []string, g *Grain, m *Metrics) []string {
	path := a.path
	iter := func(v int64) string {
		if !g.HasIters || v == events.UnknownIteration {
			return ""
		}
		return strconv.FormatInt(v, 10)
	}
	file, line := "", ""
	if r := a.Exp.Region(g.Region); r != nil {
		file, line = r.File, strconv.Itoa(r.BeginLine)
	}
	id := "0x" + strconv.FormatUint(g.ID, 16)
	if g.Kind == Chunk {
		id = ""
	}
	threads := make([]string, 0, len(g.Locs))
	for _, l := range g.Locs {
		threads = append(threads, path(l))
	}
	createBegin, createEnd := math.NaN(), math.NaN()
	if g.CreateLoc >= 0 {
		createBegin, createEnd = a.Exp.Clock.Ns(g.CreateBegin), a.Exp.Clock.Ns(g.CreateEnd)
		if g.CreateEnd < g.CreateBegin {
			createEnd = math.NaN() // not in the stream (flushPending)
		}
	}
	return append(row, g.Kind.String(), file, line, strconv.Itoa(int(g.Region)), id, "0x"+strconv.FormatUint(g.Parent, 16),
		g.Lineage, path(g.Loc), strings.Join(threads, ";"), path(g.CreateLoc),
		iter(g.First), iter(g.Last), iter(g.FirstValue), iter(g.LastValue),
		num(m.StartNs), num(m.EndNs), num(createBegin), num(createEnd), num(m.CreateNs), num(m.SchedNs), num(m.ExecNs),
		strconv.Itoa(g.Suspensions), strconv.Itoa(g.Children), strconv.FormatBool(g.Undeferred),
		ratio(m.Benefit), ratio(m.Deviation), ratio(m.Parallelism), ratio(m.Balance), ratio(m.Scatter),
		strconv.FormatBool(m.Critical), m.Problems.Names(";"))
}

func num(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return strconv.FormatFloat(math.Round(v), 'f', -1, 64)
}

func ratio(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return ""
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// count writes n as 2.1M, 45k or 812.
func count(n int64) string {
	switch {
	case n >= 1e6:
		return strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64) + "M"
	case n >= 1e4:
		return strconv.FormatFloat(float64(n)/1e3, 'f', 0, 64) + "k"
	}
	return strconv.FormatInt(n, 10)
}

// A problemLine is one line of the summary, ranked by its weight.
type problemLine struct {
	weight float64
	text   string
}

// Summary writes the grains to fix, worst first: per region and problem,
// the share of its instances flagged and what to try. At most top lines
// of problems are written (0: all).
func (a *Analysis) Summary(w io.Writer, res *Result, top int) {
	against := ""
	if a.baseline != nil {
		// Grains that cannot be matched unambiguously have no work
		// deviation: never one against another grain.
		against = fmt.Sprintf("; against the baseline: %d matched, %d ambiguous, %d not in it",
			res.ByMatch[Matched], res.ByMatch[Ambiguous], res.ByMatch[Missing])
	}
	fmt.Fprintf(w, "%s grains: %d tasks, %d taskloop tasks, %d chunks%s\n", count(res.Grains), res.ByKind[Task], res.ByKind[Taskloop], res.ByKind[Chunk], against)
	var few []string // flags of too few instances to be a construct's problem
	lines := a.regionLines(res, nil, &few)
	lines = a.loopInflationLines(res, lines)
	lines = a.loopBalanceLines(lines, &few)
	sort.Strings(few)
	sort.Slice(lines, func(i, j int) bool {
		if lines[i].weight != lines[j].weight {
			return lines[i].weight > lines[j].weight
		}
		return lines[i].text < lines[j].text
	})
	o := a.Opts
	if len(lines) == 0 {
		par := ""
		if o.Parallelism > 0 {
			par = fmt.Sprintf(", critical-path parallelism ≥ %g", o.Parallelism)
		}
		if len(few) == 0 {
			fmt.Fprintf(w, "no problem found (parallel benefit ≥ %g, work deviation ≤ %g×%s, load balance ≥ %g)\n", o.Benefit, o.Inflation, par, o.Balance)
			return
		}
		fmt.Fprintf(w, "no construct has a problem in most of its instances (parallel benefit ≥ %g, work deviation ≤ %g×%s, load balance ≥ %g)\n", o.Benefit, o.Inflation, par, o.Balance)
	}
	for i, l := range lines {
		if top > 0 && i == top {
			fmt.Fprintf(w, "(%d more; --top %d shows them)\n", len(lines)-top, len(lines))
			break
		}
		fmt.Fprintln(w, l.text)
	}
	if len(few) > 0 {
		// The graph and the CSV flag these grains: say so, and why they
		// are not the construct's problem.
		fmt.Fprintf(w, "flagged in the graph and the CSV, but in too few instances to be their construct's problem (a thread preempted by other work looks the same): %s\n", strings.Join(few, "; "))
	}
	if a.baseline == nil {
		fmt.Fprintln(w, "(work inflation needs a 1-thread run of the same program: --baseline DIR)")
	}
}

// where names a region by file:line.
func (a *Analysis) where(region uint32) string {
	if r := a.Exp.Region(region); r != nil {
		return fmt.Sprintf("%s:%d", r.File, r.BeginLine)
	}
	return fmt.Sprintf("region %d", region)
}

// regionLines appends the lines of the regions' grains: low parallel
// benefit, work inflation, low critical-path parallelism.
func (a *Analysis) regionLines(res *Result, lines []problemLine, few *[]string) []problemLine {
	o := a.Opts
	for _, t := range res.Regions {
		where := a.where(t.Region)
		what, inst := t.Kind.String(), "instances"
		if t.Kind == Chunk {
			what, inst = "loop", "chunks"
		}
		pct := func(i int) float64 { return 100 * float64(t.Flagged[i]) / float64(t.Count) }
		mean := func(i int) float64 { return t.SumMetric[i] / float64(t.Flagged[i]) }
		if n := t.Flagged[0]; n > 0 {
			fix := benefitAdvice(t.Kind, a.clauses(t.Region))
			lines = append(lines, problemLine{t.FlagExec[0] + float64(n), fmt.Sprintf("%s at %s: %.0f%% of its %s %s have parallel benefit < %g (mean %.2f): %s",
				what, where, pct(0), count(t.Count), inst, o.Benefit, mean(0), fix)})
		}
		if n := t.Flagged[1]; 2*n > t.Matched {
			// Most instances: one that ran while its thread was preempted
			// takes longer too, and that is no inflation of its work.
			lines = append(lines, problemLine{t.FlagExec[1] + float64(n), fmt.Sprintf("%s at %s: %.0f%% of its %s %s take more than %g× their time in the 1-thread baseline (mean %.2f×): work inflation; look for contention (shared cache lines, locks, memory bandwidth) or lost locality",
				what, where, pct(1), count(t.Count), inst, o.Inflation, mean(1))})
		} else if n > 0 {
			*few = append(*few, fmt.Sprintf("%s at %s: %d of %d %s with work inflation", what, where, n, t.Count, inst))
		}
		if n := t.Flagged[2]; n > 0 {
			lines = append(lines, problemLine{t.FlagExec[2], fmt.Sprintf("%s at %s: %s of its %s on the critical path ran with parallelism below %g (mean %.2f): expose more parallelism there",
				what, where, count(n), inst, o.Parallelism, mean(2))})
		}
	}
	return lines
}

// loopInflationLines appends a line for each loop whose chunks are not
// the baseline's (a static schedule at another team size) and whose
// executions' chunks together take longer than the baseline execution's,
// where both ran the same iterations. A figure of the loop, never of a
// chunk.
func (a *Analysis) loopInflationLines(res *Result, lines []problemLine) []problemLine {
	if a.baseline == nil {
		return lines
	}
	type loopInfl struct {
		compared, inflated int
		sum                float64
	}
	o := a.Opts
	infl := map[uint32]*loopInfl{}
	for k, l := range res.Loops {
		b := a.baseline.loops[k]
		if !l.Unmatched || b == nil || b.Iters != l.Iters || b.First != l.First || b.Last != l.Last || b.Ns <= 0 {
			continue
		}
		li := infl[l.Region]
		if li == nil {
			li = &loopInfl{}
			infl[l.Region] = li
		}
		r := l.Ns / b.Ns
		li.compared++
		li.sum += r
		if r > o.Inflation {
			li.inflated++
		}
	}
	for region, li := range infl {
		if 2*li.inflated <= li.compared {
			continue // most executions are not inflated: a preempted thread is no inflation
		}
		lines = append(lines, problemLine{float64(li.inflated) * 1e3, fmt.Sprintf("loop at %s: in %d of its %d executions its chunks together take more than %g× the baseline's time for the same iterations (mean %.2f×; a figure of the loop: its chunks are not the baseline's and have no work deviation): work inflation; look for contention (shared cache lines, locks, memory bandwidth) or lost locality",
			a.where(region), li.inflated, li.compared, o.Inflation, li.sum/float64(li.compared))})
	}
	return lines
}

// loopBalanceLines appends a line for each loop most of whose executions
// have a load balance below the threshold.
func (a *Analysis) loopBalanceLines(lines []problemLine, few *[]string) []problemLine {
	o := a.Opts
	for region, bs := range a.LoopBalances() {
		var low int
		var sum float64
		for _, b := range bs {
			if b < o.Balance {
				low++
			}
			sum += b
		}
		if 2*low <= len(bs) {
			// Most executions are balanced: a thread preempted once is
			// no imbalance, but its chunks are flagged.
			if low > 0 {
				*few = append(*few, fmt.Sprintf("loop at %s: %d of %d executions with load balance below %g", a.where(region), low, len(bs), o.Balance))
			}
			continue
		}
		lines = append(lines, problemLine{float64(low) * 1e3, fmt.Sprintf("loop at %s: %d of its %d executions have load balance below %g (mean %.2f: the slowest thread worked %.1f× the mean): %s",
			a.where(region), low, len(bs), o.Balance, sum/float64(len(bs)), float64(len(bs))/sum, balanceAdvice(a.clauses(region)))})
	}
	return lines
}

// path returns the team path of location loc ("0.1.1"), as the CSV's
// thread column has it; "" for a location the stream does not name.
func (a *Analysis) path(loc int) string {
	if loc >= 0 && loc < len(a.Exp.Threads) {
		return a.Exp.Threads[loc].Path
	}
	return ""
}

// clauses returns a region's clauses, as written.
func (a *Analysis) clauses(region uint32) string {
	if r := a.Exp.Region(region); r != nil {
		return r.Clauses
	}
	return ""
}

// label names a region for graph nodes.
func label(a *Analysis, region uint32) string {
	r := a.Exp.Region(region)
	if r == nil {
		return "region " + strconv.Itoa(int(region))
	}
	return r.Kind + " " + r.File + ":" + strconv.Itoa(r.BeginLine)
}
