package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"gopari/internal/job"
	"gopari/internal/profile"
)

// Hybrid MPI + OpenMP end to end (issue 16): testdata/hybrid.c built
// through gopari cc mpicc, run by mpirun over loopback, its job
// directory and merged report checked against counts known by
// construction.

var (
	mpiOnce   sync.Once
	mpiPrefix string
	mpiErr    error
)

// needMPI skips without Open MPI's mpicc and mpirun, and returns a
// prefix for GOPARI_PREFIX holding pomp.h, the test's libpomp.a and a
// libpomp_mpi.a built here.
func needMPI(t *testing.T) string {
	t.Helper()
	needTools(t)
	for _, tool := range []string{"mpicc", "mpirun"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("MPI tests: %s not installed (Debian: openmpi-bin, libopenmpi-dev)", tool)
		}
	}
	mpiOnce.Do(func() {
		dir := filepath.Join(libDir, "mpi")
		if mpiErr = makePrefix(dir); mpiErr != nil {
			return
		}
		ar := []string{"ar", "rcs", filepath.Join(dir, "lib", "libpomp_mpi.a")}
		var steps [][]string
		for _, src := range []string{"pomp_mpi", "pomp_mpi_f", "pomp_mpi_f08"} { // C, mpif.h, mpi_f08
			obj := filepath.Join(dir, src+".o")
			steps = append(steps, []string{"mpicc", "-O2", "-Wall", "-Wextra", "-Werror", "-I", "..", "-c", "../mpi/" + src + ".c", "-o", obj})
			ar = append(ar, obj)
		}
		for _, argv := range append(steps, ar) {
			if out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput(); err != nil {
				mpiErr = fmt.Errorf("%s: %v\n%s", strings.Join(argv, " "), err, out)
				return
			}
		}
		mpiPrefix = dir
	})
	if mpiErr != nil {
		t.Fatal(mpiErr)
	}
	return mpiPrefix
}

// buildMPI builds testdata/name with mpicc, uninstrumented and through
// gopari cc mpicc, with the compiler under mpicc as env chooses
// (OMPI_CC) and its OpenMP flag.
func buildMPI(t *testing.T, name string, openmp string, env ...string) program {
	t.Helper()
	prefix := needMPI(t)
	dir := t.TempDir()
	base := strings.TrimSuffix(name, filepath.Ext(name))
	p := program{name: name, orig: filepath.Join(dir, base+".orig"), inst: filepath.Join(dir, base)}
	src, _ := filepath.Abs(filepath.Join("testdata", name))
	for _, argv := range [][]string{
		{"mpicc", openmp, "-O2", src, "-o", p.orig},
		{gopariCommand(t), "cc", "mpicc", openmp, "-O2", src, "-o", p.inst},
	} {
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Env = append(append(os.Environ(), "GOPARI_PREFIX="+prefix), env...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(argv, " "), err, out)
		}
	}
	return p
}

// mpirun runs exe as np ranks of 2 threads in dir, over loopback only.
func mpirun(t *testing.T, dir string, np int, extra []string, exe string, args ...string) result {
	t.Helper()
	argv := []string{"-np", strconv.Itoa(np), "--oversubscribe",
		"--mca", "btl", "self,vader,tcp", "--mca", "btl_tcp_if_include", "lo", "--mca", "oob_tcp_if_include", "lo"}
	if os.Getuid() == 0 {
		argv = append(argv, "--allow-run-as-root")
	}
	argv = append(append(append(argv, extra...), exe), args...)
	ctx, cancel := context.WithTimeout(context.Background(), 2*runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "mpirun", argv...)
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var hang string
	cmd.Cancel = func() error {
		// Open MPI starts the ranks outside mpirun's process group: a
		// hung rank would outlive the test. The program's path is the
		// test's own.
		hang = hangReportOf(exe)
		exec.Command("pkill", "-KILL", "-f", "^"+regexp.QuoteMeta(exe)).Run()
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	cmd.WaitDelay = time.Second
	var env []string
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "GOPARI_") && !strings.HasPrefix(e, "OMPI_") && !strings.HasPrefix(e, "PMIX_") {
			env = append(env, e)
		}
	}
	cmd.Env = append(env, "OMP_NUM_THREADS=2")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("mpirun %v did not finish in %v\n%s\nits ranks' threads then:\n%s", argv, 2*runTimeout, errb.String(), hang)
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("mpirun: %v", err)
	}
	return result{stdout: out.String(), stderr: errb.String(), code: code}
}

