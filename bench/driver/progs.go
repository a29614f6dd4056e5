package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// layout is given to the compiler for every build of a benchmark,
// instrumented or not. The instrumented file puts the user's functions at
// other addresses, and on this machine's Xeon a hot loop that lands
// differently against 32-byte boundaries (where the JCC erratum's
// microcode fix bites) runs up to 5% slower or faster with the very same
// instructions: N-Queens' serial search, untouched by gopari and
// byte-identical in both builds, showed +5.5% in ids mode. With functions
// and loops aligned alike in every build, the two run at a ratio of 1.00.
var layout = []string{"-falign-functions=64", "-falign-loops=32"}

// peakCommand returns the command args run through bench/peak.c, which
// reports the peak memory of that command alone; peakRSS reads it (MiB)
// from the command's stderr.
func (b *bench) peakCommand(args ...string) *exec.Cmd {
	if b.exe["peak"] == "" {
		exe := filepath.Join(b.work, "peak")
		if out, err := exec.Command("gcc", "-O2", "bench/peak.c", "-o", exe).CombinedOutput(); err != nil {
			fatalf("building %s: %v\n%s", exe, err, out)
		}
		b.exe["peak"] = exe
	}
	return exec.Command(b.exe["peak"], args...)
}

func peakRSS(stderr []byte) float64 {
	for _, line := range strings.Split(string(stderr), "\n") {
		var kib float64
		if _, err := fmt.Sscanf(line, "peak-rss %f kB", &kib); err == nil {
			return kib / 1024
		}
	}
	fatalf("no peak-rss line in:\n%s", stderr)
	return 0
}

// compile builds src as b.exe[name+"."+kind]: uninstrumented when gopari
// is "", else through that gopari's cc wrapper, with gcc -O2 -fopenmp.
func (b *bench) compile(name, src, kind, gopari string, libs ...string) {
	b.compileEnv(nil, name, src, kind, gopari, libs...)
}

// compileEnv is compile with env added to the build's environment.
func (b *bench) compileEnv(env []string, name, src, kind, gopari string, libs ...string) {
	exe := filepath.Join(b.work, name+"."+kind)
	args := append([]string{"gcc", "-O2", "-fopenmp"}, layout...)
	args = append(append(args, src, "-o", exe), libs...)
	if gopari != "" {
		args = append([]string{gopari, "cc"}, args...)
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = append(os.Environ(), env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		fatalf("building %s: %v\n%s", exe, err, out)
	}
	b.exe[name+"."+kind] = exe
}

// perUnit runs name in every mode of list, in rounds, and reads the
// figure the program prints on stderr after "%f " + unit (such as
// "ns/task"); it returns the figures by mode, round by round.
func (b *bench) perUnit(name string, list []string, threads, n int, unit string, args ...string) map[string][]float64 {
	per := map[string][]float64{}
	roundsOf(list, n, func(mode string, r int) {
		_, stderr, _ := b.run(name, mode, threads, args...)
		per[mode] = append(per[mode], readFigure(name, stderr, unit))
	})
	return per
}

// readFigure reads "X unit" from a program's stderr.
func readFigure(name, stderr, unit string) float64 {
	for _, line := range strings.Split(stderr, "\n") {
		var v float64
		var u string
		if _, err := fmt.Sscanf(line, "%f %s", &v, &u); err == nil && u == unit {
			return v
		}
	}
	fatalf("%s printed no %s: %q", name, unit, stderr)
	return 0
}

// added returns the median of the per-round differences of mode against
// base.
func added(per map[string][]float64, mode, base string) float64 {
	var d []float64
	for i := range per[mode] {
		d = append(d, per[mode][i]-per[base][i])
	}
	return median(d)
}

// baseline builds the gopari of revision rev in a git worktree below the
// work directory and returns its bin/gopari, or "" with a note on w
// when it cannot (no git checkout, a revision that does not build).
func (b *bench) baseline(w io.Writer, rev string) string {
	if b.base != nil {
		return *b.base
	}
	dir := filepath.Join(b.work, "base-"+rev)
	b.base = new(string)
	note := func(err error, out []byte) string {
		fmt.Fprintf(w, "No baseline: building %s failed: %v\n%s\n\n", rev, err, out)
		return ""
	}
	if out, err := exec.Command("git", "worktree", "add", "--detach", dir, rev).CombinedOutput(); err != nil {
		return note(err, out)
	}
	b.cleanup = append(b.cleanup, func() { exec.Command("git", "worktree", "remove", "--force", dir).Run() })
	cmd := exec.Command("make", "build")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return note(err, out)
	}
	*b.base = filepath.Join(dir, "bin", "gopari")
	if _, err := os.Stat(*b.base); err != nil {
		*b.base = ""
		return note(err, nil)
	}
	return *b.base
}

// A paired measurement of one program in several builds or modes: the
// figures it prints per unit, wall and CPU time, median of rounds.
type paired struct {
	wall, cpu map[string][]float64
	list      []string
}

// pairedRuns runs name in every mode of list, in rounds, reading its "X
// ns/UNIT" and "Y cpu-ns/UNIT" lines.
func (b *bench) pairedRuns(name string, list []string, threads, n int, unit string, args ...string) paired {
	p := paired{wall: map[string][]float64{}, cpu: map[string][]float64{}, list: list}
	roundsOf(list, n, func(mode string, r int) {
		_, stderr, _ := b.run(name, mode, threads, args...)
		p.wall[mode] = append(p.wall[mode], readFigure(name, stderr, "ns/"+unit))
		p.cpu[mode] = append(p.cpu[mode], readFigure(name, stderr, "cpu-ns/"+unit))
	})
	return p
}

// table writes one row per mode: the median figures and what the mode
// adds to the first (uninstrumented) one, in wall and CPU time, and the
// ratio of the wall times; ns per unit and, per thread, what each unit
// costs the threads together.
func (p paired) table(w io.Writer, unit string, threads int) {
	base := p.list[0]
	fmt.Fprintf(w, "| build | ns/%s | added | added, CPU | ratio | added per %s and thread |\n|---|---:|---:|---:|---:|---:|\n", unit, unit)
	for _, m := range p.list {
		if m == base {
			fmt.Fprintf(w, "| uninstrumented | %.2f | | | | |\n", median(p.wall[m]))
			continue
		}
		fmt.Fprintf(w, "| %s | %.2f | %+.2f | %+.2f | %.3f | %+.2f |\n", m, median(p.wall[m]), p.added(m), added(p.cpu, m, base),
			p.ratio(m), p.added(m)*float64(threads))
	}
	fmt.Fprintln(w)
}

func (p paired) added(mode string) float64 { return added(p.wall, mode, p.list[0]) }

// ratio returns the median of the per-round ratios of mode to the first.
func (p paired) ratio(mode string) float64 {
	var r []float64
	for i := range p.wall[mode] {
		r = append(r, p.wall[mode][i]/p.wall[p.list[0]][i])
	}
	return median(r)
}
