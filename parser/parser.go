// Package parser finds the OpenMP directives of a C or C++ source file and
// the extent of the structured block that follows each of them, without
// preprocessing the file and without losing a byte of it.
package parser

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
)

// Config selects the language and the kind of input.
type Config struct {
	CPlusPlus bool
	// Preprocessed input carries GCC line markers; directives in system
	// headers are left alone.
	Preprocessed bool
}

// A Construct is a directive together with what gopari needs to know to
// instrument it.
type Construct struct {
	Dir *Directive

	// First and Last are the token indices of the structured block, or -1
	// for a directive without one.
	First, Last int

	// Placement around preprocessor conditionals. Hoist is the token
	// index of an #if line before which the code opening the construct
	// must go, because the directive sits in a conditional group that
	// ends before its block; Reopen is then the #endif after whose line
	// the block-opening code goes. Close is the #endif after whose line
	// the closing code goes, because the block ends inside a conditional
	// group that began after the directive. Each is -1 when unused.
	Hoist, Reopen, Close int

	// Sections holds, for a sections construct, the token indices of its
	// section directives; ImplicitFirst is set when code precedes the
	// first of them.
	Sections      []int
	ImplicitFirst bool

	Parent *Construct
	Depth  int

	// NoCalls is set when the construct lies where no call may be
	// inserted: inside simd, loop, order(concurrent), target, teams or
	// distribute regions, or a declare target block.
	NoCalls bool
	// Cancellable is set when a cancel or cancellation point directive
	// lies inside the block.
	Cancellable bool
	// Offload is set for target, teams and distribute constructs.
	Offload bool
}

// A LockCall is a use of the OpenMP lock API that gopari wraps.
type LockCall struct {
	Tok    int    // the identifier
	Name   string // e.g. omp_set_lock
	Call   bool   // followed by '(': a call, not a function designator
	Paren  int    // token index of the '(' when Call
	Offset int
}

// A UserRegion is a pair of "#pragma pomp inst begin(name)" and
// "end(name)" directives, with any altend directives between.
type UserRegion struct {
	Name   string
	Begin  *Directive
	Ends   []*Directive
	NoCall bool
}

// Result is what Parse found.
type Result struct {
	File        *File
	Toks        []Token
	Directives  []*Directive
	Constructs  []*Construct
	Locks       []LockCall
	UserRegions []*UserRegion
	Diags       DiagnosticList
	// MacroPragmas are offsets of _Pragma("omp …") inside #define lines;
	// they are not instrumented.
	MacroPragmas []int
}

type parser struct {
	f        *File
	src      []byte
	toks     []Token
	cfg      Config
	diags    *DiagnosticList
	groups   map[int]*group
	list     []*Directive // sorted by Tok
	w        walker
	dirSlab  slab[Directive]
	consSlab slab[Construct]
	clauses  []Clause // backing array of every clause list
	pp       []int32  // indices of Preproc tokens
	ids      []int32  // indices of identifiers that may be _Pragma or lock routines
	txt      text     // scratch for normalizing directives
	device   [][2]int // source ranges of declare target blocks
}

// Parse scans and parses f.
func Parse(f *File, cfg Config) *Result {
	r := &Result{File: f}
	p := &parser{f: f, src: f.Src, cfg: cfg, diags: &r.Diags}
	p.w.p = p
	sc := scan(f, Options{CPlusPlus: cfg.CPlusPlus}, p.diags)
	p.toks, p.pp, p.ids = sc.toks, sc.pp, sc.ids
	p.w.toks = p.toks
	r.Toks = p.toks
	if r.Diags.HasErrors() {
		r.Diags.Sort()
		return r
	}
	p.buildGroups()
	r.MacroPragmas = p.findDirectives()
	r.Directives = p.list
	r.Constructs = p.constructs()
	r.UserRegions = p.userRegions(r.Constructs)
	r.Locks = p.lockCalls(r.Constructs)
	if !r.Diags.HasErrors() {
		p.balance() // errors about blocks are more precise
	}
	r.Diags.Sort()
	return r
}

