package fortran

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestFormOf(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		path    string
		form    Form
		pre, ok bool
	}{
		{"a.f90", Free, false, true}, {"a.F90", Free, true, true}, {"dir.x/a.f08", Free, false, true},
		{"a.f", Fixed, false, true}, {"a.F", Fixed, true, true}, {"a.for", Fixed, false, true},
		{"a.c", Free, false, false}, {"a", Free, false, false}, {"a.f/b", Free, false, false},
	} {
		form, pre, ok := FormOf(c.path)
		if form != c.form || pre != c.pre || ok != c.ok {
			t.Errorf("FormOf(%q) = %v, %v, %v; want %v, %v, %v", c.path, form, pre, ok, c.form, c.pre, c.ok)
		}
	}
}

func TestParseDirective(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		text, name string
		end        bool
		arg        string
		clauses    string
	}{
		{"parallel do private(i) schedule(static, 4)", "parallel do", false, "", "private(i) schedule(static, 4)"},
		{"PARALLEL DO", "parallel do", false, "", ""},
		{"paralleldo", "parallel do", false, "", ""},
		{"end do nowait", "do", true, "", "nowait"},
		{"enddo", "do", true, "", ""},
		{"END PARALLEL DO", "parallel do", true, "", ""},
		{"critical (acc)", "critical", false, "acc", ""},
		{"end critical(acc)", "critical", true, "acc", ""},
		{"end single copyprivate(x, y)", "single", true, "", "copyprivate(x, y)"},
		{"taskwait", "taskwait", false, "", ""},
		{"task shared(x), if(n > 2)", "task", false, "", "shared(x) if(n > 2)"},
		{"do simd", "do simd", false, "", ""},
		{"dosimd", "do simd", false, "", ""},
		{"parallel default(none) shared(a)", "parallel", false, "", "default(none) shared(a)"},
		{"flush (a, b)", "flush", false, "a, b", ""},
		{"threadprivate(/storage/)", "threadprivate", false, "", ""},
		{"sections", "sections", false, "", ""},
		{"section", "section", false, "", ""},
	} {
		d := parseDirective(c.text)
		if d.bad != "" {
			t.Errorf("%q: %s", c.text, d.bad)
			continue
		}
		if d.name != c.name || d.end != c.end || d.arg != c.arg || clauseText(d.clauses) != c.clauses {
			t.Errorf("%q: name %q end %v arg %q clauses %q; want %q %v %q %q", c.text, d.name, d.end, d.arg,
				clauseText(d.clauses), c.name, c.end, c.arg, c.clauses)
		}
	}
	if d := parseDirective("parallel private(a"); d.bad == "" {
		t.Errorf("an unbalanced clause is read")
	}
	if d := parseDirective("frobnicate"); d.name != "" || d.words != "frobnicate" {
		t.Errorf("unknown directive: %+v", d)
	}
}

func TestDoLabel(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		norm  string
		do    bool
		label string
	}{
		{"DOI=1,N", true, ""}, {"DO10I=1,N", true, "10"}, {"DO10,I=1,N", true, "10"},
		{"OUTER:DOI=1,N,2", true, ""}, {"DO", true, ""}, {"DOWHILE(X<1)", true, ""},
		{"DOI=F(1,N)", false, ""}, {"DOX=5", false, ""}, {"DONE=1", false, ""}, {"ENDDO", false, ""},
	} {
		do, label := doLabel(c.norm)
		if do != c.do || label != c.label {
			t.Errorf("doLabel(%q) = %v, %q; want %v, %q", c.norm, do, label, c.do, c.label)
		}
	}
}

// loopEndOf returns the text of the statement that ends the loop that
// the first statement of src starts.
func loopEndOf(src string, form Form) string {
	lines := splitLines([]byte(src), "x")
	if form == Fixed {
		classifyFixed(lines)
	} else {
		classifyFree(lines)
	}
	its := items(lines)
	e := loopEnd(its, 0)
	if e < 0 {
		return ""
	}
	return strings.TrimSpace(its[e].label + " " + its[e].raw)
}

func TestLoopEnd(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		src  string
		form Form
		want string
	}{
		{"do i = 1, n\n do j = 1, n\n  a = 1\n end do\n b = 2\nend do ! outer\nc = 3\n", Free, "end do"},
		{"do i = 1, n; a = 1; enddo\nb = 2\n", Free, "enddo"},
		{"      DO 10 J = 1, N\n      DO 10 I = 1, N\n   10 CONTINUE\n      X = 1\n", Fixed, "10 CONTINUE"},
		{"      DO 20 I = 1, N\n      DO J = 1, N\n      END DO\n   20 END DO\n      X = 1\n", Fixed, "20 END DO"},
		{"      DO 30 I = 1, N\n     &   + 1\n      A(I) = 'end do'\n   30 A(I) = 0\n", Fixed, "30 A(I) = 0"},
		{"outer: do i = 1, n\n  inner: do j = 1, n\n  end do inner\nend do outer\n", Free, "end do outer"},
		{"do i = 1, n\n  s = 'end do' ! end do\n", Free, ""},
	} {
		if got := loopEndOf(c.src, c.form); got != c.want {
			t.Errorf("%q: loop ends at %q, want %q", c.src, got, c.want)
		}
	}
}

