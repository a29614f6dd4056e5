package parser

import (
	"sort"
	"strings"
)

// Class says what gopari does with a directive.
type Class uint8

const (
	ClassUnknown Class = iota
	ClassParallel
	ClassFor // for, for simd
	ClassSimd
	ClassSections
	ClassSection
	ClassSingle
	ClassScope
	ClassMaster // master, masked
	ClassCritical
	ClassAtomic
	ClassFlush
	ClassBarrier
	ClassTaskwait
	ClassTaskyield
	ClassTask
	ClassTaskgroup
	ClassTaskloop // taskloop, taskloop simd
	ClassOrdered
	ClassLoop
	ClassCancel
	ClassCancellationPoint
	ClassCombined    // split into leaves and instrumented leaf by leaf
	ClassOffload     // target, teams, distribute and friends: passed through
	ClassDeclarative // threadprivate, declare *, requires, allocate, ...
	ClassPassthrough // standalone directives without events: depobj, scan, ...
	ClassDeclTargetBegin
	ClassDeclTargetEnd
	ClassUserBegin // pomp inst begin(name)
	ClassUserEnd   // pomp inst end(name), altend(name)
	ClassUserInit  // pomp inst init
	ClassUserOnOff // pomp inst on / off
	ClassMeta      // a metadirective whose variant is not known at compile time: passed through

	NumClasses // the number of classes, for tables indexed by Class
)

// StmtKind says what must follow a directive.
type StmtKind uint8

const (
	StmtNone  StmtKind = iota // standalone or declarative
	StmtBlock                 // a structured block
	StmtLoop                  // a loop nest
)

type dirInfo struct {
	class  Class
	stmt   StmtKind
	leaves []string // for combined constructs: the directives it splits into
}

// A namedDir is a directive's entry with its name, so that a parsed
// directive takes the table's string instead of allocating one, in the
// one lookup that finds its entry.
type namedDir struct {
	dirInfo
	name string
}

// dirTables holds directives and pompDirectives (index 1) with their
// names.
var dirTables = func() (t [2]map[string]namedDir) {
	for i, m := range []map[string]dirInfo{directives, pompDirectives} {
		t[i] = make(map[string]namedDir, len(m))
		for k, info := range m {
			t[i][k] = namedDir{info, k}
		}
	}
	return t
}()