func (p *parser) errorf(off int, format string, args ...any) {
	*p.diags = append(*p.diags, &Diagnostic{Pos: p.f.Position(off), Msg: fmt.Sprintf(format, args...)})
}

func (p *parser) warnf(off int, format string, args ...any) {
	*p.diags = append(*p.diags, &Diagnostic{Pos: p.f.Position(off), Severity: Warning, Msg: fmt.Sprintf(format, args...)})
}

func (p *parser) notef(off int, format string, args ...any) {
	*p.diags = append(*p.diags, &Diagnostic{Pos: p.f.Position(off), Severity: Note, Msg: fmt.Sprintf(format, args...)})
}

// offset returns the source offset of token j. Past the last token it
// returns the end of the last token, so that a message about the end of
// the file points at the file's last line of code, as compilers do.
func (p *parser) offset(j int) int {
	if j >= 0 && j < len(p.toks) {
		return int(p.toks[j].Pos)
	}
	if n := len(p.toks); n > 0 && j >= n {
		return int(p.toks[n-1].End)
	}
	return len(p.src)
}

// tokBytes returns the bytes of token j with backslash-newlines removed.
func (p *parser) tokBytes(j int) []byte {
	t := p.toks[j]
	b := p.src[t.Pos:t.End]
	if bytes.IndexByte(b, '\\') < 0 {
		return b
	}
	var out []byte
	for i := 0; i < len(b); i++ {
		if b[i] == '\\' {
			k := i + 1
			for k < len(b) && (b[k] == ' ' || b[k] == '\t' || b[k] == '\r') {
				k++
			}
			if k < len(b) && b[k] == '\n' {
				i = k
				continue
			}
		}
		out = append(out, b[i])
	}
	return out
}

func (p *parser) word(j int) string {
	if j >= len(p.toks) || p.toks[j].Kind != Ident {
		return ""
	}
	return string(p.tokBytes(j))
}

func (p *parser) isIdent(j int, s string) bool {
	if j >= len(p.toks) || p.toks[j].Kind != Ident {
		return false
	}
	t := p.toks[j]
	if int(t.End-t.Pos) == len(s) && string(p.src[t.Pos:t.End]) == s {
		return true
	}
	return string(p.tokBytes(j)) == s
}

func (p *parser) isPunct(j int, c uint8) bool {
	return j < len(p.toks) && p.toks[j].Kind == Punct && p.toks[j].Sub == c
}

func (p *parser) isPragmaLine(j int) bool {
	return j < len(p.toks) && p.toks[j].Kind == Preproc && p.toks[j].PP() == PPPragma
}

func (p *parser) isOperator(j int) bool { return p.isIdent(j, "_Pragma") }

// operatorParts returns the token indices of the string and of the ')' of
// _Pragma ( "..." ) at j, or ok false if it is malformed.
func (p *parser) operatorParts(j int) (str, end int, ok bool) {
	if !p.isPunct(j+1, '(') || j+3 >= len(p.toks) || p.toks[j+2].Kind != String || !p.isPunct(j+3, ')') {
		return 0, 0, false
	}
	return j + 2, j + 3, true
}

// isAttribute reports whether the identifier at j is the omp of a C++
// attribute [[omp::directive(…)]] or [[omp::sequence(…)]].
func (p *parser) isAttribute(j int) bool {
	return j >= 2 && p.isIdent(j, "omp") && p.isPunct(j-1, '[') && p.isPunct(j-2, '[') &&
		p.isPunct(j+1, PColon2) && (p.isIdent(j+2, "directive") || p.isIdent(j+2, "sequence"))
}

// pragmaEnd returns the last token of the pragma starting at j.
func (p *parser) pragmaEnd(j int) int {
	if p.isOperator(j) {
		if _, e, ok := p.operatorParts(j); ok {
			return e
		}
	}
	return j
}