// jobDirs returns the job directories in dir.
func jobDirs(t *testing.T, dir string) []string {
	t.Helper()
	matches, _ := filepath.Glob(filepath.Join(dir, "gopari-*"))
	return matches
}

// rankDirs returns the names of the rank directories in a job's.
func rankDirs(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "rank-") {
			out = append(out, e.Name())
		}
	}
	sort.Strings(out)
	return out
}

// A call is what one thread's calls of one MPI function add up to.
type call struct{ visits, messages, bytes uint64 }

// mpiCalls returns a rank's MPI calls by thread path and function.
func mpiCalls(p *profile.Profile) map[string]map[string]call {
	out := map[string]map[string]call{}
	for _, s := range p.Stats {
		r := p.Region(s.Region)
		if r.Kind != "mpi" || s.Construct == nil {
			continue
		}
		path := p.Threads[s.Thread].Path
		if out[path] == nil {
			out[path] = map[string]call{}
		}
		c := out[path][r.Name]
		c.visits += s.Construct.Visits
		c.messages += s.Messages
		c.bytes += s.Bytes
		out[path][r.Name] = c
	}
	return out
}

// TestHybrid runs testdata/hybrid.c as 2 and 3 ranks of 2 threads: the
// output is the uninstrumented program's, one job directory holds one
// profile per rank, the MPI calls per rank and thread, the bytes sent
// and the OpenMP visits are exact, and the merged report's minimum, mean
// and maximum over ranks are those of the rank profiles.
func TestHybrid(t *testing.T) {
	p := buildMPI(t, "hybrid.c", "-fopenmp")
	runHybrid(t, p, []int{2, 3})
}

// TestHybridClang builds testdata/hybrid.c with clang and libomp under
// mpicc (OMPI_CC) and runs it as 2 ranks.
func TestHybridClang(t *testing.T) {
	needMPI(t)
	var clang *compiler
	for i := range compilers {
		if strings.HasPrefix(compilers[i].name, "clang") {
			clang = &compilers[i]
		}
	}
	if clang == nil {
		t.Skip("OMPI_CC test: clang with libomp not installed")
	}
	p := buildMPI(t, "hybrid.c", clang.openmp[0], "OMPI_CC="+clang.cc)
	runHybrid(t, p, []int{2})
}

// runHybrid runs hybrid.c as each number of ranks and checks it.
func runHybrid(t *testing.T, p program, ranks []int) {
	t.Helper()
	const rounds, tasks, ring, nt = 3, 8, 16, 2 // as in hybrid.c; nt is its argument
	for _, np := range ranks {
		want := mpirun(t, t.TempDir(), np, nil, p.orig, strconv.Itoa(nt))
		dir := t.TempDir()
		got := mpirun(t, dir, np, nil, p.inst, strconv.Itoa(nt))
		if got.stdout != want.stdout || got.code != 0 || want.code != 0 || want.stdout == "" {
			t.Fatalf("np %d: instrumented printed %q (exit %d), original %q (exit %d)\n%s", np, got.stdout, got.code, want.stdout, want.code, got.stderr)
		}
		jobs := jobDirs(t, dir)
		if len(jobs) != 1 || !strings.Contains(filepath.Base(jobs[0]), "-ompi-") {
			t.Fatalf("np %d: job directories %v, want one gopari-hybrid-ompi-JOB", np, jobs)
		}
		jd := jobs[0]
		var wantRanks []string
		for r := 0; r < np; r++ {
			wantRanks = append(wantRanks, fmt.Sprintf("rank-%05d", r))
		}
		if got := rankDirs(t, jd); strings.Join(got, " ") != strings.Join(wantRanks, " ") {
			t.Fatalf("np %d: rank directories %v, want %v", np, got, wantRanks)
		}
		var profiles []*profile.Profile
		for r := 0; r < np; r++ {
			prof, err := profile.Read(filepath.Join(jd, wantRanks[r], "profile.json"))
			if err != nil {
				t.Fatal(err)
			}
			profiles = append(profiles, prof)
			checkHybridRank(t, np, r, prof, rounds, tasks, ring, nt)
		}
		checkMerged(t, jd, profiles)
	}
}