// directives lists every C/C++ directive of OpenMP 5.2 that gopari knows,
// keyed by its words joined with single blanks.
var directives = map[string]dirInfo{
	"parallel":           {ClassParallel, StmtBlock, nil},
	"for":                {ClassFor, StmtLoop, nil},
	"for simd":           {ClassFor, StmtLoop, nil},
	"simd":               {ClassSimd, StmtLoop, nil},
	"sections":           {ClassSections, StmtBlock, nil},
	"section":            {ClassSection, StmtNone, nil},
	"single":             {ClassSingle, StmtBlock, nil},
	"scope":              {ClassScope, StmtBlock, nil},
	"master":             {ClassMaster, StmtBlock, nil},
	"masked":             {ClassMaster, StmtBlock, nil},
	"critical":           {ClassCritical, StmtBlock, nil},
	"atomic":             {ClassAtomic, StmtBlock, nil},
	"flush":              {ClassFlush, StmtNone, nil},
	"barrier":            {ClassBarrier, StmtNone, nil},
	"taskwait":           {ClassTaskwait, StmtNone, nil},
	"taskyield":          {ClassTaskyield, StmtNone, nil},
	"task":               {ClassTask, StmtBlock, nil},
	"taskgroup":          {ClassTaskgroup, StmtBlock, nil},
	"taskloop":           {ClassTaskloop, StmtLoop, nil},
	"taskloop simd":      {ClassTaskloop, StmtLoop, nil},
	"ordered":            {ClassOrdered, StmtBlock, nil}, // standalone with depend/doacross
	"loop":               {ClassLoop, StmtLoop, nil},
	"cancel":             {ClassCancel, StmtNone, nil},
	"cancellation point": {ClassCancellationPoint, StmtNone, nil},

	"parallel for":                  {ClassCombined, StmtLoop, []string{"parallel", "for"}},
	"parallel for simd":             {ClassCombined, StmtLoop, []string{"parallel", "for simd"}},
	"parallel sections":             {ClassCombined, StmtBlock, []string{"parallel", "sections"}},
	"parallel master":               {ClassCombined, StmtBlock, []string{"parallel", "master"}},
	"parallel masked":               {ClassCombined, StmtBlock, []string{"parallel", "masked"}},
	"parallel loop":                 {ClassCombined, StmtLoop, []string{"parallel", "loop"}},
	"parallel master taskloop":      {ClassCombined, StmtLoop, []string{"parallel", "master", "taskloop"}},
	"parallel master taskloop simd": {ClassCombined, StmtLoop, []string{"parallel", "master", "taskloop simd"}},
	"parallel masked taskloop":      {ClassCombined, StmtLoop, []string{"parallel", "masked", "taskloop"}},
	"parallel masked taskloop simd": {ClassCombined, StmtLoop, []string{"parallel", "masked", "taskloop simd"}},
	"master taskloop":               {ClassCombined, StmtLoop, []string{"master", "taskloop"}},
	"master taskloop simd":          {ClassCombined, StmtLoop, []string{"master", "taskloop simd"}},
	"masked taskloop":               {ClassCombined, StmtLoop, []string{"masked", "taskloop"}},
	"masked taskloop simd":          {ClassCombined, StmtLoop, []string{"masked", "taskloop simd"}},

	"target":                                    {ClassOffload, StmtBlock, nil},
	"target data":                               {ClassOffload, StmtBlock, nil},
	"target enter data":                         {ClassOffload, StmtNone, nil},
	"target exit data":                          {ClassOffload, StmtNone, nil},
	"target update":                             {ClassOffload, StmtNone, nil},
	"target parallel":                           {ClassOffload, StmtBlock, nil},
	"target parallel for":                       {ClassOffload, StmtLoop, nil},
	"target parallel for simd":                  {ClassOffload, StmtLoop, nil},
	"target parallel loop":                      {ClassOffload, StmtLoop, nil},
	"target simd":                               {ClassOffload, StmtLoop, nil},
	"target teams":                              {ClassOffload, StmtBlock, nil},
	"target teams distribute":                   {ClassOffload, StmtLoop, nil},
	"target teams distribute simd":              {ClassOffload, StmtLoop, nil},
	"target teams distribute parallel for":      {ClassOffload, StmtLoop, nil},
	"target teams distribute parallel for simd": {ClassOffload, StmtLoop, nil},
	"target teams loop":                         {ClassOffload, StmtLoop, nil},
	"teams":                                     {ClassOffload, StmtBlock, nil},
	"teams distribute":                          {ClassOffload, StmtLoop, nil},
	"teams distribute simd":                     {ClassOffload, StmtLoop, nil},
	"teams distribute parallel for":             {ClassOffload, StmtLoop, nil},
	"teams distribute parallel for simd":        {ClassOffload, StmtLoop, nil},
	"teams loop":                                {ClassOffload, StmtLoop, nil},
	"distribute":                                {ClassOffload, StmtLoop, nil},
	"distribute simd":                           {ClassOffload, StmtLoop, nil},
	"distribute parallel for":                   {ClassOffload, StmtLoop, nil},
	"distribute parallel for simd":              {ClassOffload, StmtLoop, nil},
	"interop":                                   {ClassOffload, StmtNone, nil},
	"dispatch":                                  {ClassOffload, StmtBlock, nil},

	"threadprivate":         {ClassDeclarative, StmtNone, nil},
	"declare reduction":     {ClassDeclarative, StmtNone, nil},
	"declare simd":          {ClassDeclarative, StmtNone, nil},
	"declare variant":       {ClassDeclarative, StmtNone, nil},
	"begin declare variant": {ClassDeclarative, StmtNone, nil},
	"end declare variant":   {ClassDeclarative, StmtNone, nil},
	"declare mapper":        {ClassDeclarative, StmtNone, nil},
	"declare target":        {ClassDeclTargetBegin, StmtNone, nil},
	"begin declare target":  {ClassDeclTargetBegin, StmtNone, nil},
	"end declare target":    {ClassDeclTargetEnd, StmtNone, nil},
	"requires":              {ClassDeclarative, StmtNone, nil},
	"allocate":              {ClassDeclarative, StmtNone, nil},
	"assumes":               {ClassDeclarative, StmtNone, nil},
	"begin assumes":         {ClassDeclarative, StmtNone, nil},
	"end assumes":           {ClassDeclarative, StmtNone, nil},

	"depobj":              {ClassPassthrough, StmtNone, nil},
	"scan":                {ClassPassthrough, StmtNone, nil},
	"error":               {ClassPassthrough, StmtNone, nil},
	"nothing":             {ClassPassthrough, StmtNone, nil},
	"metadirective":       {ClassMeta, StmtNone, nil}, // meta.go
	"begin metadirective": {ClassMeta, StmtNone, nil},
	"end metadirective":   {ClassPassthrough, StmtNone, nil},
	"assume":              {ClassPassthrough, StmtBlock, nil},
	"tile":                {ClassPassthrough, StmtLoop, nil},
	"unroll":              {ClassPassthrough, StmtLoop, nil},
}

