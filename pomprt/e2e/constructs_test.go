package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gopari/internal/constructs"
)

// TestConstructCallsLink links a program that takes the address of every
// call of internal/constructs's list (the calls around and inside each
// construct, the lock wrappers) against pomp.h and libpomp.a, as C and as
// C++, with each compiler: pomp.h declares each one with C linkage, and
// pomp.h (inline) or the runtime defines it. The list names the calls
// that rewrite writes; pomp.h's hand-written functions are checked here,
// its generated ones by internal/constructs/gen's test.
func TestConstructCallsLink(t *testing.T) {
	needTools(t)
	var b strings.Builder
	b.WriteString("#include \"pomp.h\"\ntypedef void (*fn)(void);\nfn volatile pomp_calls[] = {\n")
	n := 0
	for _, c := range constructs.AllCalls() {
		fmt.Fprintf(&b, "\t(fn)&%s,\n", c)
		n++
	}
	b.WriteString("};\nint main(void) { return pomp_calls[0] == 0; }\n")
	if n < 50 {
		t.Fatalf("the list names %d calls; it had 74 when this test was written", n)
	}
	dir := t.TempDir()
	for _, c := range compilers {
		for _, lang := range []struct{ cc, ext string }{{c.cc, ".c"}, {c.cxx, ".cpp"}} {
			src := filepath.Join(dir, c.name+lang.ext)
			if err := os.WriteFile(src, []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			args := append(append([]string{"-Wall", "-Werror"}, c.openmp...), "-I", incDir, src, "-o", src+".exe", filepath.Join(libDir, "libpomp.a"))
			if out, err := exec.Command(lang.cc, append(args, c.linkLibs...)...).CombinedOutput(); err != nil {
				t.Errorf("%s %s: %v\n%s", lang.cc, strings.Join(args, " "), err, out)
			}
		}
	}
}