// findDirectives parses every #pragma omp, #pragma pomp and _Pragma("omp
// …") in the file. It returns the offsets of _Pragma uses inside macro
// definitions, which it cannot instrument.
func (p *parser) findDirectives() []int {
	var macro []int
	pp, ids := p.pp, p.ids
	p.list = make([]*Directive, 0, len(pp)+len(ids))
	p.clauses = make([]Clause, 0, 2*(len(pp)+len(ids)))
	for len(pp) > 0 || len(ids) > 0 {
		var i int
		if len(ids) == 0 || len(pp) > 0 && pp[0] < ids[0] {
			i, pp = int(pp[0]), pp[1:]
		} else {
			i, ids = int(ids[0]), ids[1:]
		}
		t := p.toks[i]
		switch {
		case t.Kind == Preproc && t.PP() == PPPragma:
			from := int(t.Pos) + 1
			if p.src[t.Pos] == '%' { // the digraph %:
				from += bytes.IndexByte(p.src[from:t.End], ':') + 1
			}
			txt := normalizePP(&p.txt, p.src, from, int(t.End))
			if d := p.parseDirective(txt); d != nil {
				d.Form, d.Pos, d.End, d.Tok, d.LastTok = FormHash, int(t.Pos), int(t.End), i, i
				p.add(d)
			}
		case t.Kind == Preproc && t.PP() == PPDefine:
			line := p.src[t.Pos:t.End]
			if k := bytes.Index(line, []byte("_Pragma")); k >= 0 && bytes.Contains(line[k:], []byte("omp")) {
				macro = append(macro, int(t.Pos)+k)
			}
		case t.Kind == Ident && p.cfg.CPlusPlus && p.isAttribute(i):
			if p.cfg.Preprocessed && p.f.InSystemHeader(int(t.Pos)) {
				continue
			}
			p.warnf(int(t.Pos), "OpenMP directive in C++ attribute syntax ([[omp::…]]) passed through without instrumentation; write it as #pragma omp to have it instrumented")
		case t.Kind == Ident && p.isOperator(i):
			str, end, ok := p.operatorParts(i)
			if !ok {
				continue
			}
			txt, ok := normalizeOperator(&p.txt, p.src, int(p.toks[str].Pos), int(p.toks[str].End))
			if !ok {
				continue
			}
			if d := p.parseDirective(txt); d != nil {
				d.Form, d.Pos, d.End, d.Tok, d.LastTok = FormOperator, int(t.Pos), int(p.toks[end].End), i, end
				p.add(d)
			}
		}
	}
	return macro
}

func (p *parser) add(d *Directive) {
	if p.cfg.Preprocessed && p.f.InSystemHeader(d.Pos) {
		return
	}
	if d.class == ClassOrdered && (d.Has("depend") || d.Has("doacross")) {
		d.stmt = StmtNone
	}
	if d.class == ClassUnknown {
		what := "OpenMP"
		if d.Pomp {
			what = "POMP"
		}
		name, off := d.Name, d.NameOff
		if name == "" {
			name, off = "(none)", d.Pos
		}
		p.warnf(off, "unknown %s directive '%s' passed through unchanged", what, name)
	}
	p.toks[d.Tok].Sub |= IsDirective
	p.list = append(p.list, d)
}

// dir returns the directive whose first token is j, or nil.
func (p *parser) dir(j int) *Directive {
	if j >= len(p.toks) {
		return nil
	}
	t := p.toks[j]
	if t.Sub&IsDirective == 0 || t.Kind != Preproc && t.Kind != Ident {
		return nil
	}
	l := p.list
	i := sort.Search(len(l), func(i int) bool { return l[i].Tok >= j })
	if i < len(l) && l[i].Tok == j {
		return l[i]
	}
	return nil
}

