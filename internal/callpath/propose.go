package callpath

// Proposing a filter (gopari filter): the functions whose measurement
// costs more than it tells. Measuring a call costs about the same
// whatever the function does (an enter and an exit, each a clock read
// and some bookkeeping), so a function called very often whose calls are
// short is slowed, in proportion, the most, and tells the least: a
// filter that leaves it out makes the second build cheap.
//
// Per function — its demangled name, which is what a filter's patterns
// match — the visits and exclusive time are summed over its paths, the
// locations and, for an MPI job, the ranks. Leaving it out saves about
// visits × the cost of one measured call. A function is proposed when it
// has at least MinVisits visits and a mean exclusive time per visit of
// at most MaxMeanNs, except main (the root of every path) and a function
// with an OpenMP construct's node right below it: leaving it out would
// hang the construct, and every task it creates, on its caller.

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"gopari/internal/filter"
	"gopari/internal/profile"
)

// The defaults of Thresholds.
const (
	// DefaultMinVisits: below 10^5 visits a function's measurement costs
	// at most a few milliseconds (10^5 × 35 ns = 3.5 ms), less than the
	// noise of any run long enough to be worth profiling; leaving it out
	// would lose a node of the call tree and save nothing measurable.
	DefaultMinVisits = 100_000
	// DefaultMeanFactor: MaxMeanNs defaults to this many times the cost
	// of one measured call. A function whose calls last at most that long
	// is slowed by its measurement by at least 5%, the overhead a
	// filtered build aims at: with a factor of 5 (a fifth), the bench's
	// proxy kept a 200 ns kernel called 3·10^6 times and stayed 7% over
	// uninstrumented. The mean measured holds part of that cost too (what
	// runs between the enter's clock read and the exit's): a 1 ns
	// accessor shows about 35 ns, so a threshold below the call cost
	// would catch nothing.
	DefaultMeanFactor = 20
)

// When the run did not measure what a call costs (call_cost_ns), it is
// estimated as two clock reads and callBookkeepingNs, the bookkeeping
// that issue 25 budgets besides them. The reads were timed on the bench
// machine (a 2-core KVM Xeon, 2026-11-27, 2·10^7 reads in a loop): rdtsc
// 15 ns, clock_gettime(CLOCK_MONOTONIC) through the vDSO 36 to 40 ns.
const (
	tscReadNs         = 15
	monotonicReadNs   = 40
	callBookkeepingNs = 5
)

// ErrNoCallPaths is Propose's error for runs that recorded no call paths.
var ErrNoCallPaths = errors.New("the run recorded no call paths (build the program with gopari cc --functions)")

// A Function is one function's calls in runs, summed over its paths, the
// locations and the runs.
type Function struct {
	Name    string `json:"name"`              // demangled, as filter patterns match it
	Mangled string `json:"mangled,omitempty"` // its symbol's name
	File    string `json:"file,omitempty"`
	Visits  uint64 `json:"visits"`
	ExclNs  uint64 `json:"excl_ns"`
	// CalleeVisits are the visits of the functions it called that were
	// measured: each left part of its measurement in ExclNs (OwnMeanNs).
	CalleeVisits uint64 `json:"callee_visits,omitempty"`
	// Constructs says an OpenMP construct's node is right below one of
	// its paths.
	Constructs bool `json:"constructs,omitempty"`
	// SavingNs is what leaving it out saves: visits × the call cost.
	SavingNs float64 `json:"saving_ns"`
	// GCCLiteral, when set, is GCC's printable name of the function,
	// which no other function of the program holds: its rule is
	// *GCCLiteral*, which GCC applies at compile time too (gccrule.go).
	GCCLiteral string `json:"gcc_literal,omitempty"`
	// AlsoExcludes are the other functions of the program that the rule
	// *GCCLiteral* leaves out: they never ran, or ran too briefly to be
	// worth a node (gccRules).
	AlsoExcludes []string `json:"also_excludes,omitempty"`
}

// MeanNs is its mean exclusive time per visit.
func (f *Function) MeanNs() float64 {
	if f.Visits == 0 {
		return 0
	}
	return float64(f.ExclNs) / float64(f.Visits)
}

