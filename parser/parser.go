// Package parser finds the OpenMP directives of a C or C++ source file and
// the extent of the structured block that follows each of them, without
// preprocessing the file and without losing a byte of it.
package parser

import (
	"bytes"
	"sort"
	"sync"

	"gopari/internal/mem"
	"gopari/internal/par"
)

// Config selects the language and the kind of input.
type Config struct {
	CPlusPlus bool
	// Preprocessed input carries GCC line markers; directives in system
	// headers are left alone.
	Preprocessed bool
	// IgnoresMetadirective names the compiler when it does not implement
	// metadirectives (GCC before 13 ignores them): they are then passed
	// through, with a warning, so that the program keeps its meaning.
	IgnoresMetadirective string
}

// A Construct is a directive together with what gopari needs to know to
// instrument it.
type Construct struct {
	Dir *Directive

	// First and Last are the token indices of the structured block, or -1
	// for a directive without one.
	First, Last int
	// LastToken is a copy of token Last, when there is one: the rewrite
	// reads it without reaching into the tokens far from the directive,
	// where every construct's first read missed the caches.
	LastToken Token

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

	// Body and BodyLast are, for a taskloop or for construct, the first
	// and last token of the body of the innermost loop of its loop nest,
	// or -1 (loop.go).
	Body, BodyLast int
	// Loop is, for a for construct, the canonical form of its loop nest,
	// or nil; LoopNote then says why (loop.go).
	Loop     *Loop
	LoopNote string

	// Enclosed is, for a begin metadirective whose variant is known (a
	// directive that takes a block, or nothing), the end metadirective:
	// the block is the code between them, and Last is the end
	// directive's last token (meta.go).
	Enclosed *Directive
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
	Config      Config
	Toks        []Token
	Directives  []*Directive
	Constructs  []*Construct
	Locks       []LockCall
	UserRegions []*UserRegion
	Diags       DiagnosticList
	// MacroPragmas are offsets of _Pragma("omp …") inside #define lines;
	// they are not instrumented.
	MacroPragmas []int
	// OpenParens, when not nil, returns the table of OpenParens for Toks,
	// which ParseAsync builds beside the parse of a large file.
	OpenParens func() []bool
	// Work counts the steps the parser's passes took (tokens visited by
	// walks and scans, characters looked at twice), for tests that check
	// that they grow linearly with the input.
	Work int
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
	clauses  []Clause       // backing array of every clause list
	pp       []int32        // indices of Preproc tokens
	ids      []int32        // indices of identifiers that may be _Pragma or lock routines
	txt      text           // scratch for normalizing directives
	device   spans          // source ranges of declare target blocks
	noCalls  spans          // token spans where no call may be inserted (calls.go)
	after    map[[2]int]int // codeAfter's answers
	attrs    int            // directives in C++ attribute syntax
	finger   int            // the directive search found last
	// ambiguous is set when a conditional group has two branches that can
	// be compiled: the walker then follows one of them (balance).
	ambiguous bool

	// skipFrom and skipTo remember the last walker.skip that changed no
	// state: it returns skipTo for skipFrom.
	skipFrom, skipTo int

	// brackets remembers, once a walk has failed, the match of brackets
	// (or -1 for those a failure left open): see walker.match.
	brackets map[int32]int32
	// work counts the steps of the passes over tokens, for the test
	// that they grow linearly with the input.
	work int

	// half is set in a fork that works on a chunk of a pass, which leaves
	// marking its directives' tokens to the join (chunks.go); splitTok,
	// for tests, splits the chunked passes at that token (-1: never).
	half     bool
	splitTok int
}

// Parse scans and parses f.
func Parse(f *File, cfg Config) *Result {
	r, _ := parse(f, cfg)
	return r
}

// ParseAsync is Parse, except that its last pass, the check that the
// file's brackets balance, which can only warn, may still run on another
// thread when it returns: wait waits for it and adds its warning to
// r.Diags. Until then the caller may read r and add to r.Diags.
func ParseAsync(f *File, cfg Config) (r *Result, wait func()) {
	r, _, wait = start(f, cfg, true)
	return r, wait
}

// parse is Parse, returning the parser too: its work counter tells the
// tests how many steps the passes took.
func parse(f *File, cfg Config) (*Result, *parser) {
	r, p, wait := start(f, cfg, false)
	wait()
	return r, p
}

// start parses f; with async, the bracket check runs on another thread
// until wait.
func start(f *File, cfg Config, async bool) (r *Result, p *parser, wait func()) {
	return startSplit(f, cfg, async, 0)
}