// checkHybridRank checks the counts of one rank of hybrid.c.
func checkHybridRank(t *testing.T, np, rank int, prof *profile.Profile, rounds, tasks, ring, nt uint64) {
	t.Helper()
	what := fmt.Sprintf("np %d, rank %d", np, rank)
	if prof.MPI == nil || prof.MPI.Rank != rank || prof.MPI.Size != np || prof.MPI.Launcher != "Open MPI" {
		t.Errorf("%s: the profile says %+v", what, prof.MPI)
	}
	// The initial thread's calls, and those of each thread of the
	// MPI_THREAD_MULTIPLE region (threads 0.0 and 0.1).
	want := map[string]map[string]call{"0": {
		"MPI_Init_thread": {1, 0, 0},
		"MPI_Allreduce":   {rounds, 0, rounds * 8},
		"MPI_Sendrecv":    {rounds, rounds, rounds * ring * 4},
		"MPI_Barrier":     {rounds, 0, 0},
		"MPI_Gather":      {1, 0, 8},
		"MPI_Finalize":    {1, 0, 0},
	}}
	var sent uint64
	for _, c := range want["0"] {
		sent += c.bytes
	}
	for th := uint64(0); th < nt; th++ {
		b := rounds * (th + 1) * 4
		want["0."+strconv.FormatUint(th, 10)] = map[string]call{
			"MPI_Isend": {rounds, rounds, b},
			"MPI_Recv":  {rounds, 0, 0},
			"MPI_Wait":  {rounds, 0, 0},
		}
		sent += b
	}
	got := mpiCalls(prof)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s: MPI calls by thread\n got %v\nwant %v", what, got, want)
	}
	var bytes uint64
	for _, s := range prof.Stats {
		bytes += s.Bytes
	}
	if bytes != sent {
		t.Errorf("%s: %d bytes sent, want %d", what, bytes, sent)
	}
	// OpenMP: per round a parallel loop (2 threads), a region with TASKS
	// tasks and the region of nt threads.
	if created, executed := tasksCreated(prof); created != rounds*tasks || executed != rounds*tasks {
		t.Errorf("%s: %d tasks created, %d executed, want %d", what, created, executed, rounds*tasks)
	}
	if got, want := visits(prof, "parallel", "construct"), 3*rounds; got != want {
		t.Errorf("%s: %d parallel regions, want %d", what, got, want)
	}
	if got, want := visits(prof, "parallel", "body"), rounds*(2+2+nt); got != want {
		t.Errorf("%s: %d implicit tasks, want %d", what, got, want)
	}
	if got, want := visits(prof, "for", "construct"), rounds*2; got != want {
		t.Errorf("%s: for visited %d times, want %d", what, got, want)
	}
	if prof.UnmatchedEvents != 0 {
		t.Errorf("%s: %d unmatched events", what, prof.UnmatchedEvents)
	}
	checkInvariants(t, prof)
}

