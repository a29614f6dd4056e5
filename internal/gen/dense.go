// Package gen generates C sources for benchmarks and tests.
package gen

import (
	"bytes"
	"fmt"
	"strings"
)

// kernelLines and kernelDirectives describe one generated group of
// functions: 13 directives in 104 lines, one directive per 8 lines.
const (
	kernelLines      = 104
	kernelDirectives = 13
)

// Dense returns a C file of about lines lines with one OpenMP directive
// per 8 lines: parallel regions holding for, single, task, taskwait,
// critical, barrier and sections constructs, between ordinary code with
// comments and strings that contain fake pragmas.
func Dense(lines int) []byte {
	var b strings.Builder
	b.Grow(lines * 36)
	b.WriteString("#include <stdio.h>\n#include <omp.h>\n/* #pragma omp parallel in a comment */\nstatic const char *fake = \"#pragma omp task { \";\n\n")
	n := 5
	for f := 0; n < lines; f++ {
		kernel(&b, f)
		n += kernelLines
	}
	return []byte(b.String())
}

func kernel(b *strings.Builder, f int) {
	w := func(s string) { b.WriteString(s); b.WriteByte('\n') }
	fmt.Fprintf(b, "/* kernel %d: scale, sum and check a vector */\n", f)
	fmt.Fprintf(b, "void kernel%d(int n, double *a, double *s, double alpha) {\n", f)
	w("  double local = 0.0; /* \"#pragma omp critical\" is not a directive */")
	w("  int checks = 0;")
	w("  if (n <= 0) {")
	w("    fprintf(stderr, \"kernel: n = %d, nothing to do (#pragma omp barrier)\\n\", n);")
	w("    return;")
	w("  }")
	w("  #pragma omp parallel shared(a, s) firstprivate(n, alpha) reduction(+: local)")
	w("  {")
	w("    // a line comment: #pragma omp barrier")
	w("    int me = omp_get_thread_num();")
	w("    double part = 0.0;")
	w("    #pragma omp for schedule(static) nowait")
	w("    for (int i = 0; i < n; i++) {")
	w("      double x = a[i] * alpha;")
	w("      if (x > 1e6)")
	w("        x = 1e6;")
	w("      a[i] = x + 1.0;")
	w("      part += x;")
	w("    }")
	w("    #pragma omp single")
	w("    {")
	w("      checks++;")
	w("      #pragma omp task firstprivate(n) shared(a)")
	w("      {")
	w("        a[0] += n; /* \"#pragma omp taskwait\" */")
	w("        a[n - 1] -= 1.0;")
	w("      }")
	w("      #pragma omp task shared(a)")
	w("      a[1] *= 0.5;")
	w("      #pragma omp taskwait")
	w("      if (a[0] < 0.0)")
	w("        puts(\"negative: #pragma omp cancel parallel\");")
	w("    }")
	w("    #pragma omp critical (update)")
	w("    {")
	w("      s[0] += part;")
	w("      local += me;")
	w("    }")
	w("    #pragma omp barrier")
	w("    #pragma omp sections")
	w("    {")
	w("      #pragma omp section")
	w("      {")
	w("        a[1] = 1.0;")
	w("        a[2] = a[1] + a[0];")
	w("      }")
	w("      #pragma omp section")
	w("      {")
	w("        a[3] = 2.0;")
	w("        a[4] = a[3] * a[2];")
	w("      }")
	w("    }")
	w("    #pragma omp for reduction(+: s[0:1])")
	w("    for (int i = 0; i < n; i++)")
	w("      s[0] += a[i];")
	w("  }")
	w("  /* serial epilogue */")
	w("  for (int i = 0; i < n; i++) {")
	w("    if (a[i] != a[i]) {")
	w("      fprintf(stderr, \"NaN at %d\\n\", i);")
	w("      checks++;")
	w("    }")
	w("  }")
	w("  s[1] = local;")
	w("  s[1] += checks;")
	w("  if (checks > 1)")
	w("    printf(\"kernel: %d checks\\n\", checks);")
	w("}")
	w("")
	fmt.Fprintf(b, "static double norm%d(const double *a, int n) {\n", f)
	w("  double t = 0.0;")
	w("  double big = 0.0;")
	w("  const char *msg = \"#pragma omp for is only text here\";")
	w("  (void)msg;")
	w("  /* sum of squares, and the largest magnitude,")
	w("     in one pass over the vector */")
	w("  for (int i = 0; i < n; i++) {")
	w("    double v = a[i] < 0.0 ? -a[i] : a[i];")
	w("    t += a[i] * a[i];")
	w("    if (v > big)")
	w("      big = v;")
	w("  }")
	w("  if (big == 0.0)")
	w("    return 0.0;")
	w("  return t;")
	w("}")
	w("")
	fmt.Fprintf(b, "double check%d(double *a, int n) {\n", f)
	w("  double s[2] = {0.0, 0.0};")
	w("  double r;")
	fmt.Fprintf(b, "  kernel%d(n, a, s, 0.5);\n", f)
	fmt.Fprintf(b, "  r = norm%d(a, n);\n", f)
	w("  if (r < 0.0) {")
	w("    puts(\"impossible\");")
	w("    return -1.0;")
	w("  }")
	w("  #pragma omp parallel for reduction(+: r)")
	w("  for (int i = 0; i < n; i++)")
	w("    r += a[i];")
	w("  return r + s[0] + s[1];")
	w("}")
	w("")
}

// Lines counts the lines of src.
func Lines(src []byte) int { return bytes.Count(src, []byte{'\n'}) }