// startSplit is start, the search for directives split at token
// splitTok when it is not 0 (-1: never), for tests.
func startSplit(f *File, cfg Config, async bool, splitTok int) (r *Result, p *parser, wait func()) {
	par.Useful() // asked before this process starts threads of its own
	r = &Result{File: f, Config: cfg}
	p = &parser{f: f, src: f.Src, cfg: cfg, diags: &r.Diags, splitTok: splitTok}
	p.w.p = p
	sc := scan(f, Options{CPlusPlus: cfg.CPlusPlus}, p.diags)
	p.toks, p.pp, p.ids = sc.toks, sc.pp, sc.ids
	p.w.toks = p.toks
	r.Toks = p.toks
	finish := func(warn func()) {
		if warn != nil {
			warn()
		}
		r.Diags.Sort()
		p.work += sc.nums.steps + sc.txt.nums.steps + p.txt.nums.steps + f.Steps()
		r.Work = p.work
	}
	done := func() {}
	if r.Diags.HasErrors() {
		finish(nil)
		return r, p, done
	}
	var ahead *tokenPass
	if async && len(p.toks) >= tokenPassMin {
		ahead = startTokenPass(p.toks, !cfg.Preprocessed)
		if !cfg.Preprocessed {
			r.OpenParens = ahead.parens
		}
	}
	p.buildGroups()
	r.MacroPragmas = p.findDirectives()
	r.Directives = p.list
	r.Constructs = p.constructs()
	loops := p.loopBodies(r.Constructs) // beside the next passes (chunks.go)
	p.noCalls = noCallSpans(r.Constructs)
	r.UserRegions = p.userRegions()
	r.Locks = p.lockCalls()
	loops()
	switch {
	case r.Diags.HasErrors():
		finish(nil) // no bracket warning: the errors about blocks are more precise
	case ahead != nil && !p.ambiguous:
		return r, p, sync.OnceFunc(func() { finish(ahead.balance(p)) })
	case async && !p.ambiguous:
		// The tight pass of balance reads only the tokens; its warning,
		// which reads the File for positions, waits for wait.
		warn := make(chan func(), 1)
		go func() { warn <- p.balance() }()
		return r, p, sync.OnceFunc(func() { finish(<-warn) })
	default:
		finish(p.balance())
	}
	return r, p, done
}

func (p *parser) errorf(off int, format string, args ...any) {
	p.diags.Report(p.f, off, Error, format, args...)
}

func (p *parser) warnf(off int, format string, args ...any) {
	p.diags.Report(p.f, off, Warning, format, args...)
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
	return spliced(b)
}