// checkMerged checks gopari report on the job: the text names every
// rank, and the merged JSON's spreads over ranks (inclusive and exclusive
// time, visits) and each rank's OpenMP and MPI time are the ones computed
// here from the rank profiles, after the definitions of the README; then
// --rank and a damaged rank.
func checkMerged(t *testing.T, jd string, profiles []*profile.Profile) {
	t.Helper()
	out, err := exec.Command(gopariCommand(t), "report", jd).CombinedOutput()
	if err != nil || !strings.Contains(string(out), fmt.Sprintf("%d of %d ranks wrote a profile", len(profiles), len(profiles))) {
		t.Errorf("gopari report %s: %v\n%s", jd, err, out)
	}
	m := mergedJSON(t, jd)
	if m.Format != job.Format || len(m.Ranks) != len(profiles) || len(m.Missing) != 0 || len(m.Damaged) != 0 {
		t.Fatalf("merged: format %q, %d ranks, missing %v, damaged %v", m.Format, len(m.Ranks), m.Missing, m.Damaged)
	}
	want := rankTimes(t, profiles)
	if len(m.Regions) != len(want.incl) {
		t.Errorf("merged: %d regions, the ranks have %d", len(m.Regions), len(want.incl))
	}
	for _, mr := range m.Regions {
		k := regionKey{mr.Kind, mr.Name, mr.File, mr.BeginLine}
		for _, c := range []struct {
			what   string
			got    job.Spread
			values []uint64
		}{{"incl_ns", mr.InclNs, want.incl[k]}, {"excl_ns", mr.ExclNs, want.excl[k]}, {"visits", mr.Visits, want.visits[k]}} {
			if w := spreadOf(c.values); c.got != w {
				t.Errorf("%v %s: merged %+v, from the ranks %+v", k, c.what, c.got, w)
			}
		}
	}
	for r, rs := range m.Ranks {
		if rs.OpenMPNs != want.openMP[r] || rs.MPINs != want.mpi[r] || rs.OpenMPNs == 0 || rs.MPINs == 0 {
			t.Errorf("rank %d: openmp_ns %d, mpi_ns %d; from its profile %d and %d", r, rs.OpenMPNs, rs.MPINs, want.openMP[r], want.mpi[r])
		}
	}
	checkRankFlag(t, jd, len(profiles))
	checkDamagedRank(t, jd, len(profiles))
}

func mergedJSON(t *testing.T, jd string) job.Merged {
	t.Helper()
	b, err := exec.Command(gopariCommand(t), "report", "--json", jd).Output()
	if err != nil {
		t.Fatalf("gopari report --json: %v", err)
	}
	var m job.Merged
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	// Every field the merged report writes carries data: a field that is
	// always null tells a script nothing.
	var top map[string]json.RawMessage
	if err := json.Unmarshal(b, &top); err != nil {
		t.Fatal(err)
	}
	for k, v := range top {
		if string(v) == "null" {
			t.Errorf("gopari report --json %s: %q is null", jd, k)
		}
	}
	return m
}

type regionKey struct {
	kind, name, file string
	line             int
}

// perRank holds, per region, a value for every rank, and per rank its
// OpenMP and MPI time.
type perRank struct {
	incl, excl, visits map[regionKey][]uint64
	openMP, mpi        []uint64
}

// rankTimes computes, independently of internal/job, what the merged
// report says of each region on each rank: a parallel region's time is
// its team's (the encountering thread's fork and join, exclusive; the
// implicit tasks; the closing-barrier waits), its visits its forks; a
// worksharing construct's includes its barrier; an MPI call's is the
// call. OpenMP time is the exclusive time of all but MPI calls and user
// regions.
func rankTimes(t *testing.T, profiles []*profile.Profile) perRank {
	n := len(profiles)
	w := perRank{incl: map[regionKey][]uint64{}, excl: map[regionKey][]uint64{}, visits: map[regionKey][]uint64{},
		openMP: make([]uint64, n), mpi: make([]uint64, n)}
	for r, p := range profiles {
		bodies := map[regionKey]uint64{}
		for _, s := range p.Stats {
			reg := p.Region(s.Region)
			k := regionKey{reg.Kind, reg.Name, reg.File, reg.BeginLine}
			if w.incl[k] == nil {
				w.incl[k], w.excl[k], w.visits[k] = make([]uint64, n), make([]uint64, n), make([]uint64, n)
			}
			var incl, excl, vis uint64
			if c := s.Construct; c != nil {
				incl, excl, vis = c.InclNs, c.ExclNs, c.Visits
			}
			switch reg.Kind {
			case "parallel":
				incl = excl // fork to join, less the implicit task it ran
				if s.Body != nil {
					incl += s.Body.InclNs
					excl += s.Body.ExclNs
					bodies[k] += s.Body.Visits
				}
			case "taskloop":
				t.Fatalf("%v: hybrid.c has no taskloop; this check does not cover one", k)
			default:
				// A construct's exclusive time holds its body's own
				// code and a taskgroup's wait at its end.
				for _, ph := range []*profile.Phase{s.Body, s.Wait} {
					if ph != nil {
						excl += ph.ExclNs
					}
				}
			}
			if b := s.Barrier; b != nil && reg.Kind != "mpi" && reg.Kind != "user" {
				incl += b.InclNs
				excl += b.ExclNs
			}
			w.incl[k][r] += incl
			w.excl[k][r] += excl
			w.visits[k][r] += vis
			switch reg.Kind {
			case "mpi":
				w.mpi[r] += incl
			case "user":
			default:
				w.openMP[r] += excl
			}
		}
		for k, b := range bodies {
			if w.visits[k][r] == 0 {
				w.visits[k][r] = b
			}
		}
	}
	return w
}

