package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gopari/internal/job"
	"gopari/internal/profile"
)

// TestMPIEndings ends a job of 2 ranks of 2 threads (testdata/mpiend.c)
// while rank 0 is blocked in an MPI call that rank 1 never matches:
// abort-recv, rank 1 calls MPI_Abort while rank 0 waits in MPI_Recv, and
// mpirun ends rank 0 with SIGTERM; kill-finalize, rank 1 sends rank 0
// SIGTERM while rank 0 waits in MPI_Finalize for it, then waits in
// MPI_Recv until mpirun ends it too. mpirun's exit status and the ranks'
// lines are the uninstrumented program's. Rank 0's profile keeps its
// blocking call: one visit, lasting at least about as long as rank 1
// slept before it ended the job, by the program's own clock (from just
// before the call to rank 1's end), and at most until rank 0's profile
// was written. Rank 1's profile says how it ended (MPI_Abort, or SIGTERM
// with its MPI_Recv visited once) and holds what it did: its team and
// tasks, MPI_Init, MPI_Bcast and its last call once each. The job report
// lists both ranks with their exits.
func TestMPIEndings(t *testing.T) {
	p := buildMPI(t, "mpiend.c", "-fopenmp")
	for _, tc := range []mpiEnding{
		{name: "abort-recv", call: "MPI_Recv", last1: "MPI_Abort", exit1: "MPI_Abort", code: 3},
		{name: "kill-finalize", call: "MPI_Finalize", last1: "MPI_Recv", exit1: "SIGTERM", code: 128 + 15},
	} {
		tc := tc
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // mostly waiting for mpirun's signals
			checkEnding(t, p, tc)
		})
	}
}

// An mpiEnding is a case of mpiend.c: the call rank 0 blocks in, rank
// 1's last MPI call and how its run ends, and mpirun's exit status.
type mpiEnding struct {
	name, call, last1, exit1 string
	code                     int
}

// checkEnding runs case tc of mpiend.c, uninstrumented and instrumented,
// and checks the ranks' profiles and the job report.
func checkEnding(t *testing.T, p program, tc mpiEnding) {
	const sleepMs, tasks = 500, 10 // as passed to and in mpiend.c
	// Open MPI 4.1 sends SIGTERM odls_base_sigkill_timeout - 1 s after a
	// rank ends the job, and SIGKILL as long after that: 2 s for a rank
	// to write its profile.
	extra := []string{"--mca", "odls_base_sigkill_timeout", "2",
		// Two mpiruns that start at once may race to make the same
		// session directory: each gets its own.
		"--mca", "orte_tmpdir_base", t.TempDir()}
	want := mpirun(t, t.TempDir(), 2, extra, p.orig, tc.name, strconv.Itoa(sleepMs))
	dir := t.TempDir()
	extra[len(extra)-1] = t.TempDir()
	got := mpirun(t, dir, 2, extra, p.inst, tc.name, strconv.Itoa(sleepMs))
	if sortedLines(got.stdout) != sortedLines(want.stdout) || got.code != want.code || want.code != tc.code {
		t.Fatalf("instrumented printed %q (exit %d), original %q (exit %d), want exit %d\ninstrumented's stderr:\n%s\noriginal's:\n%s",
			got.stdout, got.code, want.stdout, want.code, tc.code, got.stderr, want.stderr)
	}
	jobs := jobDirs(t, dir)
	if len(jobs) != 1 {
		t.Fatalf("job directories %v, want one", jobs)
	}
	var profs [2]*profile.Profile
	for r := range profs {
		prof, err := profile.Read(filepath.Join(jobs[0], fmt.Sprintf("rank-%05d", r), "profile.json"))
		if err != nil {
			t.Fatalf("%v\n%s", err, got.stderr)
		}
		profs[r] = prof
	}
	checkInterruptedCall(t, profs[0], tc.call, dir)
	if profs[1].Exit != tc.exit1 {
		t.Errorf("rank 1's exit %q, want %s", profs[1].Exit, tc.exit1)
	}
	wantCalls := map[string]map[string]call{"0": {"MPI_Init": {1, 0, 0}, "MPI_Bcast": {1, 0, 0}, tc.last1: {1, 0, 0}}}
	if c := mpiCalls(profs[1]); fmt.Sprint(c) != fmt.Sprint(wantCalls) {
		t.Errorf("rank 1's MPI calls\n got %v\nwant %v", c, wantCalls)
	}
	for r, prof := range profs {
		if created, executed := tasksCreated(prof); created != tasks || executed != tasks || visits(prof, "parallel", "construct") != 1 {
			t.Errorf("rank %d created %d and executed %d tasks in %d parallel regions, want %d in 1",
				r, created, executed, visits(prof, "parallel", "construct"), tasks)
		}
		checkInvariants(t, prof)
	}
	checkEndingsReport(t, jobs[0], [2]string{profs[0].Exit, profs[1].Exit})
}

