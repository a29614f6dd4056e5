package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// compile builds src as b.exe[name+"."+kind]: uninstrumented when gopari
// is "", else through that gopari's cc wrapper, with gcc -O2 -fopenmp.
func (b *bench) compile(name, src, kind, gopari string, libs ...string) {
	exe := filepath.Join(b.work, name+"."+kind)
	args := append([]string{"gcc", "-O2", "-fopenmp", src, "-o", exe}, libs...)
	if gopari != "" {
		args = append([]string{gopari, "cc"}, args...)
	}
	if out, err := exec.Command(args[0], args[1:]...).CombinedOutput(); err != nil {
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
		_, stderr, _, _ := b.run(name, mode, threads, args...)
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