// spreadOf is the minimum, mean and maximum of values and the first
// rank with the maximum.
func spreadOf(values []uint64) job.Spread {
	var s job.Spread
	var sum uint64
	for r, v := range values {
		sum += v
		if r == 0 || v < s.Min {
			s.Min = v
		}
		if r == 0 || v > s.Max {
			s.Max, s.MaxRank = v, r
		}
	}
	s.Mean = float64(sum) / float64(len(values))
	return s
}

// checkRankFlag runs gopari report --rank: rank 1 alone in text, its own
// profile with --json, and a rank the job does not have.
func checkRankFlag(t *testing.T, jd string, np int) {
	t.Helper()
	g := gopariCommand(t)
	out, err := exec.Command(g, "report", "--rank", "1", jd).CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "rank 1 of job ompi-") || !strings.Contains(string(out), "Regions by exclusive time") ||
		!regexp.MustCompile(`MPI  mpi \(MPI_Sendrecv\)`).Match(out) {
		t.Errorf("gopari report --rank 1: %v\n%s", err, out)
	}
	b, err := exec.Command(g, "report", "--rank", "1", "--json", jd).Output()
	own, _ := os.ReadFile(filepath.Join(jd, "rank-00001", "profile.json"))
	if err != nil || !bytes.Equal(b, own) {
		t.Errorf("gopari report --rank 1 --json: %v; not rank 1's profile.json", err)
	}
	cmd := exec.Command(g, "report", "--rank", strconv.Itoa(np), jd)
	out, err = cmd.CombinedOutput()
	if cmd.ProcessState.ExitCode() != 1 || !strings.Contains(string(out), fmt.Sprintf("no rank %d", np)) {
		t.Errorf("gopari report --rank %d: %v\n%s", np, err, out)
	}
}

// checkDamagedRank copies the job and cuts rank 1's profile in the
// middle: the report merges the others and names the damaged rank.
func checkDamagedRank(t *testing.T, jd string, np int) {
	t.Helper()
	cp := filepath.Join(t.TempDir(), filepath.Base(jd))
	if out, err := exec.Command("cp", "-r", jd, cp).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v\n%s", err, out)
	}
	if err := os.Truncate(filepath.Join(cp, "rank-00001", "profile.json"), 200); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(gopariCommand(t), "report", cp).CombinedOutput()
	if err != nil || !strings.Contains(string(out), fmt.Sprintf("%d of %d ranks wrote a profile", np-1, np)) ||
		!strings.Contains(string(out), "damaged: rank 1: "+filepath.Join(cp, "rank-00001", "profile.json")+": offset 200: the profile is damaged: it ends in the middle (truncated after 200 bytes)") {
		t.Errorf("gopari report on a damaged rank: %v\n%s", err, out)
	}
	m := mergedJSON(t, cp)
	if len(m.Damaged) != 1 || m.Damaged[0].Rank != 1 || len(m.Ranks) != np-1 {
		t.Errorf("merged JSON: damaged %+v, %d ranks", m.Damaged, len(m.Ranks))
	}
}