// OwnMeanNs is its mean exclusive time per visit without what the
// measurement of its callees added to it: a measured call runs its hooks
// partly outside the callee's own time, in its caller's (the call's
// set-up, the enter hook up to its clock read, the exit hook after its
// own), so each visit of a measured callee is taken to have added up to
// one call cost, callCostNs. On bench/proxy (g++ -O2) a function of tiny
// inlined callees measured 14 to 33 ns more per callee, with a call cost
// of 35 ns, than when its callees were left out at compile time; without
// this, such a function looks expensive until its callees are filtered,
// and the second build keeps it measured.
func (f *Function) OwnMeanNs(callCostNs float64) float64 {
	if f.Visits == 0 {
		return 0
	}
	own := float64(f.ExclNs) - float64(f.CalleeVisits)*callCostNs
	if own < 0 {
		own = 0
	}
	return own / float64(f.Visits)
}

// Thresholds choose the functions a filter leaves out: at least
// MinVisits visits and a mean exclusive time of at most MaxMeanNs (0:
// DefaultMeanFactor × the call cost).
type Thresholds struct {
	MinVisits uint64
	MaxMeanNs float64
}

// A Proposal is the functions that a filter should leave out of runs.
type Proposal struct {
	Runs        int     // the runs (ranks) with call paths
	CallCostNs  float64 // what one measured call (enter and exit) costs
	CallCostHow string  // where CallCostNs comes from, in words
	MinVisits   uint64
	MaxMeanNs   float64
	MeanDefault bool // MaxMeanNs is DefaultMeanFactor × CallCostNs
	Functions   int  // the functions measured that have a name
	Unnamed     int  // the functions measured that resolved to no name: a filter cannot name them
	// Excluded are the functions proposed, the largest saving first.
	Excluded []Function
	// ExactOnly says why every rule is an exact name (the run's files
	// could not all be read), or is empty.
	ExactOnly string
	SavingNs  float64 // of Excluded
	TotalNs   uint64  // the time of every path, summed over locations and runs
	Warnings  []string
}

// Propose proposes the functions to leave out of the runs ps (one
// profile, or a job's ranks), and ErrNoCallPaths if none recorded call
// paths.
func Propose(ps []*profile.Profile, th Thresholds) (*Proposal, error) {
	var trees []*Tree
	var withPaths []*profile.Profile
	pr := &Proposal{MinVisits: th.MinVisits, MaxMeanNs: th.MaxMeanNs}
	for _, p := range ps {
		t, err := FromProfile(p)
		if err != nil {
			return nil, err
		}
		if t != nil {
			trees, withPaths = append(trees, t), append(withPaths, p)
			pr.TotalNs += t.TotalNs()
			pr.Warnings = append(pr.Warnings, t.Warnings...)
		}
	}
	if len(trees) == 0 {
		return nil, ErrNoCallPaths
	}
	pr.Runs = len(trees)
	pr.CallCostNs, pr.CallCostHow = CallCost(withPaths)
	if pr.MaxMeanNs <= 0 {
		pr.MaxMeanNs, pr.MeanDefault = DefaultMeanFactor*pr.CallCostNs, true
	}
	fns, unnamed := Functions(trees)
	pr.Functions, pr.Unnamed = len(fns), unnamed
	for _, f := range fns {
		if f.Name == "main" || f.Constructs || f.Visits == 0 || f.Visits < pr.MinVisits || f.OwnMeanNs(pr.CallCostNs) > pr.MaxMeanNs {
			continue
		}
		if _, ok := excludeRule(f); !ok {
			continue
		}
		f.SavingNs = float64(f.Visits) * pr.CallCostNs
		pr.SavingNs += f.SavingNs
		pr.Excluded = append(pr.Excluded, f)
	}
	sort.SliceStable(pr.Excluded, func(i, j int) bool { return pr.Excluded[i].SavingNs > pr.Excluded[j].SavingNs })
	if len(pr.Excluded) > 0 {
		names, printable, why := programNames(withPaths)
		for _, f := range fns {
			names = append(names, f.Name)
		}
		pr.ExactOnly = why
		if why == "" {
			lits, also := gccRules(pr.Excluded, names, printable, fns, pr.TotalNs)
			for i, lit := range lits {
				pr.Excluded[i].GCCLiteral, pr.Excluded[i].AlsoExcludes = lit, also[i]
			}
		}
	}
	return pr, nil
}

