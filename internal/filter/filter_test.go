package filter

import (
	"errors"
	"strings"
	"testing"
)

// scorepTestFilter is Score-P's own filter test, test/filtering/filter.cfg
// (its license header left out), with its comments saying what it means.
const scorepTestFilter = `## file       filter.cfg
##
## Filter definition for the filter test

# -------------------------------------------------------

# filter_test.c not_filtered.c are included,
# filtered_file.c is excluded
SCOREP_FILE_NAMES_BEGIN # Comment after key
  INCLUDE *
  EXCLUDE */filtering/filter*
  INCLUDE */filter_test.c
SCOREP_FILE_NAMES_END


# filtered1 is excluded by the function list (the slash make the space part
#           of the name
# filtered2 is excluded because it is excluded by the file which overrides
#           the inclusion from the function list
# main, filter_not1, and filter_not2 are included
SCOREP_REGION_NAMES_BEGIN
  EXCLUDE *
  INCLUDE filter_not2 filtered2
          filter_not1 \ filtered1
          filter_not3
          main
SCOREP_REGION_NAMES_END
`

func TestScorePTestFilter(t *testing.T) {
	t.Parallel()
	f, err := Parse("filter.cfg", []byte(scorepTestFilter))
	if err != nil {
		t.Fatal(err)
	}
	const dir = "/src/scorep/test/filtering/"
	for _, c := range []struct {
		name, file string
		want       bool
	}{
		{"main", dir + "filter_test.c", true},
		{"filter_not1", dir + "filter_test.c", true},
		{"filter_not2", dir + "filter_test.c", true},
		{"filter_not3", dir + "not_filtered.c", true},
		{"filtered1", dir + "filter_test.c", false},   // "\ filtered1" is " filtered1"
		{" filtered1", dir + "filter_test.c", true},   // which that pattern includes
		{"filtered2", dir + "filtered_file.c", false}, // its file is excluded
		{"other", dir + "filter_test.c", false},       // EXCLUDE *
		{"main", "", true},                            // no file: the name decides
	} {
		if got := f.Function(c.name, "", c.file); got != c.want {
			t.Errorf("Function(%q, %q) = %v, want %v", c.name, c.file, got, c.want)
		}
	}
	if f.File(dir+"filtered_file.c") || !f.File(dir+"not_filtered.c") {
		t.Errorf("file rules: filtered_file.c included or not_filtered.c excluded")
	}
	if n := len(f.Regions); n != 7 {
		t.Errorf("%d region rules, want 7", n)
	}
}

// The manual's examples (Score-P user manual, "Filtering"): a block of
// each kind, comments after keywords, a rule's patterns over several
// lines, and MANGLED.
func TestManualExamples(t *testing.T) {
	t.Parallel()
	src := `SCOREP_FILE_NAMES_BEGIN # This is a comment
  EXCLUDE */foo/bar*
  INCLUDE */filter_test.c
SCOREP_FILE_NAMES_END

SCOREP_REGION_NAMES_BEGIN
  EXCLUDE *
  INCLUDE bar foo
          baz
          main
  EXCLUDE MANGLED _Z3bazv
SCOREP_REGION_NAMES_END
`
	f, err := Parse("manual.filter", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, mangled, file string
		want                bool
	}{
		{"main", "", "x/main.c", true},
		{"foo", "_Z3foov", "x/main.c", true},
		{"baz()", "_Z3bazv", "x/main.c", false}, // the last rule, on the mangled name
		{"quux", "", "x/main.c", false},
		{"foo", "", "/a/foo/bar.c", false},              // excluded file
		{"foo", "", "/a/foo/bar/filter_test.c", true},   // included again
		{"_Z3bazv", "", "x/main.c", false},              // no mangled name: MANGLED matches the name
		{"bar", "_Z3barv", "/src/foo/barrier.c", false}, // */foo/bar* matches a file prefix
	} {
		if got := f.Function(c.name, c.mangled, c.file); got != c.want {
			t.Errorf("Function(%q, %q, %q) = %v, want %v", c.name, c.mangled, c.file, got, c.want)
		}
	}
}