// TestHybridRankKilled kills rank 1 of 3 after its first round: mpirun
// then ends the others with SIGTERM, and they write their profiles; the
// report names the missing rank.
func TestHybridRankKilled(t *testing.T) {
	p := buildMPI(t, "hybrid.c", "-fopenmp")
	dir := t.TempDir()
	// Give the others time to write before mpirun's SIGKILL follows its
	// SIGTERM: 1 s by default, too short on two loaded cores.
	got := mpirun(t, dir, 3, []string{"--mca", "odls_base_sigkill_timeout", "5"}, p.inst, "2", "die")
	if got.code == 0 {
		t.Errorf("mpirun exited 0 although a rank was killed")
	}
	jobs := jobDirs(t, dir)
	if len(jobs) != 1 {
		t.Fatalf("job directories %v, want one", jobs)
	}
	if ranks := rankDirs(t, jobs[0]); strings.Join(ranks, " ") != "rank-00000 rank-00002" {
		t.Fatalf("rank directories %v, want rank-00000 rank-00002\n%s", ranks, got.stderr)
	}
	for _, r := range []string{"rank-00000", "rank-00002"} {
		prof, err := profile.Read(filepath.Join(jobs[0], r, "profile.json"))
		if err != nil {
			t.Fatalf("%s: %v", r, err)
		}
		if prof.Exit != "SIGTERM" {
			t.Errorf("%s: exit %q, want SIGTERM", r, prof.Exit)
		}
	}
	out, err := exec.Command(gopariCommand(t), "report", jobs[0]).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "2 of 3 ranks wrote a profile") ||
		!strings.Contains(string(out), "missing: rank 1 wrote nothing (no rank-00001 directory)") {
		t.Errorf("gopari report: %v\n%s", err, out)
	}
	b, err := exec.Command(gopariCommand(t), "report", "--json", jobs[0]).Output()
	var m job.Merged
	if err == nil {
		err = json.Unmarshal(b, &m)
	}
	if err != nil || fmt.Sprint(m.Missing) != "[1]" {
		t.Errorf("merged JSON: %v, missing %v", err, m.Missing)
	}
}