func TestClassifyFixed(t *testing.T) {
	t.Parallel()
	src := "C comment\n" +
		"c$omp parallel\n" +
		"c$omp+private(i)\n" +
		"*$OMP END PARALLEL\n" +
		"!$    x = 1\n" +
		"\tx = 2\n" +
		"\t1 + 3\n" +
		fmt.Sprintf("%-72s%s\n", "      y = 3", "00010") +
		"   10 continue\n"
	lines := splitLines([]byte(src), "x.f")
	classifyFixed(lines)
	want := []struct {
		kind lineKind
		cont bool
		body string
	}{
		{lComment, false, ""}, {lDir, false, "parallel"}, {lDir, true, "private(i)"}, {lDir, false, "END PARALLEL"},
		{lCode, false, "x = 1"}, {lCode, false, "x = 2"}, {lCode, true, " + 3"}, {lCode, false, "y = 3"},
		{lCode, false, "10 continue"},
	}
	for i, w := range want {
		l := lines[i]
		if l.kind != w.kind || l.cont != w.cont || (w.body != "" && strings.TrimSpace(l.body) != strings.TrimSpace(w.body)) {
			t.Errorf("line %d %q: kind %d cont %v body %q; want %d %v %q", i+1, l.text, l.kind, l.cont, l.body, w.kind, w.cont, w.body)
		}
	}
}

func TestClassifyFree(t *testing.T) {
	t.Parallel()
	src := "  !$OMP parallel &  ! comment\n" +
		"  !$omp& private(i) &\n" +
		"  !$omp shared(a)\n" +
		"  s = 'it''s & not ! a comment' // &\n" +
		"      & 'x' ! trailing\n" +
		"!$ n = omp_get_num_threads()\n" +
		"!$omptask\n"
	lines := splitLines([]byte(src), "x.f90")
	classifyFree(lines)
	its := items(lines)
	if len(its) != 3 {
		t.Fatalf("%d items, want 3 (!$omptask is a comment): %+v", len(its), its)
	}
	if d := its[0].dir; d == nil || d.name != "parallel" || clauseText(d.clauses) != "private(i) shared(a)" {
		t.Errorf("continued directive read as %+v", its[0].dir)
	}
	if its[1].raw != "s = 'it''s & not ! a comment' //  'x'" {
		t.Errorf("continued statement read as %q", its[1].raw)
	}
	if its[2].norm != "N=OMP_GET_NUM_THREADS()" {
		t.Errorf("conditional line read as %q", its[2].norm)
	}
}

func TestErrors(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ src, want string }{
		{"!$omp parallel\nx = 1\n", "x.f90:1:1: error: !$omp parallel without !$omp end parallel"},
		{"x = 1\n!$omp end critical\n", "x.f90:2:1: error: !$omp end critical without !$omp critical"},
		{"!$omp do\nx = 1\n", "x.f90:1:1: error: !$omp do is not followed by a DO loop"},
		{"!$omp section\n", "x.f90:1:1: error: !$omp section outside !$omp sections"},
		{"!$omp parallel private(a\n!$omp end parallel\n", "x.f90:1:1: error: cannot read the directive: unbalanced parenthesis in clause private"},
		{"!$pomp inst begin(a)\n", "x.f90:1:1: error: !$pomp inst begin(a) without !$pomp inst end(a)"},
	} {
		_, err := Instrument([]byte(c.src), Options{Name: "x.f90"})
		if err == nil || err.Error() != c.want {
			t.Errorf("%q: error %v, want %q", c.src, err, c.want)
		}
	}
}

// TestLineMarkers checks that every line of the user's keeps its number:
// the marker before it, or the count from the last marker, says it.
func TestLineMarkers(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("../../golden/testdata/fortran/free_constructs.f90")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Instrument(src, Options{Name: "f.f90"})
	if err != nil {
		t.Fatal(err)
	}
	user := strings.Split(string(src), "\n")
	seen := map[int]bool{} // user lines found under their own number
	num := 0
	for _, l := range strings.Split(string(res.Fortran), "\n") {
		if f, n, ok := lineMarker(l); ok && f == "f.f90" {
			num = n
			continue
		}
		if num >= 1 && num <= len(user) && l == user[num-1] {
			seen[num] = true
			num++
			continue
		}
		num = 0 // a generated line: the next user line must have a marker
	}
	for i, l := range user {
		low := strings.ToLower(l)
		if i == len(user)-1 || strings.Contains(low, "!$omp") || strings.Contains(low, "call omp_") {
			continue // directives and lock calls are rewritten
		}
		if !seen[i+1] {
			t.Errorf("line %d %q is not at line %d of the result's numbering", i+1, l, i+1)
		}
	}
}

// TestModuleUpToDate checks the generated module and event calls against
// the list (go generate ./rewrite/fortran).
func TestModuleUpToDate(t *testing.T) {
	t.Parallel()
	for path, want := range map[string]string{ModulePath: Module(), EventsPath: Events()} {
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Errorf("%s is stale: run go generate ./rewrite/fortran", path)
		}
	}
	for _, c := range eventCalls() {
		if !strings.Contains(Module(), "subroutine "+c.Name+"(r)") {
			t.Errorf("pomp_lib lacks %s", c.Name)
		}
	}
}

// TestLineMarkerForms reads the line markers of GCC's preprocessor, of
// #line, and of flang's preprocessor (#line "file" N).
func TestLineMarkerForms(t *testing.T) {
	for _, c := range []struct {
		in   string
		file string
		n    int
		ok   bool
	}{
		{`# 12 "a.F90" 2`, "a.F90", 12, true},
		{`#line 7 "b c.F"`, "b c.F", 7, true},
		{`#line "/x/fortran_fixed.F" 4`, "/x/fortran_fixed.F", 4, true},
		{`#line "x.F"`, "", 0, false},
		{`#define N 40`, "", 0, false},
	} {
		f, n, ok := lineMarker(c.in)
		if f != c.file || n != c.n || ok != c.ok {
			t.Errorf("lineMarker(%q) = %q, %d, %v; want %q, %d, %v", c.in, f, n, ok, c.file, c.n, c.ok)
		}
	}
}