// checkInterruptedCall checks rank 0's blocking call against the times
// the ranks wrote into dir (mpiend.c): from just before the call to rank
// 1's end (less half: a thread preempted between its clock and the call
// is late), and at most to the end of rank 0's profile.
func checkInterruptedCall(t *testing.T, p *profile.Profile, name, dir string) {
	t.Helper()
	if p.Exit != "SIGTERM" {
		t.Errorf("rank 0's exit %q, want SIGTERM", p.Exit)
	}
	callNs, endNs := noteTime(t, dir, 0, "call"), noteTime(t, dir, 1, "end")
	var visits, incl uint64
	for _, s := range p.Stats {
		if r := p.Region(s.Region); r.Kind == "mpi" && r.Name == name && s.Construct != nil {
			visits += s.Construct.Visits
			incl += s.Construct.InclNs
		}
	}
	low := (endNs - callNs) / 2
	high := p.Clock.Realtime0Ns + p.WallNs - callNs
	high += high/100 + 5e6 // the clocks' rates
	if visits != 1 || incl < low || incl > high {
		t.Errorf("rank 0's %s: %d visits, %.1f ms; want 1 visit of %.1f to %.1f ms (it began %.1f ms before rank 1 ended the job)",
			name, visits, float64(incl)/1e6, float64(low)/1e6, float64(high)/1e6, float64(endNs-callNs)/1e6)
	}
}

// noteTime returns the time that rank wrote with what into dir/rank-N.txt.
func noteTime(t *testing.T, dir string, rank int, what string) uint64 {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("rank-%d.txt", rank)))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, what+" "); ok {
			if n, err := strconv.ParseUint(v, 10, 64); err == nil {
				return n
			}
		}
	}
	t.Fatalf("rank %d wrote no %q time: %q", rank, what, b)
	return 0
}

// checkEndingsReport checks that gopari report lists both ranks of the
// job in jd with their exits, in text and JSON.
func checkEndingsReport(t *testing.T, jd string, exits [2]string) {
	t.Helper()
	out, err := exec.Command(gopariCommand(t), "report", jd).CombinedOutput()
	ok := err == nil && strings.Contains(string(out), "2 of 2 ranks wrote a profile")
	for r, e := range exits {
		ok = ok && regexp.MustCompile(fmt.Sprintf(`(?m)^ +%d +%s +[0-9]`, r, e)).Match(out)
	}
	if !ok {
		t.Errorf("gopari report lists the ranks without their exits %v: %v\n%s", exits, err, out)
	}
	b, err := exec.Command(gopariCommand(t), "report", "--json", jd).Output()
	var m job.Merged
	if err == nil {
		err = json.Unmarshal(b, &m)
	}
	if err != nil || len(m.Ranks) != 2 || m.Ranks[0].Exit != exits[0] || m.Ranks[1].Exit != exits[1] {
		t.Errorf("merged JSON: %v, ranks %+v", err, m.Ranks)
	}
}

// sortedLines returns the lines of s sorted: ranks print in any order.
func sortedLines(s string) string {
	l := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	slices.Sort(l)
	return strings.Join(l, "\n")
}