// CallCost is what one measured call costs in the runs ps: the mean of
// what they measured (call_cost_ns), or, if none did, two reads of their
// clock and the bookkeeping; how says which, in words.
func CallCost(ps []*profile.Profile) (ns float64, how string) {
	n := 0
	for _, p := range ps {
		if p.CallPaths != nil && p.CallPaths.CallCostNs > 0 {
			ns += p.CallPaths.CallCostNs
			n++
		}
	}
	if n > 0 {
		return ns / float64(n), "measured by the run (call_cost_ns)"
	}
	name, read := "TSC", float64(tscReadNs)
	if len(ps) > 0 && ps[0].Clock.Name == "monotonic" {
		name, read = "CLOCK_MONOTONIC", monotonicReadNs
	}
	return 2*read + callBookkeepingNs, fmt.Sprintf("estimated: the run did not measure it; 2 %s reads of %.0f ns and %d ns of bookkeeping", name, read, callBookkeepingNs)
}

// Functions sums the function nodes of trees by name, in the order of
// their names; unnamed counts the distinct functions that resolved to no
// symbol, which are left out.
func Functions(trees []*Tree) (fns []Function, unnamed int) {
	byName := map[string]int{}
	addrs := map[string]bool{}
	for _, t := range trees {
		for id := range t.Nodes {
			n := &t.Nodes[id]
			if n.Kind != "function" {
				continue
			}
			if n.Mangled == "" {
				addrs[n.Name] = true
				continue
			}
			i, ok := byName[n.Name]
			if !ok {
				i = len(fns)
				byName[n.Name] = i
				fns = append(fns, Function{Name: n.Name, Mangled: n.Mangled, File: n.File})
			}
			f := &fns[i]
			f.Visits += n.Visits
			f.ExclNs += n.ExclNs
			for _, c := range n.Children {
				switch t.Nodes[c].Kind {
				case "region":
					f.Constructs = true
				case "function":
					f.CalleeVisits += t.Nodes[c].Visits
				}
			}
		}
	}
	sort.Slice(fns, func(i, j int) bool { return fns[i].Name < fns[j].Name })
	return fns, len(addrs)
}

// excludeRule is the region rule that leaves out exactly the function f
// as the run's filter decision sees it (filter.Function(name, mangled,
// file)): *GCCLiteral* where GCC applies it too, else its name quoted, or, for a name that a pattern cannot hold (a
// newline or a NUL byte), a MANGLED rule on its symbol's name; ok is
// false when neither can.
func excludeRule(f Function) (filter.Rule, bool) {
	const unholdable = "\n\x00"
	switch {
	case f.GCCLiteral != "":
		return filter.Rule{Exclude: true, Pattern: "*" + filter.Quote(f.GCCLiteral) + "*"}, true
	case !strings.ContainsAny(f.Name, unholdable):
		return filter.Rule{Exclude: true, Pattern: filter.Quote(f.Name)}, true
	case f.Mangled != "" && !strings.ContainsAny(f.Mangled, unholdable):
		return filter.Rule{Exclude: true, Mangled: true, Pattern: filter.Quote(f.Mangled)}, true
	}
	return filter.Rule{}, false
}

// alsoShown is how many of the functions a wider rule also leaves out
// its comment names; the JSON proposal lists them all.
const alsoShown = 6

// alsoList names the first alsoShown of names, and how many more.
func alsoList(names []string) string {
	if len(names) <= alsoShown {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:alsoShown], ", "), len(names)-alsoShown)
}