// constructs computes the structured block of every directive and how the
// constructs nest.
func (p *parser) constructs() []*Construct {
	out := make([]*Construct, 0, len(p.list))
	var deviceFrom []int // offsets of open declare target blocks
	var deviceRanges [][2]int
	for _, d := range p.list {
		if d.Pomp {
			continue
		}
		c := p.consSlab.alloc()
		*c = Construct{Dir: d, First: -1, Last: -1, Hoist: -1, Reopen: -1, Close: -1}
		switch d.class {
		case ClassDeclTargetBegin:
			if d.Name == "begin declare target" || len(d.Clauses) == 0 && !d.HasArg {
				deviceFrom = append(deviceFrom, d.Pos)
			}
		case ClassDeclTargetEnd:
			if n := len(deviceFrom); n > 0 {
				deviceRanges = append(deviceRanges, [2]int{deviceFrom[n-1], d.Pos})
				deviceFrom = deviceFrom[:n-1]
			}
		}
		if d.stmt != StmtNone && !p.block(c) {
			continue
		}
		out = append(out, c)
	}
	for _, from := range deviceFrom {
		deviceRanges = append(deviceRanges, [2]int{from, len(p.src)})
	}
	p.device = deviceRanges
	p.nest(out, deviceRanges)
	p.alternatives(out)
	for _, c := range out {
		if c.Dir.class == ClassSections || c.Dir.class == ClassCombined && lastLeaf(c.Dir) == "sections" {
			p.sections(c)
		}
	}
	return out
}

func lastLeaf(d *Directive) string {
	if len(d.Leaves) == 0 {
		return d.Name
	}
	return d.Leaves[len(d.Leaves)-1]
}

// block finds the structured block of c and where code may be placed
// around it. It reports false after an error.
func (p *parser) block(c *Construct) bool {
	d := c.Dir
	w := &p.w
	w.reset()
	s := w.stmtStart(d.LastTok + 1)
	if w.include >= 0 && w.include < s {
		p.errorf(p.offset(w.include), "the statement after '#pragma omp %s' comes from an #include that gopari cannot see", d.Name)
		return false
	}
	if w.left != nil {
		c.Hoist = w.left.branches[0]
		c.Reopen = w.leftEnd
	}
	left := w.left
	last := w.stmt(s, need{d: d})
	if last < 0 {
		return false
	}
	if w.left != left {
		p.errorf(d.Pos, "the block of '#pragma omp %s' ends after the #endif of the conditional group holding the directive", d.Name)
		return false
	}
	if len(w.stack) > 0 {
		g := w.stack[0]
		if k := p.codeAfter(last, g); k >= 0 {
			p.errorf(p.offset(k), "code follows the end of the block of '#pragma omp %s' (at %s) inside the conditional group opened at %s; gopari can end the construct only after that group's #endif", d.Name, p.posString(last), p.posString(g.branches[0]))
			return false
		}
		c.Close = g.end
	}
	c.First, c.Last = s, last
	return true
}

// codeAfter returns the first token after last, in the branch of group g
// that holds last, that is code or an OpenMP directive, or -1.
func (p *parser) codeAfter(last int, g *group) int {
	stop := g.end
	for _, b := range g.branches {
		if b > last {
			stop = b
			break
		}
	}
	for k := last + 1; k < stop; k++ {
		t := p.toks[k]
		if t.Kind == Skipped || t.Kind == Preproc && t.PP() != PPPragma {
			continue
		}
		return k
	}
	return -1
}

// nest links every construct to its enclosing construct and marks where
// no calls may be inserted.
func (p *parser) nest(cs []*Construct, device [][2]int) {
	var stack []*Construct
	for _, c := range cs {
		for len(stack) > 0 && stack[len(stack)-1].Last < c.Dir.Tok {
			stack = stack[:len(stack)-1]
		}
		if n := len(stack); n > 0 {
			c.Parent = stack[n-1]
			c.Depth = c.Parent.Depth + 1
		}
		d := c.Dir
		c.Offload = d.class == ClassOffload
		if c.Parent != nil && (c.Parent.NoCalls || c.Parent.forbidsCalls()) {
			c.NoCalls = true
		}
		for _, r := range device {
			if d.Pos > r[0] && d.Pos < r[1] {
				c.NoCalls = true
			}
		}
		if d.class == ClassCancel || d.class == ClassCancellationPoint {
			for q := c.Parent; q != nil; q = q.Parent {
				q.Cancellable = true
			}
		}
		if c.Last >= 0 {
			stack = append(stack, c)
		}
	}
}