// TestJobDirectories runs a program as ranks of jobs that the launchers'
// environment variables describe, without a launcher: the ranks of one
// job share its directory, a later job whose id recurs (Open MPI's does)
// and a directory that is not a job's are never reused, and each
// launcher's variables give the rank, size and job key.
func TestJobDirectories(t *testing.T) {
	needTools(t)
	t.Parallel()
	p := build(t, compilers[0], "exit.c")
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "gopari-exit.inst-ompi-43"), 0o755) // not a job's
	os.Mkdir(filepath.Join(dir, "gopari-exit.inst-ompi-44"), 0o755)
	os.WriteFile(filepath.Join(dir, "gopari-exit.inst-ompi-44", "notes"), nil, 0o644)
	ompi := func(rank, size int, job, token string) []string {
		return []string{"OMPI_COMM_WORLD_RANK=" + strconv.Itoa(rank), "OMPI_COMM_WORLD_SIZE=" + strconv.Itoa(size),
			"OMPI_MCA_ess_base_jobid=" + job, "OMPI_MCA_orte_precondition_transports=" + token}
	}
	for _, tc := range []struct {
		env  []string
		want string // the rank's directory
		rank profile.MPIRank
	}{
		{ompi(0, 2, "42", "a"), "gopari-exit.inst-ompi-42/rank-00000", profile.MPIRank{Rank: 0, Size: 2, Job: "ompi-42", Launcher: "Open MPI"}},
		{ompi(1, 2, "42", "a"), "gopari-exit.inst-ompi-42/rank-00001", profile.MPIRank{Rank: 1, Size: 2, Job: "ompi-42", Launcher: "Open MPI"}},
		// The same job id later, for another job: its own directory.
		{ompi(0, 1, "42", "b"), "gopari-exit.inst-ompi-42.1/rank-00000", profile.MPIRank{Rank: 0, Size: 1, Job: "ompi-42", Launcher: "Open MPI"}},
		// The same job and rank again (a restarted step): a numbered rank.
		{ompi(1, 2, "42", "a"), "gopari-exit.inst-ompi-42/rank-00001.1", profile.MPIRank{Rank: 1, Size: 2, Job: "ompi-42", Launcher: "Open MPI"}},
		// Directories that are not this job's are kept.
		{ompi(0, 1, "43", "c"), "gopari-exit.inst-ompi-43.1/rank-00000", profile.MPIRank{Rank: 0, Size: 1, Job: "ompi-43", Launcher: "Open MPI"}},
		{ompi(0, 1, "44", "c"), "gopari-exit.inst-ompi-44.1/rank-00000", profile.MPIRank{Rank: 0, Size: 1, Job: "ompi-44", Launcher: "Open MPI"}},
		{[]string{"SLURM_PROCID=2", "SLURM_NTASKS=3", "SLURM_JOB_ID=7", "SLURM_STEP_ID=1", "GOPARI_EXPERIMENT_DIRECTORY=mine"},
			"mine/rank-00002", profile.MPIRank{Rank: 2, Size: 3, Job: "slurm-7.1", Launcher: "Slurm"}},
		{[]string{"PMIX_RANK=1", "PMIX_NAMESPACE=prterun-vm-77@1"},
			"gopari-exit.inst-pmix-prterun-vm-77@1/rank-00001", profile.MPIRank{Rank: 1, Size: 0, Job: "pmix-prterun-vm-77@1", Launcher: "PMIx"}},
		{[]string{"PMI_RANK=3", "PMI_SIZE=4", "SLURM_JOB_ID=9"},
			"gopari-exit.inst-slurm-9.0/rank-00003", profile.MPIRank{Rank: 3, Size: 4, Job: "slurm-9.0", Launcher: "MPICH"}},
	} {
		cmd := exec.Command(p.inst)
		cmd.Dir = dir
		var env []string
		for _, e := range os.Environ() {
			if !strings.HasPrefix(e, "GOPARI_") && !strings.HasPrefix(e, "OMPI_") && !strings.HasPrefix(e, "PMI") && !strings.HasPrefix(e, "SLURM_") {
				env = append(env, e)
			}
		}
		cmd.Env = append(env, tc.env...)
		out, _ := cmd.CombinedOutput()
		if cmd.ProcessState.ExitCode() != 3 {
			t.Errorf("%v: exit %v\n%s", tc.env, cmd.ProcessState, out)
		}
		prof, err := profile.Read(filepath.Join(dir, tc.want, "profile.json"))
		if err != nil {
			t.Errorf("%v: %v\n%s", tc.env, err, out)
			continue
		}
		if prof.MPI == nil || *prof.MPI != tc.rank {
			t.Errorf("%v: the profile says %+v, want %+v", tc.env, prof.MPI, tc.rank)
		}
	}
	// A hydra job without Slurm: its key is the node's.
	cmd := exec.Command(p.inst)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "PMI_RANK=0", "PMI_SIZE=1")
	cmd.Run()
	if m, _ := filepath.Glob(filepath.Join(cmd.Dir, "gopari-exit.inst-pmi-*", "rank-00000", "profile.json")); len(m) != 1 {
		t.Errorf("MPICH without Slurm: %v", m)
	}
	if entries, _ := os.ReadDir(filepath.Join(dir, "gopari-exit.inst-ompi-44")); len(entries) != 1 {
		t.Errorf("a directory that is not a job's was written to: %v", entries)
	}
}

// makePrefix makes dir a GOPARI_PREFIX for the test's runtime: pomp.h in
// include/, and the test's libpomp.a linked into lib/.
func makePrefix(dir string) error {
	for _, d := range []string{"include", "lib"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			return err
		}
	}
	h, err := os.ReadFile(filepath.Join(incDir, "pomp.h"))
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, "include", "pomp.h"), h, 0o644)
	}
	if err == nil {
		err = os.Symlink(filepath.Join(libDir, "libpomp.a"), filepath.Join(dir, "lib", "libpomp.a"))
	}
	if err == nil { // the Fortran binding's source (fortran_test.go)
		err = os.Symlink(filepath.Join(incDir, "fortran", "pomp_lib.f90"), filepath.Join(dir, "include", "pomp_lib.f90"))
	}
	return err
}