// Filter is the proposal as a filter file: a header that says what run
// (named run) it comes from, the thresholds and the saving, and one
// EXCLUDE per function proposed, with its visits, mean and saving.
func (pr *Proposal) Filter(run string) *filter.Filter {
	f := &filter.Filter{Header: pr.header(run)}
	written := map[string]bool{}
	for _, fn := range pr.Excluded {
		comment := fmt.Sprintf("%d visits, mean %s, saves ~%s", fn.Visits, FormatNs(fn.MeanNs()), FormatNs(fn.SavingNs))
		if fn.CalleeVisits > 0 {
			comment = fmt.Sprintf("%d visits, mean %s (%s without its callees' measurement), saves ~%s",
				fn.Visits, FormatNs(fn.MeanNs()), FormatNs(fn.OwnMeanNs(pr.CallCostNs)), FormatNs(fn.SavingNs))
		}
		switch lit := fn.GCCLiteral; {
		case lit != "" && written[lit]: // an overload: the rule above leaves it out
			fn.GCCLiteral = ""
			comment += fmt.Sprintf("; *%s* above leaves it out at compile time", lit)
		case lit != "" && len(fn.AlsoExcludes) > 0:
			written[lit] = true
			comment += fmt.Sprintf("; wider than %s so that GCC leaves it out at compile time: it also leaves out %s, which ran for at most %.1f%% of the time",
				fn.Name, alsoList(fn.AlsoExcludes), 100*expendableShare)
		case lit != "":
			written[lit] = true
			comment += fmt.Sprintf("; wider than %s so that GCC leaves it out at compile time: it matches no function of this program that is measured", fn.Name)
		}
		r, _ := excludeRule(fn)
		r.Comment = comment
		f.Regions = append(f.Regions, r)
	}
	return f
}

// header is the filter file's header comment.
func (pr *Proposal) header(run string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Proposed by gopari filter for %s", run)
	if pr.Runs > 1 {
		fmt.Fprintf(&b, " (%d ranks, summed)", pr.Runs)
	}
	fmt.Fprintf(&b, ".\nRebuild with: gopari cc --functions --filter FILE ...\n")
	fmt.Fprintf(&b, "One measured call (enter + exit) costs %s, %s.\n", FormatNs(pr.CallCostNs), pr.CallCostHow)
	maxMean := "--max-mean"
	if pr.MeanDefault {
		maxMean = fmt.Sprintf("--max-mean; %d x the call cost", DefaultMeanFactor)
	}
	fmt.Fprintf(&b, "Excluded: functions with at least %d visits (--min-visits) and a mean\n"+
		"exclusive time of at most %s (%s),\n"+
		"less one call cost per call they made to a measured function,\n"+
		"never main nor a function with an OpenMP construct below it.\n"+
		"Patterns are demangled names, as the run's filter matches them; a *name*\n"+
		"pattern is also what GCC leaves out at compile time (GCC's name of the\n"+
		"function, which no other function of the program holds, but those that\n"+
		"never ran or ran for at most %.1f%% of the time).\n",
		pr.MinVisits, FormatNs(pr.MaxMeanNs), maxMean, 100*expendableShare)
	if pr.ExactOnly != "" && len(pr.Excluded) > 0 {
		fmt.Fprintf(&b, "Exact names only, applied at run time: %s.\n", pr.ExactOnly)
	}
	if len(pr.Excluded) == 0 {
		fmt.Fprintf(&b, "Nothing to exclude: none of the %d named functions measured passes these thresholds.\n", pr.Functions)
	} else {
		share := 0.0
		if pr.TotalNs > 0 {
			share = 100 * pr.SavingNs / float64(pr.TotalNs)
		}
		fmt.Fprintf(&b, "Estimated saving: %s of the %s the threads ran (%.1f%%), %d of %d functions excluded.\n",
			FormatNs(pr.SavingNs), FormatNs(float64(pr.TotalNs)), share, len(pr.Excluded), pr.Functions)
	}
	if pr.Unnamed > 0 {
		fmt.Fprintf(&b, "%d functions resolved to no name (build with -g, keep the binary): a filter cannot name them.\n", pr.Unnamed)
	}
	return b.String()
}

// FormatNs formats a duration in ns with a unit that keeps it short,
// to three digits: 5 ns, 12.5 us, 3.20 ms, 1.25 s.
func FormatNs(ns float64) string {
	unit, v := "s", ns/1e9
	switch {
	case ns < 999.5:
		return fmt.Sprintf("%.0f ns", ns)
	case ns < 999.5e3:
		unit, v = "us", ns/1e3
	case ns < 999.5e6:
		unit, v = "ms", ns/1e6
	}
	switch {
	case v < 9.995:
		return fmt.Sprintf("%.2f %s", v, unit)
	case v < 99.95:
		return fmt.Sprintf("%.1f %s", v, unit)
	}
	return fmt.Sprintf("%.0f %s", v, unit)
}
