package fortran

import (
	"regexp"
	"strings"
	"sync"

	"gopari/internal/constructs"
)

// The lock routines. A call statement of omp_init_lock, omp_set_lock,
// ... (and their _nest_ forms) alone on its line becomes the call of its
// wrapper in a block; the functions omp_test_lock and omp_test_nest_lock
// are replaced where they are called, in an assignment, a CALL, PRINT or
// WRITE statement or a logical IF statement alone on its line, which
// goes into a block. The simple routines' wrappers are the C ones
// (omp_lock_kind storage is the C lock); the nest routines' are
// pomprt/fortran_locks.c's, which call the Fortran routines.

var lockRx = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^CALLOMP_(INIT|DESTROY|SET|UNSET)_(NEST_)?LOCK\(`) })

// lockCall wraps a call of a lock routine alone on its line; it reports
// whether item k is such a call.
func (r *rw) lockCall(k int) bool {
	it := r.its[k]
	m := lockRx().FindStringSubmatch(it.norm)
	if m == nil || r.disabled(constructs.Lock) {
		return false
	}
	nest := strings.ToLower(m[2])
	routine := "omp_" + strings.ToLower(m[1]) + "_" + nest + "lock"
	if !r.alone(k) {
		r.warn(k, "a call of %s not alone on its line, or labeled, is not measured", routine)
		return true
	}
	open := strings.IndexByte(it.raw, '(')
	close := strings.LastIndexByte(it.raw, ')')
	if open < 0 || close < open {
		return true
	}
	reg := r.lockRegion(k, routine)
	wrapper := "POMP_" + strings.ToUpper(m[1][:1]) + strings.ToLower(m[1][1:]) + "_" + nest + "lock"
	r.replaceItem(k, r.open(call(wrapper, reg, strings.TrimSpace(it.raw[open+1:close])), "end block"))
	return true
}

// alone says whether item k is alone on its lines and not labeled.
func (r *rw) alone(k int) bool {
	it := r.its[k]
	return it.label == "" && (k == 0 || r.its[k-1].last < it.first) && (k+1 >= len(r.its) || r.its[k+1].first > it.last)
}

func (r *rw) lockRegion(k int, routine string) string {
	it := r.its[k]
	l := r.lines[it.first]
	return r.addRegion(region{kind: constructs.Lock, begin: l.num, end: r.lines[it.last].num, file: l.file, name: "lock", sub: routine})
}

// replaceItem puts lines in place of item k's.
func (r *rw) replaceItem(k int, lines []string) {
	it := r.its[k]
	r.replace[it.first] = lines
	for i := it.first + 1; i <= it.last; i++ {
		r.drop[i] = true
	}
}

var (
	testRx = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?:^|[^A-Z0-9_%])OMP_TEST_(NEST_)?LOCK\(`) })
	// The statements a test call can be replaced in: an assignment, CALL,
	// PRINT, WRITE and a logical IF statement (not IF ... THEN).
	assignRx = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^[A-Z][A-Z0-9_]*(\([^=]*\))?(%[A-Z0-9_]+(\([^=]*\))?)*=[^=]`)
	})
	actionRx = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(CALL[A-Z]|PRINT|WRITE\(|IF\()`) })
	ifThenRx = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^IF\(.*\)THEN$`) })
	testAt   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?i)omp_test_(nest_)?lock[ \t]*\(`) })
)

// testCall replaces the calls of omp_test_lock and omp_test_nest_lock in
// the statement at k, which it puts in a block.
func (r *rw) testCall(k int) {
	it := r.its[k]
	calls := testRx().FindAllStringSubmatch(it.norm, -1)
	if calls == nil || r.disabled(constructs.Lock) {
		return
	}
	routine := "omp_test_" + strings.ToLower(calls[0][1]) + "lock"
	n := it.norm
	if !r.alone(k) || !(assignRx().MatchString(n) || actionRx().MatchString(n)) || ifThenRx().MatchString(n) {
		r.warn(k, "a call of %s outside an assignment, CALL, PRINT, WRITE or logical IF statement alone on its line is not measured", routine)
		return
	}
	text, ok := r.replaceTests(k, it.raw, len(calls))
	if !ok {
		r.warn(k, "a call of %s gopari cannot read is not measured", routine)
		return
	}
	r.body = [2]int{k - 1, k} // the omp_lib functions of the statement (ompnames.go)
	defer func() { r.body = [2]int{} }()
	r.replaceItem(k, r.open(text, "end block"))
}

// replaceTests returns s with each of its want calls of omp_test_lock
// and omp_test_nest_lock, outside character contexts, replaced by a call
// of the wrapper with a region of its own, or false.
func (r *rw) replaceTests(k int, s string, want int) (string, bool) {
	var b strings.Builder
	var quote byte
	found := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		}
		m := testAt().FindStringSubmatchIndex(s[i:])
		if quote != 0 || m == nil || (i > 0 && isNameByte(s[i-1])) {
			b.WriteByte(c)
			continue
		}
		args, end := parenArgs(s[i+m[1]-1:])
		if end < 0 {
			return "", false
		}
		if m[2] >= 0 {
			b.WriteString("POMP_Test_nest_lock(" + r.lockRegion(k, "omp_test_nest_lock") + ", " + args + ")")
		} else {
			b.WriteString("(POMP_Test_lock(" + r.lockRegion(k, "omp_test_lock") + ", " + args + ") /= 0)")
		}
		found++
		i += m[1] - 1 + end
	}
	return b.String(), found == want && quote == 0
}

func isNameByte(c byte) bool {
	return c == '_' || c == '%' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// parenArgs returns the text inside the parenthesis that opens s and the
// index of its closing one, or -1.
func parenArgs(s string) (string, int) {
	i := closeParen(s)
	if i < 0 {
		return "", -1
	}
	return strings.TrimSpace(s[1:i]), i
}
