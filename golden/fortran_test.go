package golden

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"gopari/rewrite/fortran"
)

// TestFortranGolden instruments each Fortran case of testdata/fortran
// and compares the result, its source then its region table, with
// NAME.golden (a case named chunks* with --chunks); a case named error_*
// compares its errors instead. Where
// gfortran is installed, every result must compile against the
// module pomp_lib, and every table with gcc.
func TestFortranGolden(t *testing.T) {
	t.Parallel()
	ents, err := os.ReadDir("testdata/fortran")
	if err != nil {
		t.Fatal(err)
	}
	modDir := fortranModule(t)
	for _, e := range ents {
		name := e.Name()
		form, _, ok := fortran.FormOf(name)
		if !ok {
			continue
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join("testdata/fortran", name)
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var got string
			res, err := fortran.Instrument(src, fortran.Options{Name: name, Form: form, Chunks: strings.HasPrefix(name, "chunks")})
			switch {
			case strings.HasPrefix(name, "error_"):
				if err == nil {
					t.Fatalf("no error, want one")
				}
				got = err.Error() + "\n"
			case err != nil:
				t.Fatal(err)
			default:
				var b strings.Builder
				for _, d := range res.Warnings {
					b.WriteString("! " + d.String() + "\n")
				}
				b.Write(res.Fortran)
				b.WriteString("\n/* ---- region table ---- */\n")
				b.Write(res.Table)
				got = b.String()
				if modDir != "" {
					compileFortran(t, modDir, name, res)
				}
			}
			golden := path + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o666); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./golden -update)", err)
			}
			if d := cmp.Diff(string(want), got); d != "" {
				t.Errorf("%s differs (-want +got):\n%s", golden, d)
			}
		})
	}
}

// fortranModule compiles pomp_lib.f90 into a temporary directory, or
// returns "" when gfortran is not installed.
func fortranModule(t *testing.T) string {
	if _, err := exec.LookPath("gfortran"); err != nil {
		t.Log("gfortran not installed: results are not compiled")
		return ""
	}
	dir := t.TempDir()
	src, _ := filepath.Abs(filepath.Join("..", "pomprt", "include", "fortran", "pomp_lib.f90"))
	cmd := exec.Command("gfortran", "-c", src, "-J", dir, "-o", filepath.Join(dir, "pomp_lib.o"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %v\n%s", cmd, err, out)
	}
	return dir
}

// compileFortran compiles an instrumented result and its table.
func compileFortran(t *testing.T, modDir, name string, res *fortran.Result) {
	dir := t.TempDir()
	f := filepath.Join(dir, name)
	c := filepath.Join(dir, "table.c")
	if err := os.WriteFile(f, res.Fortran, 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(c, res.Table, 0o666); err != nil {
		t.Fatal(err)
	}
	inc, _ := filepath.Abs(filepath.Join("..", "pomprt", "include"))
	for _, argv := range [][]string{
		{"gfortran", "-fopenmp", "-std=legacy", "-I", modDir, "-J", dir, "-c", f, "-o", filepath.Join(dir, "f.o")},
		{"gcc", "-Wall", "-Werror", "-I", inc, "-c", c, "-o", filepath.Join(dir, "t.o")},
	} {
		cmd := exec.Command(argv[0], argv[1:]...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s: %v\n%s", strings.Join(argv, " "), err, out)
		}
	}
}
