package fortran

import (
	"sort"
	"strings"
	"sync"

	"gopari/internal/constructs"
)

// shape says what follows a directive.
type shape uint8

const (
	sNone    shape = iota // standalone: barrier, flush, taskwait, ...
	sBlock                // a block closed by an end directive
	sLoop                 // a DO loop; the end directive is optional
	sAtomic               // one statement, or a block with an end directive
	sSection              // a section of a sections construct
	sOpaque               // target, teams, distribute: left as written, with their insides
	sPass                 // declarative or unknown: left as written
)

// A dinfo describes one directive name.
type dinfo struct {
	kind   constructs.ID
	shape  shape
	leaves []string // combined constructs: parallel and the inner one
	inner  bool     // the body is not instrumented (simd)
}

// directives are the Fortran directives gopari knows, by name (words
// joined by single blanks). Their end directives are "end " + name.
var directives = map[string]dinfo{
	"parallel":           {constructs.Parallel, sBlock, nil, false},
	"do":                 {constructs.For, sLoop, nil, false},
	"do simd":            {constructs.For, sLoop, nil, true},
	"simd":               {constructs.Simd, sLoop, nil, true},
	"loop":               {constructs.Loop, sLoop, nil, false},
	"parallel do":        {constructs.Parallel, sLoop, []string{"parallel", "do"}, false},
	"parallel do simd":   {constructs.Parallel, sLoop, []string{"parallel", "do simd"}, true},
	"parallel loop":      {constructs.Parallel, sLoop, []string{"parallel", "loop"}, false},
	"sections":           {constructs.Sections, sBlock, nil, false},
	"section":            {constructs.Sections, sSection, nil, false},
	"parallel sections":  {constructs.Parallel, sBlock, []string{"parallel", "sections"}, false},
	"single":             {constructs.Single, sBlock, nil, false},
	"workshare":          {constructs.For, sBlock, nil, false},
	"parallel workshare": {constructs.Parallel, sBlock, []string{"parallel", "workshare"}, false},
	"master":             {constructs.Master, sBlock, nil, false},
	"masked":             {constructs.Master, sBlock, nil, false},
	"critical":           {constructs.Critical, sBlock, nil, false},
	"atomic":             {constructs.Atomic, sAtomic, nil, false},
	"flush":              {constructs.Flush, sNone, nil, false},
	"barrier":            {constructs.Barrier, sNone, nil, false},
	"taskwait":           {constructs.Taskwait, sNone, nil, false},
	"taskyield":          {constructs.Taskyield, sNone, nil, false},
	"task":               {constructs.Task, sBlock, nil, false},
	"taskgroup":          {constructs.Taskgroup, sBlock, nil, false},
	"ordered":            {constructs.Ordered, sBlock, nil, false},
	"scope":              {constructs.Scope, sBlock, nil, false},
	"taskloop":           {constructs.Taskloop, sLoop, nil, false},
	"cancel":             {constructs.Cancel, sNone, nil, false},
	"cancellation point": {constructs.CancellationPoint, sNone, nil, false},
	// Passed over: no call may be placed in a simd loop (taskloop simd).
	"taskloop simd":   {0, sLoop, nil, true},
	"target":          {0, sOpaque, nil, false},
	"teams":           {0, sOpaque, nil, false},
	"distribute":      {0, sOpaque, nil, false},
	"threadprivate":   {0, sPass, nil, false},
	"declare":         {0, sPass, nil, false},
	"requires":        {0, sPass, nil, false},
	"allocate":        {0, sPass, nil, false},
	"allocators":      {0, sPass, nil, false},
	"parallel master": {0, sOpaque, nil, false},
	"parallel masked": {0, sOpaque, nil, false},
	"masked taskloop": {0, sLoop, nil, true},
	"master taskloop": {0, sLoop, nil, true},
	"metadirective":   {0, sPass, nil, false},
	"error":           {0, sPass, nil, false},
	"nothing":         {0, sPass, nil, false},
	"interop":         {0, sPass, nil, false},
	"depobj":          {0, sPass, nil, false},
	"tile":            {0, sPass, nil, false},
	"unroll":          {0, sPass, nil, false},
	"assume":          {0, sPass, nil, false},
	"assumes":         {0, sPass, nil, false},
	"dispatch":        {0, sPass, nil, false},
}

