package job

import (
	"sort"

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
	Threads   int    `json:"threads"`
	OSThreads int    `json:"os_threads"`
	OpenMPNs  uint64 `json:"openmp_ns"`
	MPINs     uint64 `json:"mpi_ns"`
	MPICalls  uint64 `json:"mpi_calls"`
	Messages  uint64 `json:"messages"`
	Bytes     uint64 `json:"bytes"`
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
	Rank            int     `json:"rank"`
	Threads         int     `json:"threads"` // threads that ran it
	Visits          uint64  `json:"visits"`
	InclNs          uint64  `json:"incl_ns"`
	ExclNs          uint64  `json:"excl_ns"`
	Messages        uint64  `json:"messages,omitempty"`
	Bytes           uint64  `json:"bytes,omitempty"`
	ThreadImbalance float64 `json:"thread_imbalance"`
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

// onThread is a region's share on one thread, as the rank's own report
// counts it (profile.TimeOn).
type onThread struct {
	visits, bodies uint64 // bodies: a parallel region's implicit tasks
	incl, excl     uint64
	work           uint64 // what thread imbalance compares
	openMP         uint64 // its exclusive time in OpenMP constructs
	ran            bool
}

func threadShare(r *profile.Region, s *profile.Stat) onThread {
	t := profile.TimeOn(r, s)
	ns := func(v float64) uint64 { return uint64(v + 0.5) }
	o := onThread{visits: t.Visits, bodies: t.Implicit, incl: ns(t.InclNs), excl: ns(t.ExclNs), work: ns(t.WorkNs),
		ran: s.Construct != nil || s.Body != nil || s.Barrier != nil || s.Wait != nil}
	if r.Kind != "mpi" && r.Kind != "user" {
		o.openMP = o.excl
	}
	return o
}

// Merge merges the job's rank profiles.
func Merge(j *Job) *Merged {
	m := &Merged{Format: Format, Version: Version, Job: j.Job, Launcher: j.Launcher, Size: j.Size,
		Program: j.Program, Missing: j.Missing, Damaged: j.Damaged}
	index := map[regionKey]int{}
	for ri, rk := range j.Ranks {
		p := rk.Profile
		sum := RankSummary{Rank: rk.Rank, Dir: rk.Dir, PID: p.PID, Exit: p.Exit, WallNs: p.WallNs,
			Threads: len(p.Threads), OSThreads: p.OSThreads}
		perThread := map[int][]uint64{} // merged region -> work per thread on this rank
		bodies := map[int]uint64{}      // merged region -> implicit tasks on this rank
		for i := range p.Stats {
			s := &p.Stats[i]
			r := p.Region(s.Region)
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
			on := &m.Regions[mi].PerRank[ri]
			on.Rank = rk.Rank
			o := threadShare(r, s)
			if o.ran {
				on.Visits += o.visits
				bodies[mi] += o.bodies
				on.InclNs += o.incl
				on.ExclNs += o.excl
				on.Threads++
				perThread[mi] = append(perThread[mi], o.work)
			}
			on.Messages += s.Messages
			on.Bytes += s.Bytes
			if r.Kind == "mpi" && s.Construct != nil {
				sum.MPINs += s.Construct.InclNs
				sum.MPICalls += s.Construct.Visits
			}
			sum.OpenMPNs += o.openMP
			sum.Messages += s.Messages
			sum.Bytes += s.Bytes
		}
		for mi, n := range bodies {
			if on := &m.Regions[mi].PerRank[ri]; on.Visits == 0 {
				on.Visits = n // a parallel region without fork counts
			}
		}
		for mi, times := range perThread {
			m.Regions[mi].PerRank[ri].ThreadImbalance = imbalance(times)
		}
		m.Ranks = append(m.Ranks, sum)
	}
	for i := range m.Regions {
		r := &m.Regions[i]
		for ri := range r.PerRank {
			r.PerRank[ri].Rank = j.Ranks[ri].Rank // ranks without the region too
		}
		var incl []uint64
		var timb float64
		for _, on := range r.PerRank {
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