// spliced returns b without its backslash-newlines.
func spliced(b []byte) []byte {
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
// …") in the file, a large file in chunks on two threads when a core is
// free (chunks.go). It
// returns the offsets of _Pragma uses inside macro definitions, which it
// cannot instrument.
func (p *parser) findDirectives() []int {
	pp, ids := p.pp, p.ids
	p.list = make([]*Directive, 0, len(pp)+len(ids))
	if bounds := p.directiveChunks(); bounds != nil {
		return p.findChunks(bounds) // chunks.go
	}
	p.presize(pp, ids)
	return p.findIn(pp, ids)
}

// presize makes room for the directives among the candidates pp and
// ids: every directive in one slab, as each #pragma line, _Pragma or omp
// may be one (an attribute may hold more; the slab then grows). Other
// preprocessing lines and the lock routines among ids are none: the
// slab's memory is faulted in ahead, and would be for nothing.
func (p *parser) presize(pp, ids []int32) {
	n := 0
	for _, i := range pp {
		if p.toks[i].PP() == PPPragma {
			n++
		}
	}
	for _, i := range ids {
		if t := p.toks[i]; t.End-t.Pos == int32(len("_Pragma")) || t.End-t.Pos == int32(len("omp")) {
			n++
		}
	}
	p.dirSlab.buf = mem.Huge[Directive](n)
	mem.Prefault(p.dirSlab.buf, cap(p.dirSlab.buf))
	p.clauses = mem.Huge[Clause](2 * n)
}

// findIn parses the directives among the candidates pp (preprocessing
// lines) and ids (identifiers), adding them to p.list, and returns the
// offsets of _Pragma uses in macro definitions.
func (p *parser) findIn(pp, ids []int32) []int {
	var macro []int
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
		case t.Kind == Ident && p.cfg.CPlusPlus && p.isIdent(i, "omp"):
			p.attribute(i) // attribute.go
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
	switch {
	case d.metaWarn != "":
		p.warnf(d.NameOff, "%s", d.metaWarn)
	case d.Name == "declare variant" || d.Name == "begin declare variant":
		p.warnf(d.NameOff, "'%s' passed through: the compiler chooses which function a call runs by context, so a call may run the variant; the directives of both functions are instrumented where they are written", d.Name)
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
	if d.Form != FormAttribute && !p.half {
		p.toks[d.Tok].Sub |= IsDirective // an attribute's first token is a Punct, whose Sub is taken
	}
	p.list = append(p.list, d)
}

// dir returns the directive whose first token is j, or nil.
func (p *parser) dir(j int) *Directive {
	if j >= len(p.toks) {
		return nil
	}
	t := p.toks[j]
	if t.Sub&IsDirective == 0 || t.Kind != Preproc && t.Kind != Ident {
		if t.Kind != Punct || p.attrs == 0 {
			return nil
		}
		// A directive in attribute syntax starts at a Punct, unmarked.
	}
	l := p.list
	i := p.search(j)
	if i < len(l) && l[i].Tok == j {
		return l[i]
	}
	return nil
}

// search returns the index of the first directive whose token is j or
// later. Walks look directives up near the one they looked up last, so
// it gallops from there: a lookup d directives away takes about 2 log d
// steps, and the walks of a file take time linear in it.
func (p *parser) search(j int) int {
	l := p.list
	i := min(p.finger, len(l))
	var lo, hi int // the answer is in [lo, hi]
	if i < len(l) && l[i].Tok < j {
		for step := 1; ; step *= 2 { // forward: l[lo].Tok < j
			p.work++
			lo = i + step/2 + 1
			if i+step >= len(l) || l[i+step].Tok >= j {
				hi = min(i+step, len(l))
				break
			}
		}
	} else {
		for step := 1; ; step *= 2 { // backward: l[hi].Tok >= j, or hi is the end
			p.work++
			hi = i - step/2
			if i-step < 0 || l[i-step].Tok < j {
				lo = max(i-step+1, 0)
				break
			}
		}
	}
	k := lo + sort.Search(hi-lo, func(k int) bool { p.work++; return l[lo+k].Tok >= j })
	p.finger = k
	return k
}

// balance finds where the file's brackets do not pair up in the
// configuration the walker follows, and returns the report of a warning
// about the first place, or nil. It is only a warning: a macro may
// open or close a block (#define NS_BEGIN namespace x {), which only
// preprocessing reveals. Where no conditional group has two branches
// that can be compiled, that configuration is every token the scanner did
// not skip, and one tight pass over them does.
func (p *parser) balance() (warn func()) {
	var stack []int32
	toks := p.toks
	if p.ambiguous {
		w := &p.w
		w.reset()
		for k := w.skip(0); k < len(toks); k = w.nextInline(k, toks) {
			p.work++
			if toks[k].Kind == Punct {
				if warn := p.pair(&stack, k); warn != nil {
					return warn
				}
			}
		}
	} else {
		p.work += len(toks)
		for k := range toks {
			t := &toks[k]
			if t.Kind != Punct {
				continue
			}
			switch t.Sub {
			case '(', '[', '{':
				stack = append(stack, int32(k))
			case ')', ']', '}':
				if n := len(stack); n > 0 && closer(toks[stack[n-1]].Sub) == t.Sub {
					stack = stack[:n-1]
				} else {
					return p.pair(&stack, k)
				}
			}
		}
	}
	return p.unclosed(stack)
}

// unclosed returns the report of balance's warning about the brackets
// left open at the end of the file, or nil when none is.
func (p *parser) unclosed(stack []int32) (warn func()) {
	if len(stack) > 0 {
		open := p.toks[stack[len(stack)-1]]
		return func() {
			p.warnf(int(open.Pos), "unbalanced '%c' in the file: no matching '%c' before end of file (a macro may close it; otherwise the compiler will stop here)", open.Sub, closer(open.Sub))
		}
	}
	return nil
}

// pair handles the punctuator at k for balance: it pushes an opening
// bracket, or pops the one a closing bracket closes. It returns the
// report of a warning when the bracket does not fit, or nil.
func (p *parser) pair(stack *[]int32, k int) (warn func()) {
	t := p.toks[k]
	switch t.Sub {
	case '(', '[', '{':
		*stack = append(*stack, int32(k))
	case ')', ']', '}':
		s := *stack
		if len(s) == 0 {
			return func() {
				p.warnf(int(t.Pos), "unbalanced '%c' in the file: no '%c' opens it (a macro may; otherwise the compiler will stop here)", t.Sub, opener(t.Sub))
			}
		}
		open := p.toks[s[len(s)-1]]
		if want := closer(open.Sub); want != t.Sub {
			return func() {
				p.warnf(int(open.Pos), "unbalanced '%c' in the file: closed by '%c' at %s", open.Sub, t.Sub, p.posString(k))
			}
		}
		*stack = s[:len(s)-1]
	}
	return nil
}
