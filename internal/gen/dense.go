// Package gen generates C sources for benchmarks and tests.
package gen

import (
	"bytes"
	"fmt"
	"strings"
)

// One cycle of the generated file is kernel A and kernel B: cycleLines
// lines holding cycleDirectives directives (user regions and _Pragma
// included), one per 8 lines.
const (
	cycleLines      = 104 + 240
	cycleDirectives = 13 + 30
)

// Dense returns a C file of about lines lines with one directive per 8
// lines. Kernel A is parallel regions holding for, single, task,
// taskwait, critical, barrier and sections between ordinary code with
// comments and strings that contain fake pragmas. Kernel B has every
// other construct class: scope, masked, atomic, flush, taskyield,
// taskgroup, taskloop, ordered blocks and doacross, simd, loop, cancel,
// cancellation point, combined constructs, target (passed through),
// threadprivate, user regions, _Pragma operators, calls of the OpenMP
// lock routines (about 6 omp_set_lock per 1,000 lines), constructs nested
// seven deep, and a line of 1,500 characters.
func Dense(lines int) []byte {
	var b strings.Builder
	b.Grow(lines * 40)
	b.WriteString("#include <stdio.h>\n#include <omp.h>\n/* #pragma omp parallel in a comment */\nstatic const char *fake = \"#pragma omp task { \";\n\n")
	n := 5
	for f := 0; n < lines; f++ {
		fmt.Fprintf(&b, kernelText, f)
		fmt.Fprintf(&b, kernelB, f, longLine, padding)
		n += cycleLines
	}
	return []byte(b.String())
}

// padding is a switch of ordinary code, 93 lines, that brings kernel B to
// one directive per 8 lines.
var padding = func() string {
	var b strings.Builder
	b.WriteString("  switch (x % 97) {\n")
	for k := 0; k < 91; k++ {
		fmt.Fprintf(&b, "  case %d: y = y * %d + %d; break;\n", k, k%13+2, k)
	}
	b.WriteString("  }\n")
	return b.String()
}()

// longLine is a table of 1,500 characters on one line.
var longLine = func() string {
	var b strings.Builder
	for i := 0; b.Len() < 1490; i++ {
		fmt.Fprintf(&b, "%d, ", i*7919%10007)
	}
	return b.String()
}()

// kernelText is one group of functions; %[1]d is its number.
const kernelText = `/* kernel %[1]d: scale, sum and check a vector */
void kernel%[1]d(int n, double *a, double *s, double alpha) {
  double local = 0.0; /* "#pragma omp critical" is not a directive */
  int checks = 0;
  if (n <= 0) {
    fprintf(stderr, "kernel: n = %%d, nothing to do (#pragma omp barrier)\n", n);
    return;
  }
  #pragma omp parallel shared(a, s) firstprivate(n, alpha) reduction(+: local)
  {
    // a line comment: #pragma omp barrier
    int me = omp_get_thread_num();
    double part = 0.0;
    #pragma omp for schedule(static) nowait
    for (int i = 0; i < n; i++) {
      double x = a[i] * alpha;
      if (x > 1e6)
        x = 1e6;
      a[i] = x + 1.0;
      part += x;
    }
    #pragma omp single
    {
      checks++;
      #pragma omp task firstprivate(n) shared(a)
      {
        a[0] += n; /* "#pragma omp taskwait" */
        a[n - 1] -= 1.0;
      }
      #pragma omp task shared(a)
      a[1] *= 0.5;
      #pragma omp taskwait
      if (a[0] < 0.0)
        puts("negative: #pragma omp cancel parallel");
    }
    #pragma omp critical (update)
    {
      s[0] += part;
      local += me;
    }
    #pragma omp barrier
    #pragma omp sections
    {
      #pragma omp section
      {
        a[1] = 1.0;
        a[2] = a[1] + a[0];
      }
      #pragma omp section
      {
        a[3] = 2.0;
        a[4] = a[3] * a[2];
      }
    }
    #pragma omp for reduction(+: s[0:1])
    for (int i = 0; i < n; i++)
      s[0] += a[i];
  }
  /* serial epilogue */
  for (int i = 0; i < n; i++) {
    if (a[i] != a[i]) {
      fprintf(stderr, "NaN at %%d\n", i);
      checks++;
    }
  }
  s[1] = local;
  s[1] += checks;
  if (checks > 1)
    printf("kernel: %%d checks\n", checks);
}

static double norm%[1]d(const double *a, int n) {
  double t = 0.0;
  double big = 0.0;
  const char *msg = "#pragma omp for is only text here";
  (void)msg;
  /* sum of squares, and the largest magnitude,
     in one pass over the vector */
  for (int i = 0; i < n; i++) {
    double v = a[i] < 0.0 ? -a[i] : a[i];
    t += a[i] * a[i];
    if (v > big)
      big = v;
  }
  if (big == 0.0)
    return 0.0;
  return t;
}

double check%[1]d(double *a, int n) {
  double s[2] = {0.0, 0.0};
  double r;
  kernel%[1]d(n, a, s, 0.5);
  r = norm%[1]d(a, n);
  if (r < 0.0) {
    puts("impossible");
    return -1.0;
  }
  #pragma omp parallel for reduction(+: r)
  for (int i = 0; i < n; i++)
    r += a[i];
  return r + s[0] + s[1];
}

`