func TestSemantics(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		src  string
		name string
		want bool
	}{
		// No rules: everything is measured.
		{"", "f", true},
		{"SCOREP_REGION_NAMES_BEGIN\nSCOREP_REGION_NAMES_END\n", "f", true},
		// The last matching rule decides.
		{"SCOREP_REGION_NAMES_BEGIN EXCLUDE f* INCLUDE foo EXCLUDE fo? SCOREP_REGION_NAMES_END", "foo", false},
		{"SCOREP_REGION_NAMES_BEGIN EXCLUDE f* INCLUDE foo EXCLUDE fo? SCOREP_REGION_NAMES_END", "fo", false},
		{"SCOREP_REGION_NAMES_BEGIN EXCLUDE f* INCLUDE foo EXCLUDE fo? SCOREP_REGION_NAMES_END", "foox", false},
		{"SCOREP_REGION_NAMES_BEGIN EXCLUDE f* INCLUDE foo* SCOREP_REGION_NAMES_END", "foox", true},
		// An INCLUDE without an EXCLUDE before it changes nothing.
		{"SCOREP_REGION_NAMES_BEGIN INCLUDE foo SCOREP_REGION_NAMES_END", "bar", true},
		// Blocks of a kind join, in order.
		{"SCOREP_REGION_NAMES_BEGIN EXCLUDE * SCOREP_REGION_NAMES_END\nSCOREP_REGION_NAMES_BEGIN INCLUDE main SCOREP_REGION_NAMES_END", "main", true},
		// DEMANGLED switches MANGLED off within a rule.
		{"SCOREP_REGION_NAMES_BEGIN EXCLUDE MANGLED _Z* DEMANGLED ns::* SCOREP_REGION_NAMES_END", "ns::f()", false},
		// Keywords end a rule: EXCLUDE after MANGLED starts unmangled.
		{"SCOREP_REGION_NAMES_BEGIN EXCLUDE MANGLED x EXCLUDE g SCOREP_REGION_NAMES_END", "g", false},
		// An escaped '#' is part of the pattern, not a comment.
		{"SCOREP_REGION_NAMES_BEGIN EXCLUDE a\\#b SCOREP_REGION_NAMES_END", "a#b", false},
		{"SCOREP_REGION_NAMES_BEGIN EXCLUDE a#b\nSCOREP_REGION_NAMES_END", "a", false},
		// A carriage return is white space (files written on Windows).
		{"SCOREP_REGION_NAMES_BEGIN\r\n  EXCLUDE g\r\nSCOREP_REGION_NAMES_END\r\n", "g", false},
	} {
		f, err := Parse("t", []byte(c.src))
		if err != nil {
			t.Errorf("Parse(%q): %v", c.src, err)
			continue
		}
		if got := f.Function(c.name, "", "x.c"); got != c.want {
			t.Errorf("%q: Function(%q) = %v, want %v", c.src, c.name, got, c.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ src, want string }{
		{"EXCLUDE foo", "f:1:1: EXCLUDE outside a SCOREP_REGION_NAMES_BEGIN or SCOREP_FILE_NAMES_BEGIN block"},
		{"\n  foo", `f:2:3: unexpected "foo" outside a SCOREP_REGION_NAMES_BEGIN or SCOREP_FILE_NAMES_BEGIN block`},
		{"SCOREP_REGION_NAMES_BEGIN\n  main\n", `f:2:3: pattern "main" before EXCLUDE or INCLUDE`},
		{"SCOREP_REGION_NAMES_BEGIN\nEXCLUDE x\n", "f:1:1: SCOREP_REGION_NAMES_BEGIN without SCOREP_REGION_NAMES_END"},
		{"# c\n SCOREP_FILE_NAMES_BEGIN\n", "f:2:2: SCOREP_FILE_NAMES_BEGIN without SCOREP_FILE_NAMES_END"},
		{"SCOREP_REGION_NAMES_BEGIN SCOREP_FILE_NAMES_BEGIN", "f:1:27: SCOREP_FILE_NAMES_BEGIN inside the block opened at line 1"},
		{"SCOREP_REGION_NAMES_BEGIN\nSCOREP_FILE_NAMES_END", "f:2:1: SCOREP_FILE_NAMES_END inside the SCOREP_REGION_NAMES_BEGIN block opened at line 1"},
		{"SCOREP_REGION_NAMES_END", "f:1:1: SCOREP_REGION_NAMES_END without its BEGIN"},
		{"SCOREP_FILE_NAMES_BEGIN EXCLUDE MANGLED x", "f:1:33: MANGLED applies to region names only, in a SCOREP_REGION_NAMES_BEGIN block"},
		{"SCOREP_REGION_NAMES_BEGIN MANGLED x", "f:1:27: MANGLED must follow EXCLUDE or INCLUDE"},
		{"SCOREP_REGION_NAMES_BEGIN\n EXCLUDE foo\\\n bar", "f:2:13: a backslash cannot continue a line"},
		{"SCOREP_REGION_NAMES_BEGIN\n EXCLUDE f\x00o", "f:2:11: NUL byte in a filter file"},
	} {
		_, err := Parse("f", []byte(c.src))
		var fe *Error
		if !errors.As(err, &fe) || err.Error() != c.want {
			t.Errorf("Parse(%q) = %v, want %s", c.src, err, c.want)
		}
	}
}

func TestWriteRoundTrip(t *testing.T) {
	t.Parallel()
	f, err := Parse("filter.cfg", []byte(scorepTestFilter))
	if err != nil {
		t.Fatal(err)
	}
	f.Header = "proposed by a test\nsecond line"
	f.Regions = append(f.Regions,
		Rule{Exclude: true, Pattern: Quote("operator[] #1"), Comment: "1,000 visits"},
		Rule{Exclude: true, Mangled: true, Pattern: Quote("INCLUDE")},
		Rule{Exclude: true, Mangled: true, Pattern: Quote(`a\ b\`)})
	var b strings.Builder
	if _, err := f.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	want := `# proposed by a test
# second line

SCOREP_REGION_NAMES_BEGIN
  EXCLUDE *
  INCLUDE filter_not2
          filtered2
          filter_not1
          \ filtered1
          filter_not3
          main
  EXCLUDE operator\[]\ \#1  # 1,000 visits
  EXCLUDE MANGLED \INCLUDE
                  a[\\]\ b[\\]
SCOREP_REGION_NAMES_END

SCOREP_FILE_NAMES_BEGIN
  INCLUDE *
  EXCLUDE */filtering/filter*
  INCLUDE */filter_test.c
SCOREP_FILE_NAMES_END
`
	if b.String() != want {
		t.Errorf("WriteTo:\n%s\nwant:\n%s", b.String(), want)
	}
	g, err := Parse("again", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if !sameRules(f, g) {
		t.Errorf("read back differently:\n%+v\n%+v", f, g)
	}
	for _, name := range []string{"operator[] #1", "INCLUDE", `a\ b\`, "*?[", "a\tb"} {
		if q := Quote(name); !Match(q, name) || Match(q, name+"x") || Match(q, "x"+name) {
			t.Errorf("Quote(%q) = %q does not match exactly it", name, q)
		}
	}
	bad := &Filter{Regions: []Rule{{Exclude: true, Pattern: "a b"}}}
	if n, err := bad.WriteTo(&b); err == nil || n != 0 {
		t.Errorf("WriteTo with pattern %q: %d bytes, %v; want an error and nothing", "a b", n, err)
	}
}

// sameRules reports whether two filters hold the same rules.
func sameRules(a, b *Filter) bool {
	same := func(x, y []Rule) bool {
		if len(x) != len(y) {
			return false
		}
		for i := range x {
			if x[i].Exclude != y[i].Exclude || x[i].Mangled != y[i].Mangled || x[i].Pattern != y[i].Pattern {
				return false
			}
		}
		return true
	}
	return same(a.Regions, b.Regions) && same(a.Files, b.Files)
}

func TestCompilerExclusions(t *testing.T) {
	t.Parallel()
	src := `SCOREP_FILE_NAMES_BEGIN
  EXCLUDE */gen/*        # before an INCLUDE: at run time
  INCLUDE */gen/keep.c
  EXCLUDE *third_party*  *a\*b* *c,d*
          */vendor/*.h   # not *literal*
          *x\\y*         # a backslash in GCC's list
SCOREP_FILE_NAMES_END
SCOREP_REGION_NAMES_BEGIN
  EXCLUDE *get*  **set**  *ns::f*  *_Z* MANGLED *tiny*
  EXCLUDE get_x  *   *?x*  *[ab]*
  EXCLUDE *Mesh::~Mesh*  *Box<int*  *a,b*  *a b*  *int*  *std::*  *print*
SCOREP_REGION_NAMES_END
`
	f, err := Parse("f", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	files, fns := f.CompilerExclusions()
	if got, want := strings.Join(files, "|"), "third_party|a*b|c,d"; got != want {
		t.Errorf("files %q, want %q", got, want)
	}
	if got, want := strings.Join(fns, "|"), "get|set|ns::f|_Z|Mesh::~Mesh|print"; got != want {
		t.Errorf("functions %q, want %q", got, want)
	}
	var none *Filter
	if a, b := none.CompilerExclusions(); a != nil || b != nil {
		t.Errorf("nil filter: %q %q", a, b)
	}
}
