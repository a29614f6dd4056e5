package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestOddNames instruments a source whose path holds quotes, backslashes,
// spaces and non-ASCII bytes, and runs it with an experiment directory
// named the same way. The path must survive the #line directive (the
// program prints __FILE__ and __LINE__), the region table and the JSON
// profile, byte for byte.
func TestOddNames(t *testing.T) {
	needTools(t)
	for _, c := range compilers {
		c := c
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			sub := `we"ird\ dir é`
			name := sub + `/tab	"q"\x.c`
			if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
				t.Fatal(err)
			}
			src := "#include <stdio.h>\n" +
				"int main(void)\n{\n  int n = 0;\n" +
				"  #pragma omp parallel\n  {\n    #pragma omp critical(odd)\n    n++;\n  }\n" +
				"  printf(\"%s:%d %d\\n\", __FILE__, __LINE__, n > 0);\n  return 0;\n}\n"
			if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			instrumentIn(t, dir, name, "inst.c")
			opt := append([]string{"-O0", "-w", "-I", incDir}, c.openmp...)
			cc := func(args ...string) {
				t.Helper()
				cmd := exec.Command(c.cc, append(opt, args...)...)
				cmd.Dir = dir
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("%s: %v\n%s", c.cc, err, out)
				}
			}
			cc(name, "-o", "orig")
			cc(append([]string{"inst.c", "-o", "inst", filepath.Join(libDir, "libpomp.a")}, c.linkLibs...)...)

			want := run(t, filepath.Join(dir, "orig"), nil)
			if !strings.HasPrefix(want.stdout, name+":10 1") {
				t.Fatalf("the original printed %q", want.stdout)
			}
			exp := filepath.Join(dir, `exp "1"\ é`)
			got := run(t, filepath.Join(dir, "inst"), []string{"GOPARI_EXPERIMENT_DIRECTORY=" + exp})
			if got.code != 0 || got.stdout != want.stdout {
				t.Fatalf("instrumented, it printed (exit %d) %q, want %q\n%s", got.code, got.stdout, want.stdout, got.stderr)
			}
			got.dir = exp
			prof := readProfile(t, got)
			files := map[string]bool{}
			critical := false
			for _, r := range prof.Regions {
				files[r.File] = true
				if r.Kind == "critical" && r.SubName == "odd" {
					critical = true
				}
			}
			if !files[name] || len(files) != 1 {
				t.Errorf("the profile names the files %q, want only %q", keys(files), name)
			}
			if !critical {
				t.Errorf("no critical region named odd in the profile")
			}
			raw, err := os.ReadFile(filepath.Join(exp, "profile.json"))
			if err != nil {
				t.Fatal(err)
			}
			quoted, _ := json.Marshal(name)
			if !bytes.Contains(raw, quoted) {
				t.Errorf("profile.json does not hold the path as a JSON string %s", quoted)
			}
		})
	}
}

func keys(m map[string]bool) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}
