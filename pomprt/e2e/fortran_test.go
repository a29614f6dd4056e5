package e2e

import (
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gopari/internal/profile"
	"gopari/rewrite/fortran"
)

// buildFortran compiles testdata/name with gfortran, uninstrumented and
// instrumented (rewrite/fortran, pomp_lib.mod, its region table).
func buildFortran(t *testing.T, name string, o fortran.Options) program {
	t.Helper()
	if _, err := exec.LookPath("gfortran"); err != nil {
		t.Skip("gfortran not installed")
	}
	needTools(t)
	src, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	form, _, _ := fortran.FormOf(name)
	o.Name, o.Form = name, form
	res, err := fortran.Instrument(src, o)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	base := strings.TrimSuffix(name, filepath.Ext(name))
	inst := filepath.Join(dir, base+".pomp"+filepath.Ext(name))
	table := filepath.Join(dir, base+"_regions.c")
	for f, b := range map[string][]byte{inst: res.Fortran, table: res.Table} {
		if err := os.WriteFile(f, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := program{name: name, orig: filepath.Join(dir, base+".orig"), inst: filepath.Join(dir, base+".inst")}
	sh := func(argv ...string) {
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(argv, " "), err, out)
		}
	}
	orig, _ := filepath.Abs(filepath.Join("testdata", name))
	sh("gfortran", "-O2", "-fopenmp", orig, "-o", p.orig)
	sh("gfortran", "-c", filepath.Join(incDir, "fortran", "pomp_lib.f90"), "-o", "pomp_lib.o")
	sh("gcc", "-O2", "-I", incDir, "-c", table, "-o", "table.o")
	sh("gfortran", "-O2", "-fopenmp", "-I", dir, inst, "table.o", filepath.Join(libDir, "libpomp.a"), "-lpthread", "-o", p.inst)
	return p
}

// TestFortranCounts runs a Fortran program of known structure at 1, 2
// and 4 threads: it prints what the uninstrumented build prints, and
// every count is exact.
func TestFortranCounts(t *testing.T) {
	t.Parallel()
	p := buildFortran(t, "fortran_counts.f90", fortran.Options{})
	for _, threads := range []int{1, 2, 4} {
		env := []string{"OMP_NUM_THREADS=" + string(rune('0'+threads))}
		prof, _ := compareRun(t, p, env)
		checkFortranCounts(t, prof, threads)
	}
}

func checkFortranCounts(t *testing.T, prof *profile.Profile, threads int) {
	t.Helper()
	construct, body := map[string]uint64{}, map[string]uint64{}
	var acquired uint64
	for _, s := range prof.Stats {
		r := prof.Region(s.Region)
		key := r.Kind
		if r.Kind == "lock" {
			key += " " + r.SubName
			acquired += s.LockAcquired
		}
		if s.Construct != nil {
			construct[key] += s.Construct.Visits
		}
		if s.Body != nil {
			body[key] += s.Body.Visits
		}
	}
	n := uint64(threads)
	want := []struct {
		what      string
		got, want uint64
	}{
		{"implicit tasks", body["parallel"], n},
		{"single bodies", body["single"], 1},
		{"single constructs", construct["single"], n},
		{"do constructs", construct["for"], n},
		{"critical bodies", body["critical"], 100},
		{"atomic", construct["atomic"], 100 + 3},
		{"omp_set_lock calls", construct["lock omp_set_lock"], 100},
		{"lock acquisitions", acquired, 100},
		{"sections constructs", construct["sections"], n},
		{"section bodies", body["sections"], 3},
		{"taskwaits", construct["taskwait"], fibCalls(15)},
	}
	for _, w := range want {
		if w.got != w.want {
			t.Errorf("%d threads: %s %d, want %d", threads, w.what, w.got, w.want)
		}
	}
	var tasks uint64
	for _, task := range prof.Tasks {
		tasks += task.Created
	}
	if want := 2 * fibCalls(15); tasks != want {
		t.Errorf("%d threads: %d task instances, want %d", threads, tasks, want)
	}
}

// fibCalls is the number of calls of fib(n) with n >= 2 that computing
// fib(n) makes: each creates two tasks and waits once.
func fibCalls(n int) uint64 {
	if n < 2 {
		return 0
	}
	return 1 + fibCalls(n-1) + fibCalls(n-2)
}