// forbidsCalls reports whether code inside c's block must not call
// functions gopari inserts.
func (c *Construct) forbidsCalls() bool {
	d := c.Dir
	switch d.class {
	case ClassOffload, ClassSimd, ClassLoop, ClassAtomic:
		return true
	case ClassOrdered:
		if d.Has("simd") {
			return true
		}
	}
	switch leaf := lastLeaf(d); {
	case leaf == "loop", strings.HasSuffix(leaf, "simd"):
		return true
	}
	if cl, ok := d.Clause("order"); ok && strings.Contains(cl.Args, "concurrent") {
		return true
	}
	return false
}

// alternatives rejects directives in different branches of one conditional
// that apply to the same statement.
func (p *parser) alternatives(cs []*Construct) {
	seen := make(map[int]*Construct, len(cs))
	for _, c := range cs {
		if c.First < 0 {
			continue
		}
		if o := seen[c.First]; o != nil && o != c.Parent {
			p.errorf(c.Dir.Pos, "'#pragma omp %s' and '#pragma omp %s' at %s apply to the same statement from different #if branches; instrument the preprocessed source instead (gopari cc, or --preprocessed)", c.Dir.Name, o.Dir.Name, p.posString(o.Dir.Tok))
			continue
		}
		seen[c.First] = c
	}
}

// sections finds the section directives directly inside a sections block.
func (p *parser) sections(c *Construct) {
	if !p.isPunct(c.First, '{') {
		p.errorf(p.offset(c.First), "the block of '#pragma omp %s' must be a compound statement", c.Dir.Name)
		return
	}
	depth := 0
	code := false
	for k := c.First + 1; k < c.Last; k++ {
		t := p.toks[k]
		switch t.Kind {
		case Punct:
			switch t.Sub {
			case '{':
				depth++
			case '}':
				depth--
			}
			code = true
		case Preproc:
			if d := p.dir(k); d != nil && d.class == ClassSection && depth == 0 {
				if len(c.Sections) == 0 {
					c.ImplicitFirst = code
				}
				c.Sections = append(c.Sections, k)
				continue
			}
			if d := p.dir(k); d != nil {
				code = true
			}
		case Skipped:
		default:
			if d := p.dir(k); d != nil && d.class == ClassSection && depth == 0 {
				if len(c.Sections) == 0 {
					c.ImplicitFirst = code
				}
				c.Sections = append(c.Sections, k)
				k = d.LastTok
				continue
			}
			code = true
		}
	}
	if len(c.Sections) == 0 {
		c.ImplicitFirst = code
	}
}

// userRegions matches "#pragma pomp inst begin/end/altend" directives.
func (p *parser) userRegions(cs []*Construct) []*UserRegion {
	var out, stack []*UserRegion
	for _, d := range p.list {
		if !d.Pomp {
			continue
		}
		switch d.class {
		case ClassUserBegin:
			if !d.HasArg || d.Arg == "" {
				p.errorf(d.NameOff, "'#pragma pomp inst begin' needs a region name: begin(name)")
				continue
			}
			r := &UserRegion{Name: d.Arg, Begin: d}
			stack = append(stack, r)
			out = append(out, r)
		case ClassUserEnd:
			if !d.HasArg || d.Arg == "" {
				p.errorf(d.NameOff, "'#pragma pomp inst %s' needs a region name: %s(name)", d.Name[len("inst "):], d.Name[len("inst "):])
				continue
			}
			if len(stack) == 0 {
				p.errorf(d.NameOff, "'#pragma pomp inst %s(%s)' has no matching 'begin(%s)'", d.Name[len("inst "):], d.Arg, d.Arg)
				continue
			}
			r := stack[len(stack)-1]
			if r.Name != d.Arg {
				p.errorf(d.NameOff, "'#pragma pomp inst %s(%s)' does not match 'begin(%s)' at %s", d.Name[len("inst "):], d.Arg, r.Name, p.posString(r.Begin.Tok))
				continue
			}
			r.Ends = append(r.Ends, d)
			if d.Name == "inst end" {
				stack = stack[:len(stack)-1]
			}
		}
	}
	for _, r := range stack {
		p.errorf(r.Begin.NameOff, "'#pragma pomp inst begin(%s)' has no matching 'end(%s)'", r.Name, r.Name)
	}
	for _, r := range out {
		r.NoCall = p.insideNoCalls(cs, r.Begin.Tok)
	}
	return out
}

