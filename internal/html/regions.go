package html

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"gopari/internal/model"
	"gopari/internal/pop"
	"gopari/internal/profile"
)

// A regionRow is one row of the regions table.
type regionRow struct {
	ID      int
	Kind    string
	Label   string // kind, its own name and sub-name
	Where   string // file:line-end
	Search  string // what the filter matches
	Visits  uint64
	InclNs  float64
	ExclNs  float64
	Sampled bool
	Bars    []bar // per thread
	Imbal   float64
}

// A bar is one thread's share of a row, as a percentage of the row's
// largest.
type bar struct {
	Thread string
	Ns     float64
	Pct    float64
}

// where is a region's file:line or file:line-end; an MPI call's name.
func where(r *profile.Region) string {
	s := r.File
	if r.BeginLine > 0 {
		s += ":" + strconv.Itoa(r.BeginLine)
	}
	if r.BeginLine > 0 && r.EndLine > r.BeginLine {
		s += "-" + strconv.Itoa(r.EndLine)
	}
	return s
}

// label is a region's kind, with its own name where it has one.
func label(r *profile.Region) string {
	s := r.Kind
	if r.Name != r.Kind && r.Name != "" && r.Kind != "user" && r.Kind != "lock" && r.Kind != "mpi" {
		s += " (" + r.Name + ")"
	}
	if r.SubName != "" {
		s += " " + r.SubName
	}
	return s
}

// threadTime is what one thread spent in a region: inclusive and
// exclusive time, as gopari report counts them. A parallel region's time
// is its team's (implicit tasks and closing-barrier waits) and the
// master's fork and join; a task region's is its instances' execution.
func threadTime(r *profile.Region, s *profile.Stat) (visits uint64, incl, excl float64, sampled bool) {
	add := func(ph *profile.Phase, inclusive bool) {
		if ph == nil {
			return
		}
		if inclusive {
			incl += float64(ph.InclNs)
		}
		excl += ph.ExclEstimateNs()
		sampled = sampled || ph.Sampled()
	}
	switch r.Kind {
	case "parallel":
		if s.Construct != nil { // the master's fork and join
			visits += s.Construct.Visits
			incl += float64(s.Construct.ExclNs)
			excl += float64(s.Construct.ExclNs)
		}
		add(s.Body, true)
		add(s.Barrier, true)
	case "taskloop":
		if s.Construct != nil {
			visits += s.Construct.Visits
		}
		add(s.Construct, true)
		add(s.Barrier, true)
		add(s.Body, false) // its tasks: inclusive time is their execution, below
	default:
		if s.Construct != nil {
			visits += s.Construct.Visits
		}
		add(s.Construct, true)
		add(s.Barrier, true)
	}
	return visits, incl, excl, sampled
}

// regionRows returns a row for every region of the profile, costliest
// (exclusive time) first, regions that never ran last.
func regionRows(p *profile.Profile, threads []profile.Thread) []regionRow {
	col := map[int]int{}
	for i, t := range threads {
		col[t.Index] = i
	}
	rows := make([]regionRow, len(p.Regions))
	at := map[int]int{}
	for i := range p.Regions {
		r := &p.Regions[i]
		rows[i] = regionRow{ID: r.ID, Kind: r.Kind, Label: label(r), Where: where(r), Bars: make([]bar, len(threads))}
		rows[i].Search = strings.ToLower(rows[i].Label + " " + rows[i].Where)
		for j, t := range threads {
			rows[i].Bars[j].Thread = t.Path
		}
		at[r.ID] = i
	}
	bodies := map[int]uint64{}
	for i := range p.Stats {
		s := &p.Stats[i]
		ri, ok := at[s.Region]
		c, okc := col[s.Thread]
		if !ok || !okc {
			continue
		}
		row := &rows[ri]
		v, incl, excl, sampled := threadTime(&p.Regions[ri], s)
		row.Visits += v
		row.InclNs += incl
		row.ExclNs += excl
		row.Sampled = row.Sampled || sampled
		row.Bars[c].Ns += incl
		if s.Body != nil {
			bodies[s.Region] += s.Body.Visits
		}
	}
	for _, t := range p.Tasks {
		if ri, ok := at[t.Region]; ok {
			rows[ri].InclNs, rows[ri].Visits = t.ExecTotalNs(), t.Executed
			rows[ri].Sampled = rows[ri].Sampled || t.Exec.Timed < t.Executed
		}
	}
	for i := range rows {
		row := &rows[i]
		if row.Visits == 0 {
			row.Visits = bodies[row.ID] // a parallel region seen only by its team
		}
		var max, sum float64
		n := 0
		for _, b := range row.Bars {
			max = math.Max(max, b.Ns)
			sum += b.Ns
			if b.Ns > 0 {
				n++
			}
		}
		for j := range row.Bars {
			if max > 0 {
				row.Bars[j].Pct = math.Round(1000*row.Bars[j].Ns/max) / 10
			}
		}
		if max > 0 && n > 1 {
			row.Imbal = (max - sum/float64(n)) / max
		}
	}
	sort.SliceStable(rows, func(i, j int) bool {
		if rows[i].ExclNs != rows[j].ExclNs {
			return rows[i].ExclNs > rows[j].ExclNs
		}
		if (rows[i].Visits == 0) != (rows[j].Visits == 0) {
			return rows[j].Visits == 0
		}
		return rows[i].ID < rows[j].ID
	})
	return rows
}

// A balanceRow is one parallel region's load balance.
type balanceRow struct {
	ID           int
	Label, Where string
	LoadBalance  float64
	Rating       string
	Threads      []balanceBar
	MaxNs        float64
}

// A balanceBar is one thread of a parallel region: work and wait, as
// percentages of the region's longest thread.
type balanceBar struct {
	Thread           string
	BodyNs, WaitNs   float64
	BodyPct, WaitPct float64
}

func balanceRows(p *profile.Profile) []balanceRow {
	var out []balanceRow
	for _, b := range pop.Balances(p) {
		r := p.Region(b.Region)
		row := balanceRow{ID: b.Region, Label: label(r), Where: where(r), LoadBalance: b.LoadBalance, Rating: pop.Rating(b.LoadBalance)}
		var longest float64
		for _, t := range b.Threads {
			longest = math.Max(longest, t.BodyNs+t.WaitNs)
		}
		for _, t := range b.Threads {
			bb := balanceBar{Thread: t.Path, BodyNs: t.BodyNs, WaitNs: t.WaitNs}
			if longest > 0 {
				bb.BodyPct = math.Round(1000*t.BodyNs/longest) / 10
				bb.WaitPct = math.Round(1000*t.WaitNs/longest) / 10
			}
			row.Threads = append(row.Threads, bb)
		}
		row.MaxNs = b.MaxNs
		out = append(out, row)
	}
	return out
}

// dur formats nanoseconds.
func dur(ns float64) string { return model.Duration(ns) }