// A DirectiveInfo describes one directive the parser knows.
type DirectiveInfo struct {
	Name   string // the words of the name, joined by single blanks
	Pomp   bool   // #pragma pomp rather than omp
	Class  Class
	Stmt   StmtKind
	Leaves []string // for combined constructs: the directives it splits into
}

// Directives lists every directive the parser knows, sorted by name.
func Directives() []DirectiveInfo {
	var out []DirectiveInfo
	for pomp, t := range []map[string]dirInfo{directives, pompDirectives} {
		for name, d := range t {
			out = append(out, DirectiveInfo{Name: name, Pomp: pomp == 1, Class: d.class, Stmt: d.stmt, Leaves: d.leaves})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// pompDirectives are OPARI's user-region directives, "#pragma pomp inst …".
var pompDirectives = map[string]dirInfo{
	"inst begin":  {ClassUserBegin, StmtNone, nil},
	"inst end":    {ClassUserEnd, StmtNone, nil},
	"inst altend": {ClassUserEnd, StmtNone, nil},
	"inst init":   {ClassUserInit, StmtNone, nil},
	"inst on":     {ClassUserOnOff, StmtNone, nil},
	"inst off":    {ClassUserOnOff, StmtNone, nil},
}

// maxWords is the number of words in the longest directive name.
const maxWords = 6

// Form is how a directive is written in the source.
type Form uint8

const (
	FormHash      Form = iota // #pragma omp ...
	FormOperator              // _Pragma("omp ...")
	FormAttribute             // [[omp::directive(...)]], a piece of [[omp::sequence(...)]] (attribute.go)
)

// A Clause is one clause as written, with blanks normalized.
type Clause struct {
	Name    string
	Args    string // inside the parentheses, trimmed
	HasArgs bool
	Off     int // offset of the clause name in the source
	// End is the offset after the clause's last byte in the source (its
	// ')' or its name), 0 for a clause gopari wrote itself.
	End int
}

// String renders the clause as it would appear in a directive.
func (c Clause) String() string {
	if !c.HasArgs {
		return c.Name
	}
	return c.Name + "(" + c.Args + ")"
}

// A Directive is one parsed #pragma omp, _Pragma("omp ...") or
// #pragma pomp directive.
type Directive struct {
	Pomp    bool   // #pragma pomp rather than omp
	Name    string // canonical name, words joined by single blanks
	Arg     string // parenthesized argument after the name: critical(name), flush(list)
	HasArg  bool
	Clauses []Clause
	Form    Form
	Pos     int // first byte: '#', '_Pragma' or '[['
	End     int // offset after the last byte
	NameOff int // offset of the directive name in the source
	Tok     int // index of its first token (Preproc, the _Pragma identifier, or a Punct of an attribute)
	LastTok int // index of its last token
	// Attr is, for a directive in C++ attribute syntax, the token index
	// of the attribute's first '[': the directives of one
	// omp::sequence(…) share it. Text is the directive as written inside
	// directive(…), normalized.
	Attr int
	Text string
	// Meta is the name of the metadirective ("metadirective", "begin
	// metadirective") that this directive's variant was chosen from at
	// compile time, or "". Its class, name and clauses are the variant's.
	Meta     string
	metaWarn string // why a metadirective was passed through
	class    Class
	stmt     StmtKind
	Leaves   []string
	// walked remembers the walk of the statement after the directive:
	// its last token + 1 when the walk recorded nothing, -1 when it
	// failed, 0 before (walker.directiveStmt).
	walked int32
}

// Class returns what gopari does with the directive.
func (d *Directive) Class() Class { return d.class }

// Stmt returns what must follow the directive.
func (d *Directive) Stmt() StmtKind { return d.stmt }

// Clause returns the first clause named name, if any.
func (d *Directive) Clause(name string) (Clause, bool) {
	for _, c := range d.Clauses {
		if c.Name == name {
			return c, true
		}
	}
	return Clause{}, false
}

// Has reports whether the directive has a clause named name.
func (d *Directive) Has(name string) bool {
	_, ok := d.Clause(name)
	return ok
}

// ClauseText renders the clauses, blank-separated.
func (d *Directive) ClauseText() string {
	var b strings.Builder
	for i, c := range d.Clauses {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(c.String())
	}
	return b.String()
}

// text is normalized directive text. Byte i of s comes from source offset
// off[i], or base+i when off is nil (text that needed no normalizing).
type text struct {
	s    []byte // the text: a slice of the source, or buf
	buf  []byte // owned storage for normalized text
	offs []int
	base int
	own  bool // s is buf and offs is in use
	nums numRun
}

func (t *text) off(i int) int {
	if !t.own {
		return t.base + i
	}
	return t.offs[i]
}

func (t *text) add(c byte, off int) {
	t.buf = append(t.buf, c)
	t.offs = append(t.offs, off)
}

func (t *text) blank(off int) {
	if len(t.buf) > 0 && t.buf[len(t.buf)-1] != ' ' {
		t.add(' ', off)
	}
}

// normalizePP renders the source bytes src[from:to] of a preprocessing
// line into t: comments and backslash-newlines removed, blanks collapsed,
// string literals kept as written.
func normalizePP(t *text, src []byte, from, to int) *text {
	if plainText(src[from:to]) {
		t.s, t.base, t.own = src[from:to], from, false
		return t
	}
	return normalize(t, src[from:to], func(i int) int { return from + i })
}

// plainText reports whether b is already normalized: no comments,
// backslashes, quotes or runs of blanks, and no blank at either end.
func plainText(b []byte) bool {
	if len(b) == 0 || b[0] == ' ' || b[len(b)-1] == ' ' {
		return false
	}
	prev := byte(0)
	for _, c := range b {
		switch c {
		case '/', '\\', '"', '\'', '\t', '\r', '\n', '\v', '\f':
			return false
		case ' ':
			if prev == ' ' {
				return false
			}
		}
		prev = c
	}
	return true
}

// normalizeOperator renders the string literal of _Pragma(lit) at
// src[from:to] the same way, after destringizing it.
func normalizeOperator(t *text, src []byte, from, to int) (*text, bool) {
	lit := src[from:to]
	k := 0
	for k < len(lit) && lit[k] != '"' {
		if lit[k] == 'R' {
			return nil, false // a raw string is not allowed in _Pragma
		}
		k++
	}
	if k >= len(lit) || len(lit)-k < 2 || lit[len(lit)-1] != '"' {
		return nil, false
	}
	body := make([]byte, 0, len(lit))
	offs := make([]int, 0, len(lit))
	for i := k + 1; i < len(lit)-1; i++ {
		if lit[i] == '\\' && i+1 < len(lit)-1 && (lit[i+1] == '"' || lit[i+1] == '\\') {
			i++
		}
		body = append(body, lit[i])
		offs = append(offs, from+i)
	}
	return normalize(t, body, func(i int) int {
		if i < len(offs) {
			return offs[i]
		}
		return to
	}), true
}

// normalize removes comments and backslash-newlines from in and collapses
// blanks; off maps an index of in to its source offset.
func normalize(t *text, in []byte, off func(int) int) *text {
	nums := t.nums.restart()
	to := len(in)
	src := in
	t.buf, t.offs, t.own = t.buf[:0], t.offs[:0], true
	for i := 0; i < to; {
		c := src[i]
		switch {
		case c == '\\' && i+1 < to && (src[i+1] == '\n' || src[i+1] == '\r' || src[i+1] == ' ' || src[i+1] == '\t'):
			j := i + 1
			for j < to && (src[j] == ' ' || src[j] == '\t') {
				j++
			}
			if j < to && src[j] == '\r' {
				j++
			}
			if j < to && src[j] == '\n' {
				i = j + 1
				continue
			}
			t.add(c, off(i))
			i++
		case c == '/' && i+1 < to && src[i+1] == '*':
			j := i + 2
			for j+1 < to && !(src[j] == '*' && src[j+1] == '/') {
				j++
			}
			t.blank(off(i))
			i = j + 2
		case c == '/' && i+1 < to && src[i+1] == '/':
			i = to
		case c == '"' || c == '\'' && !nums.digitSep(src, i):
			j := i + 1
			for j < to && src[j] != c {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			if j < to {
				j++
			}
			for k := i; k < j && k < to; k++ {
				t.add(src[k], off(k))
			}
			i = j
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f':
			t.blank(off(i))
			i++
		default:
			t.add(c, off(i))
			i++
		}
	}
	for len(t.buf) > 0 && t.buf[len(t.buf)-1] == ' ' {
		t.buf = t.buf[:len(t.buf)-1]
		t.offs = t.offs[:len(t.offs)-1]
	}
	t.s = t.buf
	return t
}

func isIdentByte(c byte) bool { return class[c]&cIdent != 0 }

// parseDirective parses normalized pragma text t, whose first word is
// "pragma" (for #pragma) or the pragma namespace (for _Pragma). It returns
// nil when the pragma is not an omp or pomp pragma.
func (p *parser) parseDirective(t *text) *Directive {
	s := t.s
	i := 0
	word := func() []byte {
		for i < len(s) && s[i] == ' ' {
			i++
		}
		j := i
		for j < len(s) && isIdentByte(s[j]) {
			j++
		}
		w := s[i:j]
		i = j
		return w
	}
	w := word()
	if string(w) == "pragma" {
		w = word()
	}
	pomp := false
	switch string(w) {
	case "omp":
	case "pomp":
		pomp = true
	default:
		return nil
	}
	d := p.parseBody(t, i, pomp)
	if d.class == ClassMeta {
		p.resolveMeta(d, t) // meta.go
	}
	return d
}

// parseBody parses the directive name and clauses that start at t.s[i],
// after the omp or pomp of the pragma.
func (p *parser) parseBody(t *text, i int, pomp bool) *Directive {
	s := t.s
	table := dirTables[0]
	if pomp {
		table = dirTables[1]
	}
	d := p.dirSlab.alloc()
	d.Pomp = pomp
	// Longest match over up to maxWords words.
	var endsA, offsA [maxWords]int
	ends, offs := endsA[:0], offsA[:0]
	for len(ends) < maxWords {
		save := i
		for i < len(s) && s[i] == ' ' {
			i++
		}
		start := i
		for i < len(s) && isIdentByte(s[i]) {
			i++
		}
		if i == start {
			i = save
			break
		}
		ends = append(ends, i)
		offs = append(offs, start)
	}
	words := ends
	n := 0
	for k := len(words); k > 0; k-- {
		// The words are contiguous in s, separated by single blanks.
		if info, ok := table[string(s[offs[0]:ends[k-1]])]; ok {
			n = k
			d.class, d.stmt, d.Leaves, d.Name = info.class, info.stmt, info.leaves, info.name
			break
		}
	}
	if n == 0 {
		if len(words) > 0 {
			last := unknownNameEnd(s, offs, ends)
			if d.Pomp {
				last = min(1, len(words)-1) // "inst" alone says nothing
			}
			d.Name = string(s[offs[0]:ends[last]])
			d.NameOff = t.off(offs[0])
		}
		d.class = ClassUnknown
		return d
	}
	d.NameOff = t.off(offs[0])
	i = ends[n-1]
	str := string(s) // clause names and arguments are substrings of it
	// A parenthesized argument directly after the name.
	if j := skipBlanks(s, i); j < len(s) && s[j] == '(' {
		arg, next, ok := argAt(t, str, j)
		if !ok {
			p.errorf(t.off(j), "unbalanced '(' in directive '%s'", d.Name)
			return d
		}
		d.Arg, d.HasArg, i = arg, true, next
	}
	d.Clauses = p.parseClauses(t, str, i, d)
	return d
}

// unknownNameEnd returns the index of the last word of the name of a
// directive gopari does not know, for messages: the words up to the
// first clause, where a word followed by '(' is the last one
// ("declare induction(…)"; "begin foo when(…)" names "begin foo").
func unknownNameEnd(s []byte, offs, ends []int) int {
	for k := range ends {
		if k > 0 && clauseNames[string(s[offs[k]:ends[k]])] && !namePrefix[string(s[offs[k-1]:ends[k-1]])] {
			return k - 1
		}
		if j := skipBlanks(s, ends[k]); j < len(s) && s[j] == '(' {
			return k
		}
	}
	return len(ends) - 1
}

// namePrefix are words always followed by another word of the name.
var namePrefix = map[string]bool{"declare": true, "begin": true, "end": true}

// clauseNames are the clause names of OpenMP 6.0, which end the name of
// an unknown directive in messages.
var clauseNames = func() map[string]bool {
	m := map[string]bool{}
	for _, c := range strings.Fields(`absent acq_rel acquire adjust_args affinity align aligned allocate
		allocator append_args apply at atomic_default_mem_order bind capture collapse collector
		combiner compare contains copyin copyprivate counts default defaultmap depend destroy detach device
		device_safesync device_type dist_schedule doacross dynamic_allocators enter exclusive fail
		filter final firstprivate from full grainsize graph_id graph_reset has_device_addr hint holds
		if in_reduction inbranch inclusive indirect induction inductor init init_complete initializer
		interop is_device_ptr lastprivate linear link local looprange map match memscope mergeable message
		no_openmp no_openmp_constructs no_openmp_routines no_parallelism nocontext nogroup nontemporal
		notinbranch novariants nowait num_tasks num_teams num_threads order ordered otherwise partial
		permutation priority private proc_bind read reduction relaxed release replayable
		reverse_offload safelen safesync schedule self_maps seq_cst severity shared simdlen sizes
		task_reduction thread_limit threads threadset to transparent unified_address
		unified_shared_memory uniform untied update use use_device_addr use_device_ptr
		uses_allocators weak when write`) {
		m[c] = true
	}
	return m
}()

// skipBlanks returns the index of the first byte of s at or after i that
// is not a blank.
func skipBlanks(s []byte, i int) int {
	for i < len(s) && s[i] == ' ' {
		i++
	}
	return i
}

// argAt returns the text inside the parentheses that open at s[j],
// trimmed, and the index after the ')'; ok is false when the ')' is
// missing. str is s as a string: the argument is a substring of it.
func argAt(t *text, str string, j int) (arg string, next int, ok bool) {
	k, ok := matchParen(t.s, j, t.nums.restart())
	if !ok {
		return "", 0, false
	}
	return strings.TrimSpace(str[j+1 : k]), k + 1, true
}

// matchParen returns the index of the ')' matching the '(' at i.
func matchParen(s []byte, i int, nums *numRun) (int, bool) {
	depth := 0
	for j := i; j < len(s); j++ {
		switch s[j] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return j, true
			}
		case '"', '\'':
			if nums.digitSep(s, j) {
				continue
			}
			q := s[j]
			for j++; j < len(s) && s[j] != q; j++ {
				if s[j] == '\\' {
					j++
				}
			}
		}
	}
	return 0, false
}

// parseClauses parses the clauses of d from s[i:]. The clause lists of
// all directives share one backing array.
func (p *parser) parseClauses(t *text, str string, i int, d *Directive) []Clause {
	s := t.s
	first := len(p.clauses)
	out := p.clauses
	defer func() { p.clauses = out }()
	done := func() []Clause { return out[first:len(out):len(out)] }
	for {
		for i < len(s) && (s[i] == ' ' || s[i] == ',') {
			i++
		}
		if i >= len(s) {
			return done()
		}
		start := i
		for i < len(s) && isIdentByte(s[i]) {
			i++
		}
		if i == start {
			p.errorf(t.off(start), "unexpected '%c' in clauses of '%s'", s[start], d.Name)
			return done()
		}
		c := Clause{Name: str[start:i], Off: t.off(start)}
		j := skipBlanks(s, i)
		if j < len(s) && s[j] == '(' {
			arg, next, ok := argAt(t, str, j)
			if !ok {
				p.errorf(t.off(j), "unbalanced '(' in clause '%s'", c.Name)
				return done()
			}
			c.Args, c.HasArgs, i = arg, true, next
		}
		c.End = t.off(i-1) + 1
		if j < len(s) && s[j] == ')' {
			p.errorf(t.off(j), "unbalanced ')' in clauses of '%s'", d.Name)
			return done()
		}
		out = append(out, c)
	}
}

// A slab hands out pointers to elements of large arrays, so that many
// small objects cost few allocations.
type slab[T any] struct{ buf []T }

func (s *slab[T]) alloc() *T {
	if len(s.buf) == cap(s.buf) {
		s.buf = make([]T, 0, 256)
	}
	s.buf = s.buf[:len(s.buf)+1]
	return &s.buf[len(s.buf)-1]
}
