package job

import (
	"fmt"
	"math"
	"sort"

	"gopari/internal/callpath"
	"gopari/internal/profile"
)

// A Merged is a job's merged profile: gopari report prints it for a job
// directory, and --json writes it. Its size grows with regions times
// ranks; the ranks' own profiles stay in their directories.
type Merged struct {
	Format   string         `json:"format"`
	Version  int            `json:"version"`
	Job      string         `json:"job"`
	Launcher string         `json:"launcher"`
	Size     int            `json:"size"`
	Program  string         `json:"program"`
	Ranks    []RankSummary  `json:"ranks"`
	Missing  []int          `json:"missing,omitempty"`
	Damaged  []Damage       `json:"damaged,omitempty"`
	Regions  []MergedRegion `json:"regions"`
	// CallPaths merges the ranks' call paths (callpath.Merge); nil when
	// no rank recorded any. CallPathNotes say which ranks' call paths
	// were left out, and why.
	CallPaths     *callpath.Merged `json:"call_paths,omitempty"`
	CallPathNotes []string         `json:"call_path_notes,omitempty"`
}

// A RankSummary is one rank at a glance. MPINs is the inclusive time of
// its MPI calls and OpenMPNs the exclusive time of its OpenMP constructs,
// as the merged regions count it (a parallel region's fork and join on
// the encountering thread, its implicit tasks' user code and closing
// barrier included; MPI calls made inside excluded), both summed over
// its threads: the two never overlap.
type RankSummary struct {
	Rank      int    `json:"rank"`
	Dir       string `json:"dir"`
	PID       int    `json:"pid"`
	Exit      string `json:"exit"`
	WallNs    uint64 `json:"wall_ns"`
	Threads   int    `json:"threads"` // its team members (profile.ThreadCount.Threads)
	OSThreads int    `json:"os_threads"`
	OpenMPNs  uint64 `json:"openmp_ns"`
	MPINs     uint64 `json:"mpi_ns"`
	MPICalls  uint64 `json:"mpi_calls"`
	Messages  uint64 `json:"messages"`
	Bytes     uint64 `json:"bytes"`
}

// MPIShare is the rank's time in MPI calls over that and its time in
// OpenMP constructs; NaN without either.
func (r RankSummary) MPIShare() float64 {
	if r.MPINs+r.OpenMPNs == 0 {
		return math.NaN()
	}
	return float64(r.MPINs) / float64(r.MPINs+r.OpenMPNs)
}

// A Spread is a quantity over the job's ranks: ranks that did not run
// the region count as 0. MaxRank is the lowest rank with the maximum.
type Spread struct {
	Min     uint64  `json:"min"`
	Mean    float64 `json:"mean"`
	Max     uint64  `json:"max"`
	MaxRank int     `json:"max_rank"`
}

// A MergedRegion is one region over the job. The time of a region on a
// rank is what the rank's own report shows, summed over its threads: a
// parallel region's is its team's (implicit tasks, closing-barrier waits,
// and the fork and join on the encountering thread), a worksharing
// construct's includes its implicit barrier, a task's is its execution,
// a taskloop's its construct and its tasks; its visits are a parallel
// region's forks. RankImbalance is (max - mean) / max of that inclusive
// time over ranks; ThreadImbalance is the mean over the ranks that ran
// the region of (max - mean) / max of each thread's work in it (for a
// parallel region, its implicit task). Both are 0 when balanced and
// approach 1 when one rank, or one thread, does all the work.
type MergedRegion struct {
	Kind            string         `json:"kind"`
	Name            string         `json:"name"`
	File            string         `json:"file"`
	BeginLine       int            `json:"begin_line"`
	EndLine         int            `json:"end_line"`
	SubName         string         `json:"sub_name,omitempty"`
	Ranks           int            `json:"ranks"` // ranks that ran it
	Visits          Spread         `json:"visits"`
	InclNs          Spread         `json:"incl_ns"`
	ExclNs          Spread         `json:"excl_ns"`
	Messages        *Spread        `json:"messages,omitempty"`
	Bytes           *Spread        `json:"bytes,omitempty"`
	RankImbalance   float64        `json:"rank_imbalance"`
	ThreadImbalance float64        `json:"thread_imbalance"`
	PerRank         []RegionOnRank `json:"per_rank"`
}

// A RegionOnRank is a region on one rank, summed over its threads.
type RegionOnRank struct {
	Rank int `json:"rank"`
	// Threads that ran it: of a parallel region, the team members that
	// ran its implicit tasks (profile.Time).
	Threads         int     `json:"threads"`
	Visits          uint64  `json:"visits"`
	InclNs          uint64  `json:"incl_ns"`
	ExclNs          uint64  `json:"excl_ns"`
	Messages        uint64  `json:"messages,omitempty"`
	Bytes           uint64  `json:"bytes,omitempty"`
	ThreadImbalance float64 `json:"thread_imbalance"`
}

// Region returns the region r merges, as a rank's profile has it (its
// id aside): what names it (profile.Region's Where and Label).
func (r *MergedRegion) Region() *profile.Region {
	return &profile.Region{Kind: r.Kind, Name: r.Name, File: r.File, BeginLine: r.BeginLine, EndLine: r.EndLine, SubName: r.SubName}
}

// regionKey identifies a region across ranks, which may run different
// builds (MPMD): by what it is and where, not by its id.
type regionKey struct {
	kind, name, file, sub string
	begin, end            int
}

func keyOf(r *profile.Region) regionKey {
	return regionKey{r.Kind, r.Name, r.File, r.SubName, r.BeginLine, r.EndLine}
}

