package main

import (
	"bytes"
	stdhtml "html"
	"math"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gopari/internal/html"
	"gopari/internal/job"
	"gopari/internal/profile"
	"gopari/internal/report"
	"gopari/internal/runtest"
)

// regionNumbers is what a view shows of a region: visits, exclusive and
// inclusive time in nanoseconds.
type regionNumbers struct {
	visits     uint64
	excl, incl float64
}

// TestViewsAgree renders one profile through every view that shows its
// regions — the text report, the HTML page, the merged report of a job
// of that one rank — and checks that they show the same visits and times
// for every region and for the initial tasks' own code (one owner:
// profile.Times). The profile is a real run of a little of everything,
// with tasks run in the closing barrier.
func TestViewsAgree(t *testing.T) {
	runtest.Tools(t)
	work := t.TempDir()
	exe := runtest.Build(t, work, "gcc", "views", filepath.Join("testdata", "views.c"))
	exp := runtest.Run(t, work, []string{"OMP_NUM_THREADS=2"}, exe)
	p, err := profile.Read(filepath.Join(exp, "profile.json"))
	if err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	report.Write(&text, p, 1000)
	views := map[string]map[string]regionNumbers{"text report": textRegions(t, text.String())}
	var page bytes.Buffer
	if err := html.Write(&page, html.Input{Profile: p, Dir: exp}); err != nil {
		t.Fatal(err)
	}
	views["HTML page"] = htmlRegions(t, page.String())
	m := job.Merge(&job.Job{Ranks: []job.Rank{{Rank: 0, Profile: p}}, Size: 1})
	views["job"] = map[string]regionNumbers{}
	for _, r := range m.Regions {
		where := where(&profile.Region{File: r.File, BeginLine: r.BeginLine, EndLine: r.EndLine})
		views["job"][where] = regionNumbers{r.Visits.Max, float64(r.ExclNs.Max), float64(r.InclNs.Max)}
	}
	// The truth they all show: profile.Times, and the initial tasks.
	want := map[string]regionNumbers{}
	for id, tm := range p.Times() {
		if tm.Visits > 0 {
			r := p.Region(id)
			want[where(r)] = regionNumbers{tm.Visits, tm.ExclNs, tm.InclNs}
		}
	}
	in := p.Initial()
	if in.Visits == 0 || in.ExclNs < 1e6 {
		t.Errorf("the initial task's own time is %.3f ms, the program spins before and after its parallel region", in.ExclNs/1e6)
	}
	close := func(a, b float64) bool { return math.Abs(a-b) <= 1e3+1e-5*math.Abs(b) }
	for view, rows := range views {
		for where, w := range want {
			got, ok := rows[where]
			switch {
			case !ok:
				t.Errorf("%s: no row for %s", view, where)
			case got.visits != w.visits || !close(got.excl, w.excl) || !close(got.incl, w.incl):
				t.Errorf("%s: %s: %d visits, excl %.0f ns, incl %.0f ns; the profile's: %d, %.0f, %.0f",
					view, where, got.visits, got.excl, got.incl, w.visits, w.excl, w.incl)
			}
		}
		if view == "job" {
			if len(rows) != len(want) {
				t.Errorf("%s: %d rows, the profile has %d regions that ran", view, len(rows), len(want))
			}
			continue
		}
		if got, ok := rows["initial"]; !ok || got.visits != in.Visits || !close(got.excl, in.ExclNs) || !close(got.incl, in.InclNs) {
			t.Errorf("%s: the initial tasks' row %+v (found %v), want %+v", view, got, ok, in)
		}
		if len(rows) != len(want)+1 {
			t.Errorf("%s: %d rows, the profile has %d regions that ran and the initial tasks", view, len(rows), len(want))
		}
	}
	if t.Failed() {
		t.Logf("the text report:\n%s", text.String())
	}
}

// htmlRegions parses the region table of the HTML page.
func htmlRegions(t *testing.T, page string) map[string]regionNumbers {
	t.Helper()
	rows := map[string]regionNumbers{}
	re := regexp.MustCompile(`<tr data-search="[^"]*">\s*<td data-v="([^"]*)"><span class="kind">[^<]*</span></td><td data-v="([^"]*)">[^<]*</td>\s*` +
		`<td data-v="(\d+)">\d+</td>\s*<td data-v="([^"]*)">[^<]*</td>\s*<td data-v="([^"]*)">`)
	for _, m := range re.FindAllStringSubmatch(page, -1) {
		v, _ := strconv.ParseUint(m[3], 10, 64)
		ex, _ := strconv.ParseFloat(stdhtml.UnescapeString(m[4]), 64)
		inc, _ := strconv.ParseFloat(stdhtml.UnescapeString(m[5]), 64)
		key := stdhtml.UnescapeString(m[2])
		if m[1] == "initial task" {
			key = "initial"
		}
		rows[key] = regionNumbers{v, ex, inc}
	}
	if len(rows) == 0 {
		t.Fatal("no region rows in the page")
	}
	return rows
}

// textRegions parses the regions table of gopari report.
func textRegions(t *testing.T, out string) map[string]regionNumbers {
	t.Helper()
	rows := map[string]regionNumbers{}
	in := false
	re := regexp.MustCompile(`^~?\s*([0-9.]+)\s+([0-9.]+)\s+(\d+)\s+(\S+)`)
	for _, l := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(l, "Regions by exclusive time"):
			in = true
		case in && strings.TrimSpace(l) == "":
			in = false
		case in:
			m := re.FindStringSubmatch(l)
			if m == nil {
				continue
			}
			ex, _ := strconv.ParseFloat(m[1], 64)
			inc, _ := strconv.ParseFloat(m[2], 64)
			v, _ := strconv.ParseUint(m[3], 10, 64)
			rows[m[4]] = regionNumbers{v, ex * 1e6, inc * 1e6}
		}
	}
	return rows
}
