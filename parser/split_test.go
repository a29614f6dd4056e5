package parser

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// splitInputs are sources whose lines start inside every kind of
// lexical context a split point can meet.
var splitInputs = []struct {
	name string
	cpp  bool
	src  string
}{
	{"code", false, `int a = 1;
/* a comment
   #pragma omp parallel
   that spans lines */
int b = 2; // a line comment \
continued
#pragma omp parallel for schedule(static, 4)
for (int i = 0; i < n; i++) { x[i] = 1'000 + 0x1.8p+3; }
const char *s = "a \
b";
char c = '\'';
_Pragma("omp barrier")
void f(void) { omp_set_lock(&l); omp_unset_lock(&l); }
%: define X 1
# define LONG a \
  b \
  c
x = y->z + ++w;
int q = 3; # not a directive
int r = 4; %: nor this
`},
	{"conditionals", false, `#ifndef GUARD
#define GUARD
#if 0
#pragma omp parallel
int dead = "unterminated;
#else
int live;
#endif
#if 1
int one;
#elif defined(X)
int other;
#else
int never;
#endif
#ifdef Y
#pragma omp single
{ y(); }
#elif 0
skipped ' text
#endif
#endif
#endif
#else
`},
	{"markers", false, `# 1 "a.c"
int a;
# 1 "/usr/include/stdio.h" 1 3
int printf(const char *, ...);
# 3 "a.c" 2
#line 40
int b;
#line 7 "b.c"
#pragma omp task
{ b++; }
`},
	{"errors", false, `int a;
char *s = "unterminated
int b;
char c = 'x
int d;
/* unterminated comment
int e;
`},
	{"raw strings", true, `auto r = R"x(
#pragma omp parallel
/* not a comment
)x";
int omp = 1;
auto u = u8R"(a
b)";
std::vector<int> v{1'000'000};
auto z = LR"(unterminated
`},
	{"crlf and bom", false, "\xEF\xBB\xBFint a;\r\n#pragma omp parallel\r\n{ a++; }\r\n/* c\r\n */ int b;\r\n"},
}

// TestScanSplit checks that scanning in two parts, from any offset,
// finds exactly what one scan finds: tokens, the indices later passes
// use, line markers, diagnostics and whether the scan stopped.
func TestScanSplit(t *testing.T) {
	for _, sample := range []int{sampleBytes, 1, 17} {
		t.Run(fmt.Sprint("sample ", sample), func(t *testing.T) {
			defer func(n int) { sampleBytes = n }(sampleBytes)
			sampleBytes = sample
			testScanSplit(t)
		})
	}
}

// testScanSplit is TestScanSplit, for one size of scanSplit's sample.
func testScanSplit(t *testing.T) {
	joined, lines := 0, 0
	for _, in := range splitInputs {
		opts := Options{CPlusPlus: in.cpp}
		want, wantF, wantD := scanResult(in.src, opts, -1)
		for split := 0; split <= len(in.src); split++ {
			got, gotF, gotD := scanResult(in.src, opts, split)
			if d := cmp.Diff(want.summary(wantF, wantD), got.summary(gotF, gotD)); d != "" {
				t.Fatalf("%s, split at %d (%q|%q): differs from one scan (-want +got):\n%s",
					in.name, split, in.src[max(0, split-10):split], in.src[split:min(len(in.src), split+10)], d)
			}
			if got.joined {
				joined++
			}
		}
		lines += strings.Count(in.src, "\n")
	}
	// Most line starts are outside comments and literals: the parts must
	// be joined there, or this test checks nothing.
	if joined < lines/3 {
		t.Errorf("the two parts were joined at %d split points, for %d lines", joined, lines)
	}
}

func scanResult(src string, opts Options, split int) (*scanner, *File, DiagnosticList) {
	f := NewFile("t.c", []byte(src))
	var d DiagnosticList
	s := scanAt(f, opts, &d, split)
	return s, f, d
}

type scanSummary struct {
	Toks    []Token
	PP, IDs []int32
	Markers []marker
	Diags   []string
	Fatal   bool
}

func (s *scanner) summary(f *File, d DiagnosticList) scanSummary {
	d.Sort()
	var diags []string
	for _, e := range d {
		diags = append(diags, fmt.Sprint(e))
	}
	return scanSummary{s.toks, s.pp, s.ids, f.markers, diags, s.fatal}
}

// FuzzScanSplit checks two-part scans against one scan on arbitrary
// input, split at the middle and at a few line starts.
func FuzzScanSplit(f *testing.F) {
	addSeeds(f)
	for _, in := range splitInputs {
		f.Add([]byte(in.src))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		splits := []int{len(src) / 2, splitPoint(src)}
		for i, n := 0, 0; i < len(src) && n < 8; i++ {
			if src[i] == '\n' && i%3 == 0 {
				splits = append(splits, i+1)
				n++
			}
		}
		for _, cpp := range []bool{false, true} {
			opts := Options{CPlusPlus: cpp}
			want, wantF, wantD := scanResult(string(src), opts, -1)
			for _, split := range splits {
				got, gotF, gotD := scanResult(string(src), opts, split)
				if d := cmp.Diff(want.summary(wantF, wantD), got.summary(gotF, gotD)); d != "" {
					t.Fatalf("split at %d: differs from one scan (-want +got):\n%s", split, d)
				}
			}
		}
	})
}

// TestScanSplitShare checks the join where the first part holds far more
// tokens a byte than the second part's sample says, and overflows its
// share of the buffer, and where it holds far fewer.
func TestScanSplitShare(t *testing.T) {
	t.Parallel()
	dense := strings.Repeat("int t[] = {"+strings.Repeat("1,", 500)+"};\n", 40)
	sparse := strings.Repeat("/* a comment of one token, and a string: */ \"x\";\n", 400)
	for _, src := range []string{dense + sparse, sparse + dense} {
		split := splitPoint([]byte(src))
		want, wantF, wantD := scanResult(src, Options{}, -1)
		got, gotF, gotD := scanResult(src, Options{}, split)
		if !got.joined {
			t.Fatalf("split at %d: the parts were not joined", split)
		}
		if d := cmp.Diff(want.summary(wantF, wantD), got.summary(gotF, gotD)); d != "" {
			t.Fatalf("split at %d: differs from one scan (-want +got):\n%s", split, d)
		}
	}
}
