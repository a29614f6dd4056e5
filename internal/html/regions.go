package html

import (
	"math"
	"sort"
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
		rows[i] = regionRow{ID: r.ID, Kind: r.Kind, Label: r.Label(), Where: r.Where(), Bars: make([]bar, len(threads))}
		rows[i].Search = strings.ToLower(rows[i].Label + " " + rows[i].Where)
		for j, t := range threads {
			rows[i].Bars[j].Thread = t.Path
		}
		at[r.ID] = i
	}
	for i := range p.Stats {
		s := &p.Stats[i]
		ri, ok := at[s.Region]
		c, okc := col[s.Thread]
		if !ok || !okc {
			continue
		}
		t := profile.TimeOn(&p.Regions[ri], s)
		rows[ri].Bars[c].Ns += t.InclNs
	}
	for id, t := range p.Times() {
		if ri, ok := at[id]; ok {
			row := &rows[ri]
			row.Visits, row.InclNs, row.ExclNs, row.Sampled, row.Imbal = t.Visits, t.InclNs, t.ExclNs, t.Sampled, t.Imbalance
		}
	}
	if in := p.Initial(); in.Visits > 0 {
		// The initial tasks' own code: with the regions' exclusive
		// times, the threads' whole time (as gopari report shows it).
		row := regionRow{Kind: "initial", Label: "initial task", Where: "serial code, outside every region",
			Visits: in.Visits, InclNs: in.InclNs, ExclNs: in.ExclNs, Bars: make([]bar, len(threads))}
		row.Search = strings.ToLower(row.Label + " " + row.Where)
		for j, t := range threads {
			row.Bars[j].Thread = t.Path
			if t.InitialNs > 0 {
				row.Bars[j].Ns = float64(p.WallNs)
			}
		}
		rows = append(rows, row)
	}
	for i := range rows {
		row := &rows[i]
		var longest float64
		for _, b := range row.Bars {
			longest = math.Max(longest, b.Ns)
		}
		for j := range row.Bars {
			if longest > 0 {
				row.Bars[j].Pct = math.Round(1000*row.Bars[j].Ns/longest) / 10
			}
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
		row := balanceRow{ID: b.Region, Label: r.Label(), Where: r.Where(), LoadBalance: b.LoadBalance, Rating: pop.Rating(b.LoadBalance)}
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
