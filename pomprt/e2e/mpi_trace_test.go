//go:build otf2

package e2e

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"gopari/internal/chrome"
	"gopari/internal/profile"
)

var (
	otf2GopariOnce sync.Once
	otf2Gopari     string
	otf2GopariErr  error
)

// gopariOTF2 builds gopari with OTF2 support, once.
func gopariOTF2(t *testing.T) string {
	t.Helper()
	otf2GopariOnce.Do(func() {
		otf2Gopari = filepath.Join(libDir, "gopari-otf2")
		out, err := exec.Command("go", "build", "-tags", "otf2", "-o", otf2Gopari, "../../cmd/gopari").CombinedOutput()
		if err != nil {
			otf2GopariErr = fmt.Errorf("building gopari with OTF2: %v\n%s", err, out)
		}
	})
	if otf2GopariErr != nil {
		t.Fatal(otf2GopariErr)
	}
	return otf2Gopari
}

// TestHybridTrace records hybrid.c as 2 ranks with GOPARI_MODE=trace and
// exports the job: one OTF2 archive that otf2-print reads without a
// warning, with a location group per rank holding that rank's threads,
// whose records per rank are what the rank's profile counts (task
// creations, forks, implicit tasks, MPI calls); and one Chrome trace with
// a process per rank that chrome.Check accepts.
func TestHybridTrace(t *testing.T) {
	if _, err := exec.LookPath("otf2-print"); err != nil {
		t.Skip("otf2-print not installed (Debian otf2-tools)")
	}
	p := buildMPI(t, "hybrid.c", "-fopenmp")
	dir := t.TempDir()
	if got := mpirun(t, dir, 2, []string{"-x", "GOPARI_MODE=trace"}, p.inst, "2"); got.code != 0 {
		t.Fatalf("mpirun: exit %d\n%s", got.code, got.stderr)
	}
	jobs := jobDirs(t, dir)
	if len(jobs) != 1 {
		t.Fatalf("job directories %v", jobs)
	}
	jd := jobs[0]
	out, js := filepath.Join(t.TempDir(), "otf2"), filepath.Join(t.TempDir(), "job.json")
	cmd := exec.Command(gopariOTF2(t), "trace", "--otf2", out, "--chrome", js, jd)
	if b, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(b), "of 2 ranks") {
		t.Fatalf("gopari trace: %v\n%s", err, b)
	}
	otf2Print(t, out, "-A")
	rankOf := locationRanks(t, otf2Print(t, out, "-G"))
	got := countByRank(t, otf2Print(t, out), rankOf)
	for r := 0; r < 2; r++ {
		prof, err := profile.Read(filepath.Join(jd, fmt.Sprintf("rank-%05d", r), "profile.json"))
		if err != nil {
			t.Fatal(err)
		}
		created, executed := tasksCreated(prof)
		var mpi uint64
		for _, calls := range mpiCalls(prof) {
			for _, c := range calls {
				mpi += c.visits
			}
		}
		want := map[string]uint64{
			"THREAD_TASK_CREATE":   created,
			"THREAD_TASK_COMPLETE": executed,
			"THREAD_FORK":          visits(prof, "parallel", "construct"),
			"THREAD_TEAM_BEGIN":    visits(prof, "parallel", "body"),
			"ENTER MPI":            mpi,
		}
		for k, v := range want {
			if got[r][k] != v || v == 0 {
				t.Errorf("rank %d: %d %s records, the profile says %d", r, got[r][k], k, v)
			}
		}
	}
	f, err := os.Open(js)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sum, err := chrome.Check(f)
	if err != nil {
		t.Fatalf("Chrome JSON: %v", err)
	}
	if sum.Flows != 2*3*8 {
		t.Errorf("%d flows, want %d (3 rounds of 8 tasks on 2 ranks)", sum.Flows, 2*3*8)
	}
}

// locationRanks reads otf2-print -G's locations and location groups and
// returns each location's rank.
func locationRanks(t *testing.T, defs []byte) map[string]int {
	t.Helper()
	groups := regexp.MustCompile(`(?m)^LOCATION_GROUP +\d+ +Name: "MPI rank (\d+) \(pid \d+\)"`).FindAllSubmatch(defs, -1)
	if len(groups) != 2 || string(groups[0][1]) != "0" || string(groups[1][1]) != "1" {
		t.Fatalf("location groups %q, want MPI ranks 0 and 1\n%s", groups, defs)
	}
	out := map[string]int{}
	for _, m := range regexp.MustCompile(`(?m)^LOCATION +(\d+) +Name: "thread [0-9.]+".*Group: "MPI rank (\d+) `).FindAllSubmatch(defs, -1) {
		out[string(m[1])], _ = strconv.Atoi(string(m[2]))
	}
	if len(out) == 0 {
		t.Fatalf("no locations\n%s", defs)
	}
	return out
}

// countByRank counts otf2-print's records by type and rank; "ENTER MPI"
// counts the ENTER records of MPI regions.
func countByRank(t *testing.T, evs []byte, rankOf map[string]int) map[int]map[string]uint64 {
	t.Helper()
	out := map[int]map[string]uint64{0: {}, 1: {}}
	line := regexp.MustCompile(`^([A-Z_]+) +(\d+) +\d+ *(.*)`)
	sc := bufio.NewScanner(bytes.NewReader(evs))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		m := line.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		r, ok := rankOf[m[2]]
		if !ok {
			t.Fatalf("a record of location %s, which no rank has: %s", m[2], sc.Text())
		}
		out[r][m[1]]++
		if m[1] == "ENTER" && strings.HasPrefix(m[3], `Region: "MPI_`) {
			out[r]["ENTER MPI"]++
		}
	}
	return out
}