// Merge merges the job's rank profiles. A region's numbers on a rank
// are the rank's own report's (profile.TimesBy, its regions grouped by
// key), so that the merged profile and each rank's report agree.
func Merge(j *Job) *Merged {
	m := &Merged{Format: Format, Version: Version, Job: j.Job, Launcher: j.Launcher, Size: j.Size,
		Program: j.Program, Missing: j.Missing, Damaged: j.Damaged}
	index := map[regionKey]int{}
	for ri, rk := range j.Ranks {
		p := rk.Profile
		times := profile.TimesBy(p, keyOf)
		m.Ranks = append(m.Ranks, summary(rk, times))
		// The regions in the order of the profile's stats: that of the
		// first rank that ran them, which orders the ties below.
		for i := range p.Stats {
			r := p.Region(p.Stats[i].Region)
			if r == nil {
				continue
			}
			k := keyOf(r)
			mi, ok := index[k]
			if !ok {
				mi = len(m.Regions)
				index[k] = mi
				m.Regions = append(m.Regions, MergedRegion{Kind: r.Kind, Name: r.Name, File: r.File,
					BeginLine: r.BeginLine, EndLine: r.EndLine, SubName: r.SubName,
					PerRank: make([]RegionOnRank, len(j.Ranks))})
			}
			m.Regions[mi].PerRank[ri] = onRank(times[k])
		}
	}
	for i := range m.Regions {
		m.Regions[i].spread(j.Ranks)
	}
	m.mergeCallPaths(j)
	sort.SliceStable(m.Regions, func(a, b int) bool {
		if m.Regions[a].InclNs.Max != m.Regions[b].InclNs.Max {
			return m.Regions[a].InclNs.Max > m.Regions[b].InclNs.Max
		}
		ka, kb := m.Regions[a], m.Regions[b]
		if ka.File != kb.File {
			return ka.File < kb.File
		}
		return ka.BeginLine < kb.BeginLine
	})
	return m
}

// mergeCallPaths merges the call paths of the ranks that have any.
func (m *Merged) mergeCallPaths(j *Job) {
	ranks := make([]int, len(j.Ranks))
	trees := make([]*callpath.Tree, len(j.Ranks))
	for i, rk := range j.Ranks {
		ranks[i] = rk.Rank
		t, err := callpath.FromProfile(rk.Profile)
		if err != nil {
			m.CallPathNotes = append(m.CallPathNotes, fmt.Sprintf("rank %d: %v", rk.Rank, err))
		}
		trees[i] = t
	}
	m.CallPaths = callpath.Merge(ranks, trees)
}

// ns rounds a time to whole nanoseconds.
func ns(v float64) uint64 { return uint64(v + 0.5) }

// summary is rank rk at a glance, from its regions' times.
func summary(rk Rank, times map[regionKey]profile.Time) RankSummary {
	p := rk.Profile
	sum := RankSummary{Rank: rk.Rank, Dir: rk.Dir, PID: p.PID, Exit: p.Exit, WallNs: p.WallNs,
		Threads: p.ThreadCount().Threads(), OSThreads: p.OSThreads}
	for k, t := range times {
		switch k.kind {
		case "mpi":
			sum.MPINs += ns(t.InclNs)
			sum.MPICalls += t.Visits
		case "user":
		default:
			sum.OpenMPNs += ns(t.ExclNs)
		}
		sum.Messages += t.Messages
		sum.Bytes += t.Bytes
	}
	return sum
}

// onRank is a region on a rank whose time is t.
func onRank(t profile.Time) RegionOnRank {
	return RegionOnRank{Threads: t.Threads, Visits: t.Visits, InclNs: ns(t.InclNs), ExclNs: ns(t.ExclNs),
		Messages: t.Messages, Bytes: t.Bytes, ThreadImbalance: t.Imbalance}
}

// spread computes the region's numbers over the ranks, ranks that did
// not run it counting as 0.
func (r *MergedRegion) spread(ranks []Rank) {
	var incl []uint64
	var timb float64
	for ri := range r.PerRank {
		on := &r.PerRank[ri]
		on.Rank = ranks[ri].Rank
		incl = append(incl, on.InclNs)
		if on.Threads > 0 {
			r.Ranks++
			timb += on.ThreadImbalance
		}
	}
	if r.Ranks > 0 {
		r.ThreadImbalance = timb / float64(r.Ranks)
	}
	r.RankImbalance = imbalance(incl)
	r.Visits = spread(r.PerRank, func(o RegionOnRank) uint64 { return o.Visits })
	r.InclNs = spread(r.PerRank, func(o RegionOnRank) uint64 { return o.InclNs })
	r.ExclNs = spread(r.PerRank, func(o RegionOnRank) uint64 { return o.ExclNs })
	if r.Kind == "mpi" {
		msgs := spread(r.PerRank, func(o RegionOnRank) uint64 { return o.Messages })
		bytes := spread(r.PerRank, func(o RegionOnRank) uint64 { return o.Bytes })
		r.Messages, r.Bytes = &msgs, &bytes
	}
}

// imbalance is (max - mean) / max, 0 for no or zero values.
func imbalance(v []uint64) float64 {
	f := make([]float64, len(v))
	for i, x := range v {
		f[i] = float64(x)
	}
	return profile.Imbalance(f)
}

func spread(on []RegionOnRank, f func(RegionOnRank) uint64) Spread {
	var s Spread
	if len(on) == 0 {
		return s
	}
	var sum uint64
	for i, o := range on {
		v := f(o)
		sum += v
		if i == 0 || v < s.Min {
			s.Min = v
		}
		if i == 0 || v > s.Max {
			s.Max, s.MaxRank = v, o.Rank
		}
	}
	s.Mean = float64(sum) / float64(len(on))
	return s
}