// names are the directive names, "end" names included, longest first.
var names = sync.OnceValue(func() []string {
	var out []string
	for n, d := range directives {
		out = append(out, n)
		if d.shape != sNone && d.shape != sPass && d.shape != sSection {
			out = append(out, "end "+n)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := strings.ReplaceAll(out[i], " ", ""), strings.ReplaceAll(out[j], " ", "")
		if len(a) != len(b) {
			return len(a) > len(b)
		}
		return a < b
	})
	return out
})

// A clause is one clause of a directive.
type clause struct {
	name    string // lower case
	args    string // inside the parentheses, as written
	hasArgs bool
}

func (c clause) String() string {
	if c.hasArgs {
		return c.name + "(" + c.args + ")"
	}
	return c.name
}

// A directive is one parsed !$omp directive.
type directive struct {
	name    string // canonical: lower-case words joined by single blanks; "" if unknown
	words   string // the name as found, for unknown directives: the first word
	end     bool   // an end directive; name is the construct's
	arg     string // critical (name), flush (list), end critical (name)
	hasArg  bool
	clauses []clause
	info    dinfo
	bad     string // why the directive could not be read, or ""
}

// parseDirective reads the text after the sentinel.
func parseDirective(text string) *directive {
	d := &directive{}
	t := strings.TrimSpace(text)
	lower := strings.ToLower(t)
	rest := ""
	for _, n := range names() {
		if k := matchName(lower, n); k >= 0 {
			d.name, rest = n, t[k:]
			break
		}
	}
	if d.name == "" {
		w := lower
		if i := strings.IndexAny(w, " \t(,"); i >= 0 {
			w = w[:i]
		}
		d.words = w
		d.info = dinfo{shape: sPass}
		return d
	}
	if strings.HasPrefix(d.name, "end ") {
		d.end, d.name = true, d.name[4:]
	}
	d.info = directives[d.name]
	if d.info.shape == sPass || d.info.shape == sOpaque {
		return d // left as written: its clauses are the compiler's to read
	}
	rest = strings.TrimSpace(rest)
	if strings.HasPrefix(rest, "(") && (d.name == "critical" || d.name == "flush" || d.name == "cancel") {
		k := closeParen(rest)
		if k < 0 {
			d.bad = "unbalanced parenthesis"
			return d
		}
		d.arg, d.hasArg, rest = strings.TrimSpace(rest[1:k]), true, rest[k+1:]
	}
	d.clauses, d.bad = parseClauses(rest)
	return d
}

// matchName returns the length of the prefix of s that spells name, its
// words with or without blanks between them and ending at a word's end,
// or -1.
func matchName(s, name string) int {
	want := strings.ReplaceAll(name, " ", "")
	i, got := 0, 0
	for got < len(want) {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		if i >= len(s) || s[i] != want[got] {
			return -1
		}
		i++
		got++
	}
	if i < len(s) && isWordByte(s[i]) {
		return -1
	}
	return i
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// closeParen returns the index of the parenthesis that closes s[0].
func closeParen(s string) int {
	depth := 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '(':
			depth++
		case c == ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// parseClauses reads "name", "name(args)" separated by blanks or commas.
func parseClauses(s string) ([]clause, string) {
	var out []clause
	for {
		s = strings.TrimLeft(s, " \t,")
		if s == "" {
			return out, ""
		}
		i := 0
		for i < len(s) && isWordByte(s[i]) {
			i++
		}
		if i == 0 {
			return out, "unexpected " + strings.TrimSpace(s)
		}
		c := clause{name: strings.ToLower(s[:i])}
		s = strings.TrimLeft(s[i:], " \t")
		if strings.HasPrefix(s, "(") {
			k := closeParen(s)
			if k < 0 {
				return out, "unbalanced parenthesis in clause " + c.name
			}
			c.args, c.hasArgs, s = strings.TrimSpace(s[1:k]), true, s[k+1:]
		}
		out = append(out, c)
	}
}

// has reports whether the directive has a clause.
func (d *directive) has(name string) bool {
	for _, c := range d.clauses {
		if c.name == name {
			return true
		}
	}
	return false
}

// without returns the clauses but those named.
func without(cs []clause, names ...string) []clause {
	var out []clause
	for _, c := range cs {
		drop := false
		for _, n := range names {
			drop = drop || c.name == n
		}
		if !drop {
			out = append(out, c)
		}
	}
	return out
}
