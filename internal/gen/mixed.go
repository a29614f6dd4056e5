package gen

import (
	"fmt"
	"math/rand"
	"strings"
)

// Mixed returns a C file of about lines lines unlike Dense's repeated
// kernels: functions drawn at random (seeded: the same seed gives the
// same file) from serial code, with comments and string literals that
// hold "#pragma omp" text and escaped quotes, and parallel code of every
// common kind — parallel, for with clauses, critical, barrier, single,
// atomic, master, tasks with taskwait, parallel for, sections, nested
// parallel regions and the lock routines — with varying names, bounds and
// clauses. About a third of the functions are serial. It stands for the
// inputs the instrumenter has not been tuned on.
func Mixed(lines int, seed int64) []byte {
	r := rand.New(rand.NewSource(seed))
	var b strings.Builder
	b.Grow(lines * 36)
	b.WriteString("#include <stdio.h>\n#include <string.h>\n#include <omp.h>\n\nstatic omp_lock_t lk;\nstatic double acc;\nvoid mixed_init(void) { omp_init_lock(&lk); acc = 0.0; }\n\n")
	n := 8
	for f := 0; n < lines; f++ {
		kind := r.Intn(12)
		if kind < 4 {
			kind = 0 // a third serial
		}
		text := mixedFunc(r, f, kind)
		b.WriteString(text)
		n += strings.Count(text, "\n")
	}
	return []byte(b.String())
}

// mixedFunc writes function f of the kind (0 serial, else parallel).
func mixedFunc(r *rand.Rand, f, kind int) string {
	var b strings.Builder
	v := fmt.Sprintf("v%d", r.Intn(50))
	fmt.Fprintf(&b, "/* function %d: \"#pragma omp parallel\" in a comment, and a quote \\\" */\n", f)
	fmt.Fprintf(&b, "double fn%d(double *%s, int n) {\n  double s = 0.0; const char *msg = \"say \\\"#pragma omp task\\\" twice\"; (void)msg;\n", f, v)
	body := 3 + r.Intn(8)
	switch kind {
	case 0:
		for i := 0; i < body; i++ {
			fmt.Fprintf(&b, "  for (int i = 0; i < n; i += %d) { s += %s[i] * %d.5; } // #pragma omp for\n", 1+r.Intn(4), v, r.Intn(9))
			fmt.Fprintf(&b, "  if (s > %d) s -= strlen(msg); /* '\\'' \"#pragma omp barrier\" */\n", r.Intn(1000))
		}
	case 4, 5:
		fmt.Fprintf(&b, "  #pragma omp parallel for reduction(+:s) schedule(%s) firstprivate(n)\n", []string{"static", "dynamic, 4", "guided", "runtime"}[r.Intn(4)])
		fmt.Fprintf(&b, "  for (int i = 0; i < n; i++)\n    s += %s[i] * %d;\n", v, r.Intn(9)+1)
	case 6:
		b.WriteString("  #pragma omp parallel shared(s)\n  {\n")
		for i := 0; i < body; i++ {
			fmt.Fprintf(&b, "    #pragma omp for nowait\n    for (int i = 0; i < n; i++) %s[i] += %d;\n", v, i)
		}
		b.WriteString("    #pragma omp critical\n    s += 1.0;\n    #pragma omp barrier\n    #pragma omp single\n    s *= 2;\n")
		b.WriteString("    #pragma omp atomic\n    acc += s;\n    #pragma omp master\n    { s -= 1.0; }\n  }\n")
	case 7:
		b.WriteString("  #pragma omp parallel\n  #pragma omp single\n  {\n")
		for i := 0; i < body; i++ {
			fmt.Fprintf(&b, "    #pragma omp task firstprivate(n) shared(s)\n    { %s[%d %% n] += n; }\n", v, i)
		}
		b.WriteString("    #pragma omp taskwait\n  }\n")
	case 8:
		b.WriteString("  #pragma omp parallel sections reduction(+:s)\n  {\n")
		for i := 0; i < 2+r.Intn(3); i++ {
			fmt.Fprintf(&b, "    #pragma omp section\n    { s += %s[%d %% n]; }\n", v, i)
		}
		b.WriteString("  }\n")
	case 9:
		b.WriteString("  omp_set_nested(1);\n  #pragma omp parallel num_threads(2)\n  {\n    #pragma omp parallel for num_threads(2) reduction(+:s)\n")
		fmt.Fprintf(&b, "    for (int i = 0; i < n; i++) s += %s[i];\n  }\n", v)
	case 10:
		b.WriteString("  #pragma omp parallel\n  {\n")
		for i := 0; i < body; i++ {
			fmt.Fprintf(&b, "    omp_set_lock(&lk);\n    s += %s[%d %% n];\n    omp_unset_lock(&lk);\n", v, i)
		}
		b.WriteString("  }\n")
	default:
		fmt.Fprintf(&b, "  #pragma omp parallel for collapse(2) private(s) if(n > %d)\n", r.Intn(100))
		fmt.Fprintf(&b, "  for (int i = 0; i < n; i++)\n    for (int j = 0; j < %d; j++) %s[i] += j;\n", 1+r.Intn(5), v)
	}
	b.WriteString("  return s;\n}\n\n")
	return b.String()
}