// TestFortranCC builds Fortran programs through gopari cc gfortran: a
// free-form file compiled (-c) and linked in two steps, and a fixed-form
// .F file that the C preprocessor reads first, in one; both print what
// the plain gfortran builds print, and regions carry the user's lines.
func TestFortranCC(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("gfortran"); err != nil {
		t.Skip("gfortran not installed")
	}
	needTools(t)
	dir := t.TempDir()
	gopari := func(args ...string) string {
		cmd := exec.Command(gopariCommand(t), args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOPARI_PREFIX="+runtimePrefix(t))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("gopari %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	plain := func(src, exe string) {
		cmd := exec.Command("gfortran", "-fopenmp", src, "-o", filepath.Join(dir, exe))
		cmd.Dir = dir // its module files too
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("gfortran %s: %v\n%s", src, err, out)
		}
	}
	free, _ := filepath.Abs("testdata/fortran_counts.f90")
	fixed, _ := filepath.Abs("testdata/fortran_fixed.F")
	gopari("cc", "gfortran", "-O2", "-fopenmp", "-c", free, "-o", "counts.o")
	gopari("cc", "gfortran", "-fopenmp", "counts.o", "-o", "counts")
	gopari("cc", "gfortran", "-fopenmp", fixed, "-o", "fixed")
	plain(free, "counts.orig")
	plain(fixed, "fixed.orig")
	if ents, _ := filepath.Glob(filepath.Join(dir, "pomp_unit_*.mod")); len(ents) > 0 {
		t.Errorf("gopari cc left %v", ents)
	}
	env := []string{"OMP_NUM_THREADS=2"}
	prof, _ := compareRun(t, program{name: "counts", orig: filepath.Join(dir, "counts.orig"), inst: filepath.Join(dir, "counts")}, env)
	checkFortranCounts(t, prof, 2)
	prof, _ = compareRun(t, program{name: "fixed", orig: filepath.Join(dir, "fixed.orig"), inst: filepath.Join(dir, "fixed")}, env)
	lines := map[string][2]int{}
	for _, r := range prof.Regions {
		if filepath.Base(r.File) == "fortran_fixed.F" {
			lines[r.Kind] = [2]int{r.BeginLine, r.EndLine}
		}
	}
	if lines["parallel"] != [2]int{8, 13} || lines["for"] != [2]int{8, 13} {
		t.Errorf("regions of fortran_fixed.F at lines %v, want parallel and for at 8-13", lines)
	}
	cmd := exec.Command(gopariCommand(t), "cc", "--dry-run", "gfortran", "-fopenmp", "-c", "x.unknown")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOPARI_PREFIX="+runtimePrefix(t))
	if out, _ := cmd.CombinedOutput(); !strings.Contains(string(out), "x.unknown: not a C, C++ or Fortran source") {
		t.Errorf("no warning for a source of unknown suffix:\n%s", out)
	}
}

// TestFortranChunks checks the chunks of do loops (--chunks) that
// gopari grains reads, at 1, 2 and 4 threads.
func TestFortranChunks(t *testing.T) {
	t.Parallel()
	p := buildFortran(t, "fortran_chunks.f90", fortran.Options{Chunks: true})
	for _, threads := range []int{1, 2, 4} {
		env := []string{"OMP_NUM_THREADS=" + string(rune('0'+threads)), "GOPARI_GRAINS=1"}
		_, _ = compareRun(t, p, env)
		res := run(t, p.inst, env)
		csv := filepath.Join(t.TempDir(), "grains.csv")
		if out, err := exec.Command(gopariCommand(t), "grains", "--csv", csv, res.dir).CombinedOutput(); err != nil {
			t.Fatalf("gopari grains: %v\n%s", err, out)
		}
		b, err := os.ReadFile(csv)
		if err != nil {
			t.Fatal(err)
		}
		chunks := map[string]int{} // line -> chunks
		for _, row := range strings.Split(strings.TrimSpace(string(b)), "\n")[1:] {
			f := strings.Split(row, ",")
			if f[0] == "chunk" {
				chunks[f[2]]++
			}
		}
		want := map[string]int{"10": 20, "15": 9, "19": threads, "24": 10}
		for line, n := range want {
			if chunks[line] != n {
				t.Errorf("%d threads: %d chunks of the loop at line %s, want %d (all: %v)", threads, chunks[line], line, n, chunks)
			}
		}
	}
}

// TestFortranFibIdentity checks the task identities of Fortran's fib(n)
// as TestFibCounts does C's: task instances, every edge of the creation
// tree (the region of the creating task to the task's) and its depth,
// at 1, 2 and 4 threads.
func TestFortranFibIdentity(t *testing.T) {
	t.Parallel()
	p := buildFortran(t, "fortran_fib.f90", fortran.Options{})
	for _, threads := range []string{"1", "2", "4"} {
		prof := readProfile(t, run(t, p.inst, []string{"OMP_NUM_THREADS=" + threads}, "18"))
		checkFibTree(t, threads, prof, 18, 2*fibCalls(18))
	}
}

// TestFortranRecordedIDs checks, in the identities-only mode that
// records every (task, parent) pair (Lorenz et al.'s experiment), that
// Fortran's fib(n) gets unique IDs and the exact creation tree: the root
// has one implicit task per thread, and every parent has two children,
// fib's non-leaf calls (and the single's implicit task) and no other.
func TestFortranRecordedIDs(t *testing.T) {
	t.Parallel()
	p := buildFortran(t, "fortran_fib.f90", fortran.Options{})
	for _, threads := range []int{1, 2, 4} {
		env := []string{"OMP_NUM_THREADS=" + string(rune('0'+threads)), "GOPARI_MODE=ids", "GOPARI_RECORD_IDS=1"}
		parent := recordedParents(t, run(t, p.inst, env, "16"))
		children := map[uint64]int{}
		for _, par := range parent {
			children[par]++
		}
		if want := 2*fibCalls(16) + uint64(threads); uint64(len(parent)) != want {
			t.Errorf("%d threads: %d tasks recorded, want %d", threads, len(parent), want)
		}
		if children[0] != threads {
			t.Errorf("%d threads: the root has %d children, want %d implicit tasks", threads, children[0], threads)
		}
		parents := 0
		for par, n := range children {
			if par == 0 {
				continue
			}
			parents++
			if _, ok := parent[par]; !ok || n != 2 {
				t.Errorf("%d threads: parent %#x (known: %v) has %d children, want 2", threads, par, ok, n)
			}
		}
		if uint64(parents) != fibCalls(16) {
			t.Errorf("%d threads: %d parents, want %d", threads, parents, fibCalls(16))
		}
	}
}

// TestFortranRestore checks that a task created after a taskgroup or a
// barrier, in which the creator ran tasks whose parents had ended, is
// its creator's: the edges of the creation tree, region to region.
func TestFortranRestore(t *testing.T) {
	t.Parallel()
	p := buildFortran(t, "fortran_restore.f90", fortran.Options{})
	for _, threads := range []string{"1", "2", "4"} {
		prof, _ := compareRun(t, p, []string{"OMP_NUM_THREADS=" + threads})
		tasks := regionsOfKind(prof, "task")
		if len(tasks) != 6 {
			t.Fatalf("%d task regions, want 6", len(tasks))
		}
		par := regionsOfKind(prof, "parallel")[0].ID
		id := func(i int) int { return tasks[i].ID }
		want := map[[2]int]uint64{
			{par, id(0)}: 20, {id(0), id(1)}: 20, {par, id(2)}: 1,
			{par, id(3)}: 20, {id(3), id(4)}: 20, {par, id(5)}: 1,
		}
		got := map[[2]int]uint64{}
		for _, e := range prof.Tree.Edges {
			got[[2]int{e.Parent, e.Child}] = e.Count
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s threads: edges %v, want %v", threads, got, want)
		}
		// Identities only: no runtime call restores a handle, the
		// instrumented code alone does.
		parents := recordedParents(t, run(t, p.inst, []string{"OMP_NUM_THREADS=" + threads, "GOPARI_MODE=ids", "GOPARI_RECORD_IDS=1"}))
		implicit, explicit := 0, 0
		for id, par := range parents {
			switch {
			case par == 0:
			case parents[par] == 0:
				implicit++
			default:
				explicit++
				if _, ok := parents[par]; !ok {
					t.Errorf("%s threads: task %#x has an unknown parent %#x", threads, id, par)
				}
			}
		}
		if implicit != 42 || explicit != 40 {
			t.Errorf("%s threads, ids mode: %d tasks of implicit tasks, %d of explicit ones; want 42 and 40", threads, implicit, explicit)
		}
	}
}

// recordedParents reads the (task, parent) pairs of a run in the
// identities-only mode that records them.
func recordedParents(t *testing.T, r result) map[uint64]uint64 {
	t.Helper()
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	b, err := os.ReadFile(filepath.Join(r.dir, "ids.bin"))
	if err != nil {
		t.Fatal(err)
	}
	parent := map[uint64]uint64{}
	for i := 0; i+16 <= len(b); i += 16 {
		id := binary.LittleEndian.Uint64(b[i:])
		if _, dup := parent[id]; dup {
			t.Fatalf("task ID %#x appears twice", id)
		}
		parent[id] = binary.LittleEndian.Uint64(b[i+8:])
	}
	return parent
}

// TestFortranTaskloop checks the tasks of Fortran taskloops: as many as
// grainsize and num_tasks say, each counted once, at 1, 2 and 4 threads.
func TestFortranTaskloop(t *testing.T) {
	t.Parallel()
	p := buildFortran(t, "fortran_taskloop.f90", fortran.Options{})
	for _, threads := range []int{1, 2, 4} {
		prof, _ := compareRun(t, p, []string{"OMP_NUM_THREADS=" + string(rune('0'+threads))})
		loops := regionsOfKind(prof, "taskloop")
		if len(loops) != 3 {
			t.Fatalf("%d taskloop regions, want 3", len(loops))
		}
		created := map[int]uint64{}
		for _, task := range prof.Tasks {
			created[task.Region] += task.Created
		}
		if created[loops[0].ID] != 10 || created[loops[1].ID] != 4 || created[loops[2].ID] != 10 {
			t.Errorf("%d threads: taskloop tasks %d, %d and %d, want 10, 4 and 10", threads,
				created[loops[0].ID], created[loops[1].ID], created[loops[2].ID])
		}
		// Identities only: each task's parent is the single's implicit task.
		parents := recordedParents(t, run(t, p.inst, []string{"OMP_NUM_THREADS=" + string(rune('0'+threads)), "GOPARI_MODE=ids", "GOPARI_RECORD_IDS=1"}))
		byParent := map[uint64]int{}
		for _, par := range parents {
			byParent[par]++
		}
		if len(parents) != 24+threads || byParent[0] != threads || len(byParent) != 2 {
			t.Errorf("%d threads, ids mode: %d tasks, by parent %v; want 24 taskloop tasks of one implicit task", threads, len(parents), byParent)
		}
	}
}

// TestFortranLocks runs fortran_locks.f90 at 1, 2 and 4 threads: its nest
// locks work as uninstrumented (gfortran's omp_nest_lock_kind holds a
// pointer to the C lock, so the wrappers must call the Fortran routines),
// and every lock routine's calls and acquisitions are exact.
func TestFortranLocks(t *testing.T) {
	t.Parallel()
	p := buildFortran(t, "fortran_locks.f90", fortran.Options{})
	for _, threads := range []int{1, 2, 4} {
		env := []string{"OMP_NUM_THREADS=" + string(rune('0'+threads))}
		prof, out := compareRun(t, p, env)
		if !strings.Contains(out.stdout, "n 100 depth 2 ok T got 0") {
			t.Fatalf("%d threads: printed %q", threads, out.stdout)
		}
		type calls struct{ visits, acquired uint64 }
		got := map[string]calls{}
		for _, s := range prof.Stats {
			if r := prof.Region(s.Region); r.Kind == "lock" && s.Construct != nil {
				c := got[r.SubName]
				c.visits += s.Construct.Visits
				c.acquired += s.LockAcquired
				got[r.SubName] = c
			}
		}
		want := map[string]calls{
			"omp_init_lock": {1, 0}, "omp_init_nest_lock": {1, 0},
			"omp_set_nest_lock": {200, 200}, "omp_unset_nest_lock": {202, 0},
			"omp_test_nest_lock": {3, 2}, "omp_test_lock": {1, 1},
			"omp_unset_lock": {1, 0}, "omp_destroy_lock": {1, 0}, "omp_destroy_nest_lock": {1, 0},
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%d threads: lock calls\n got %v\nwant %v", threads, got, want)
		}
		if prof.UnmatchedEvents != 0 {
			t.Errorf("%d threads: %d unmatched events", threads, prof.UnmatchedEvents)
		}
	}
}

// TestFortranCancel runs fortran_cancel.f90 at 1, 2 and 4 threads, with
// and without OMP_CANCELLATION: the loop keeps its implicit barrier, so
// cancellation happens as uninstrumented (thread 0 runs one iteration),
// the cancel is visited once, and no event is left unmatched.
func TestFortranCancel(t *testing.T) {
	t.Parallel()
	p := buildFortran(t, "fortran_cancel.f90", fortran.Options{})
	const n = 1000 // as in fortran_cancel.f90
	for _, threads := range []int{1, 2, 4} {
		for _, cancel := range []bool{true, false} {
			env := []string{"OMP_NUM_THREADS=" + string(rune('0'+threads)), fmt.Sprintf("OMP_CANCELLATION=%v", cancel)}
			prof, out := compareRun(t, p, env)
			ran := n / threads
			if cancel {
				ran = 1
			}
			if want := fmt.Sprintf("found 1 thread 0 ran %d\n", ran); out.stdout != want {
				t.Fatalf("%v: printed %q, want %q", env, out.stdout, want)
			}
			points := visits(prof, "cancellation point", "construct")
			if got := visits(prof, "cancel", "construct"); got != 1 {
				t.Errorf("%v: cancel visited %d times, want 1", env, got)
			}
			if (!cancel && points != n) || points > n {
				t.Errorf("%v: cancellation point visited %d times, want %d (at most, with cancellation)", env, points, n)
			}
			if got := visits(prof, "for", "construct"); got != uint64(threads) {
				t.Errorf("%v: do visited %d times, want %d", env, got, threads)
			}
			if prof.UnmatchedEvents != 0 {
				t.Errorf("%v: %d unmatched events", env, prof.UnmatchedEvents)
			}
			checkInvariants(t, prof)
		}
	}
}
