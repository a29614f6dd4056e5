package report

// The report of a run killed before it wrote its profile (SIGKILL, the
// out-of-memory killer): what its event stream kept.

import (
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"gopari/internal/events"
	"gopari/internal/profile"
	"gopari/internal/salvage"
)

// WriteKilled prints the summary of a killed run's stream: what
// it is, what is missing, and per region what the stream holds.
func WriteKilled(w io.Writer, exp *events.Experiment, s *salvage.Summary, top int) {
	k := exp.Killed
	fmt.Fprintf(w, "gopari: NO PROFILE: %s (pid %d) ", exp.Program, exp.PID)
	switch {
	case k.ProfileTmp >= 0:
		fmt.Fprintf(w, "was killed while it wrote its profile (profile.json.tmp holds %d bytes of it)\n", k.ProfileTmp)
	case k.Info.Ended != "":
		fmt.Fprintf(w, "ended (%s) but wrote no profile (its stderr said why, or it was killed while writing it)\n", k.Info.Ended)
	default:
		fmt.Fprintf(w, "was killed before it wrote its profile (by SIGKILL, or by the system, e.g. out of memory)\n")
	}
	if ns := exp.Clock.Realtime0Ns; ns > 0 {
		fmt.Fprintf(w, "started %s", time.Unix(0, int64(ns)).UTC().Format("2006-01-02 15:04:05 UTC"))
		if len(k.Info.Args) > 0 {
			fmt.Fprintf(w, " with arguments %s", strings.Join(k.Info.Args, " "))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "What follows is PARTIAL: what its event stream (%s) kept, up to each thread's last complete block.\n", strings.Join(exp.Events.Kinds, ", "))
	blocks := 0
	for _, f := range k.Files {
		blocks += f.Blocks
	}
	fmt.Fprintf(w, "  kept:     %d complete block(s) in %d file(s) below %s: %d records, up to %.3f s into the run\n",
		blocks, len(k.Files), filepath.Join(exp.Dir, exp.Events.Dir), s.Records, s.EndNs/1e9)
	if len(s.Threads) > 1 {
		var b strings.Builder
		for i, t := range s.Threads {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "OS thread %d up to %.3f s", t.OS, t.EndNs/1e9)
		}
		fmt.Fprintf(w, "            %s\n", b.String())
	}
	fmt.Fprintf(w, "  missing:  each thread's last block, still in memory when the run ended (up to 256 KiB: 8,000 to 32,000 records),\n")
	fmt.Fprintf(w, "            and all it did after; the profile's counts and times of the whole run\n")
	if s.Dropped > 0 {
		fmt.Fprintf(w, "  dropped:  %d records the runtime could not write (GOPARI_TRACE_MAX_BYTES or a full disk)\n", s.Dropped)
	}
	for _, n := range exp.KilledNotes() {
		fmt.Fprintf(w, "  note:     %s\n", n)
	}
	if !exp.Events.Has("trace") {
		fmt.Fprintf(w, "  a grains stream holds tasks, taskloops, loop chunks, parallel regions and the waits of taskwait and taskgroup only\n")
	}
	writeKilledRegions(w, exp, s, top)
	writeKilledTasks(w, exp, s)
	writeKilledChunks(w, exp, s)
	dir := exp.Dir
	fmt.Fprintln(w)
	if exp.Events.Has("trace") {
		fmt.Fprintf(w, "  export it:  gopari trace --otf2 %s --perfetto %s %s\n", filepath.Join(dir, "otf2"), filepath.Join(dir, "trace.pftrace"), dir)
	}
	fmt.Fprintf(w, "  grains:     gopari grains --csv %s --dot %s %s\n", filepath.Join(dir, "grains.csv"), filepath.Join(dir, "grains.dot"), dir)
}

func writeKilledRegions(w io.Writer, exp *events.Experiment, s *salvage.Summary, top int) {
	type row struct {
		r      *profile.Region
		visits int64
		ns     float64
		open   int64
	}
	var rows []row
	for _, g := range s.Regions {
		r := exp.Region(g.ID)
		if r == nil {
			continue
		}
		v, ns := g.Visits(r.Kind)
		if v > 0 || g.Open > 0 {
			rows = append(rows, row{r, v, ns, g.Open})
		}
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].ns > rows[j].ns })
	fmt.Fprintf(w, "\nRegions in the stream (partial: visits begun and ended in it, their time summed over threads)\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "time ms\tvisits\topen\t  region\n")
	for i, x := range rows {
		if i == top {
			fmt.Fprintf(tw, "\t\t\t  (%d more; --top %d shows them)\n", len(rows)-top, len(rows))
			break
		}
		fmt.Fprintf(tw, "%.3f\t%d\t%d\t  %s  %s\n", x.ns/1e6, x.visits, x.open, x.r.Where(), x.r.Label())
	}
	tw.Flush()
	fmt.Fprintf(w, "open: begun and not ended in the stream; a parallel region's time is its implicit tasks', a task's its execution\n")
}

func writeKilledTasks(w io.Writer, exp *events.Experiment, s *salvage.Summary) {
	var any bool
	for _, g := range s.Regions {
		any = any || g.Created+g.Begun > 0
	}
	if !any {
		return
	}
	fmt.Fprintf(w, "\nTasks in the stream (partial)\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "created\tbegun\tcompleted\texec mean us\tcreate mean us\t  region\n")
	for _, g := range s.Regions {
		r := exp.Region(g.ID)
		if r == nil || g.Created+g.Begun == 0 {
			continue
		}
		fmt.Fprintf(tw, "%d\t%d\t%d\t%s\t%s\t  %s  %s\n", g.Created, g.Begun, g.Exec.N, mean(g.Exec), mean(g.Creations), r.Where(), r.Label())
	}
	tw.Flush()
	fmt.Fprintf(w, "created: creations begun in the stream; completed: instances begun and ended in it\n")
}

func writeKilledChunks(w io.Writer, exp *events.Experiment, s *salvage.Summary) {
	var rows []*salvage.Region
	for _, g := range s.Regions {
		if g.Chunks.N > 0 && exp.Region(g.ID) != nil {
			rows = append(rows, g)
		}
	}
	if len(rows) == 0 {
		return
	}
	fmt.Fprintf(w, "\nLoop chunks in the stream (partial)\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "chunks\tmean us\t  region\n")
	for _, g := range rows {
		r := exp.Region(g.ID)
		fmt.Fprintf(tw, "%d\t%s\t  %s  %s\n", g.Chunks.N, mean(g.Chunks), r.Where(), r.Label())
	}
	tw.Flush()
}

func mean(s salvage.Span) string {
	if s.N == 0 {
		return "-"
	}
	return us(s.Ns / float64(s.N))
}