// kernelB is the second group of functions; %[1]d is its number, %[2]s
// the long line and %[3]s the padding.
const kernelB = `/* kernel B %[1]d: every other construct class, locks and user regions */
static omp_lock_t lock%[1]d;
static int counter%[1]d;
#pragma omp threadprivate(counter%[1]d)
static const int table%[1]d[] = { %[2]s0 };
#define PARFOR%[1]d _Pragma("omp parallel for")
void kernelB%[1]d(int n, double *a, double *b) {
  double sum = 0.0;
  int hits = 0;
  const char *note = "omp_set_lock(&lock) in a string; #pragma omp barrier";
  omp_init_lock(&lock%[1]d);
  #pragma omp parallel shared(a, b, sum, hits)
  {
    #pragma omp scope reduction(+: sum)
    {
      for (int i = 0; i < n; i++)
        sum += a[i];
    }
    #pragma omp masked
    {
      omp_set_lock(&lock%[1]d);
      hits++;
      omp_unset_lock(&lock%[1]d);
    }
    #pragma omp for ordered(1) nowait
    for (int i = 1; i < n; i++) {
      #pragma omp ordered depend(sink: i - 1)
      b[i] += b[i - 1];
      #pragma omp ordered depend(source)
    }
    #pragma omp atomic update
    hits += 1;
    #pragma omp flush
    #pragma omp taskyield
    #pragma omp cancellation point parallel
  }
  /* nested seven deep: parallel, single, taskgroup, task, if, for, while */
  #pragma omp parallel if(n > 100)
  {
    #pragma omp single
    {
      #pragma omp taskgroup
      {
        #pragma omp task shared(a) firstprivate(n)
        {
          if (n > 1) {
            for (int k = 0; k < 2; k++) {
              while (0) {
                a[k] += 1.0;
              }
              omp_set_lock(&lock%[1]d);
              a[k] *= 1.0;
              omp_unset_lock(&lock%[1]d);
            }
          }
        }
      }
    }
  }
  #pragma pomp inst begin(phase%[1]d)
  #pragma omp taskloop grainsize(64)
  for (int i = 0; i < n; i++)
    a[i] = b[i] * 2.0;
  #pragma pomp inst end(phase%[1]d)
  _Pragma("omp parallel for simd reduction(+: sum)")
  for (int i = 0; i < n; i++)
    sum += a[i] * b[i];
  #pragma omp parallel master taskloop
  for (int i = 0; i < n; i++)
    b[i] -= 1.0;
  #pragma omp parallel
  {
    #pragma omp loop
    for (int i = 0; i < n; i++)
      a[i] += 0.5;
    #pragma omp for
    for (int i = 0; i < n; i++) {
      if (a[i] < 0.0) {
        #pragma omp cancel for
      }
      a[i] = a[i] > 1e9 ? 1e9 : a[i];
    }
  }
  #pragma omp target map(tofrom: a[0:n])
  for (int i = 0; i < n; i++)
    a[i] += 1.0;
  if (omp_test_lock(&lock%[1]d)) {
    hits += table%[1]d[0];
    omp_unset_lock(&lock%[1]d);
  }
  omp_destroy_lock(&lock%[1]d);
  (void)note;
  if (hits < 0)
    puts("impossible: #pragma omp critical");
  b[0] = sum + hits + counter%[1]d;
}

/* a helper without directives */
static double mean%[1]d(const double *a, int n) {
  double t = 0.0;
  if (n <= 0)
    return 0.0;
  for (int i = 0; i < n; i++)
    t += a[i];
  /* "#pragma omp parallel" is not a directive here,
     and neither is omp_set_lock(&x) */
  return t / n;
}

double checkB%[1]d(double *a, double *b, int n) {
  double m;
  kernelB%[1]d(n, a, b);
  m = mean%[1]d(a, n);
  PARFOR%[1]d
  for (int i = 0; i < n; i++)
    a[i] -= m;
  #pragma omp parallel sections
  {
    #pragma omp section
    a[0] = m;
    #pragma omp section
    b[0] = m;
  }
  #pragma omp simd
  for (int i = 0; i < n; i++)
    b[i] = a[i] + b[i];
  return m;
}

/* padding: ordinary code between kernels */
static int pad%[1]d(int x) {
  int y = x;
  y = y * 3 + 1;
  y = y / 2;
  y ^= x;
  y += 7;
  y -= 3;
  y *= 5;
  y %%= 1000;
  y += x;
  y = y > 0 ? y : -y;
  y <<= 1;
  y >>= 1;
  y |= 1;
  y &= 0xffff;
%[3]s  return y;
}
`

// Lines counts the lines of src.
func Lines(src []byte) int { return bytes.Count(src, []byte{'\n'}) }