// insideNoCalls reports whether token j lies in a block where no calls may
// be inserted, or in a declare target block.
func (p *parser) insideNoCalls(cs []*Construct, j int) bool {
	for _, r := range p.device {
		if off := int(p.toks[j].Pos); off > r[0] && off < r[1] {
			return true
		}
	}
	for _, c := range cs {
		if c.Last >= 0 && c.Dir.Tok < j && j <= c.Last && (c.NoCalls || c.forbidsCalls()) {
			return true
		}
	}
	return false
}

// lockNames are the OpenMP lock routines gopari wraps.
var lockNames = map[string]bool{
	"omp_init_lock": true, "omp_init_lock_with_hint": true, "omp_destroy_lock": true,
	"omp_set_lock": true, "omp_unset_lock": true, "omp_test_lock": true,
	"omp_init_nest_lock": true, "omp_init_nest_lock_with_hint": true, "omp_destroy_nest_lock": true,
	"omp_set_nest_lock": true, "omp_unset_nest_lock": true, "omp_test_nest_lock": true,
}

// notCallPrefix lists words that may precede a call of a lock routine.
var callPrefix = map[string]bool{
	"return": true, "else": true, "do": true, "case": true, "goto": true, "throw": true,
	"co_return": true, "co_await": true, "co_yield": true, "sizeof": true,
}

// lockCalls finds the uses of the lock API: identifiers spelt exactly like
// a lock routine, not declared here and not a member name.
func (p *parser) lockCalls(cs []*Construct) []LockCall {
	var out []LockCall
	for _, i32 := range p.ids {
		i := int(i32)
		t := p.toks[i]
		name := p.word(i)
		if !lockNames[name] {
			continue
		}
		if p.cfg.Preprocessed && p.f.InSystemHeader(int(t.Pos)) {
			continue
		}
		if i > 0 {
			prev := p.toks[i-1]
			if prev.Kind == Ident && !callPrefix[p.word(i-1)] {
				continue // a declaration: void omp_set_lock(...)
			}
			if prev.Kind == Punct {
				pb := p.src[prev.Pos:prev.End]
				if string(pb) == "." || string(pb) == "->" {
					continue // a member
				}
			}
		}
		if p.insideNoCalls(cs, i) {
			continue
		}
		lc := LockCall{Tok: i, Name: name, Offset: int(t.Pos)}
		if p.isPunct(i+1, '(') {
			lc.Call, lc.Paren = true, i+1
		}
		out = append(out, lc)
	}
	return out
}

// balance warns when the file's brackets do not pair up in the
// configuration the walker follows. It is only a warning: a macro may
// open or close a block (#define NS_BEGIN namespace x {), which only
// preprocessing reveals.
func (p *parser) balance() {
	w := &p.w
	w.reset()
	var stack []int
	for k := w.skip(0); k < len(p.toks); k = w.nextInline(k, p.toks) {
		t := p.toks[k]
		if t.Kind != Punct {
			continue
		}
		switch t.Sub {
		case '(', '[', '{':
			stack = append(stack, k)
		case ')', ']', '}':
			if len(stack) == 0 {
				p.warnf(int(t.Pos), "unbalanced '%c' in the file: no '%c' opens it (a macro may; otherwise the compiler will stop here)", t.Sub, opener(t.Sub))
				return
			}
			open := stack[len(stack)-1]
			if want := closer(p.toks[open].Sub); want != t.Sub {
				p.warnf(int(p.toks[open].Pos), "unbalanced '%c' in the file: closed by '%c' at %s", p.toks[open].Sub, t.Sub, p.posString(k))
				return
			}
			stack = stack[:len(stack)-1]
		}
	}
	if len(stack) > 0 {
		open := stack[len(stack)-1]
		p.warnf(int(p.toks[open].Pos), "unbalanced '%c' in the file: no matching '%c' before end of file (a macro may close it; otherwise the compiler will stop here)", p.toks[open].Sub, closer(p.toks[open].Sub))
	}
}
