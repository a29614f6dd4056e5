package rewrite

import (
	"bytes"
	"strconv"

	"gopari/internal/mem"
	"gopari/parser"
	"gopari/pomprt/include"
)

// A gen instruments one parsed file: it walks the constructs, user
// regions and lock calls in source order, registers a region for each and
// records the edits that insert its calls.
type gen struct {
	pr    *parser.Result
	f     *parser.File
	src   []byte
	toks  []parser.Token
	opts  Options
	name  string // the file name recorded in #line and the region table
	diags *parser.DiagnosticList

	// preprocessed input gets GCC line markers instead of #line
	// directives, and iface is the interface its header carries instead
	// of #include "pomp.h". pragmaLines writes the directives of the
	// construct at hand as #pragma lines, instead of _Pragma operators:
	// always in preprocessed input, where GCC ignores _Pragma, and where
	// the construct is laid out in lines (columns.go).
	preprocessed bool
	pragmaLines  bool
	iface        []byte

	edits   editList
	regions []region
	nl      string // the file's line break: "\n" or "\r\n"

	offloads   int // target, teams and distribute constructs passed through
	offloadPos int // the first of them
	metas      int // metadirectives instrumented as their variant
	untieds    int // untied clauses removed (--untied=tie)
	untiedPos  int // the first of them

	lineOff, lineNo int                     // the last line lookup
	prevOff, prevNo int                     // the one before, when prevNo > 0
	tokCursor       int                     // tokenAt's last answer
	off             [parser.NumClasses]bool // classes --disable turned off

	attrDone  map[*parser.Directive]bool              // directives in attribute syntax that were replaced (attribute.go)
	iterTask  map[*parser.Construct]*parser.Construct // a task construct -> the for loop whose iteration creates it (iteration.go)
	iterLoop  map[*parser.Construct]bool              // those loops
	leaf1     leafBuilder                             // builds the leaf at hand
	work      int                                     // bytes counted for line numbers, for the test of linear time
	buf       []byte                                  // scratch for the parts of one construct
	marks     []int                                   // positions of the markers in buf (mark)
	partStart int                                     // where the part being built starts in buf
	tmp       []byte
	digits    []byte // regionDigits' last answer, for region digitsOf
	digitsOf  int
	sfx       string // the suffix of the names of the leaf's variables (emit.go)
	sfxN      int    // its index in suffixes, or -1
	// quoted is quotedFile as a C string literal, the name of the last
	// line directive (lineDirective).
	quotedFile string
	quoted     []byte

	// depths holds whether a parenthesis is open before each token, once
	// inParens needs it; noTail holds the offsets, in increasing
	// order, where keepColumns leaves the line after an edit as it is
	// (columns.go).
	depths []bool
	parens *parenTable // where depths come from (newGen)
	noTail []int

	// The walk in chunks (walkchunks.go): controls are the POMP control
	// directives, in source order; renumber is set in the fork that walks
	// a chunk, whose sites are where its region numbers lie in the arena,
	// and numBase is added to the numbers it writes; forceSplit, for
	// tests, splits the walk before that item (-1: never). whole holds,
	// in g, the buffers the forks have shares of, and in a fork, where
	// its shares start.
	controls    []*parser.Directive
	renumber    bool
	sites       []int32
	forceSplit  int
	rows        [][]byte // the rows of the region table, if rendered ahead (region.go)
	forceChunks int      // for tests: walk in that many chunks
	numBase     int
	whole       struct {
		arena                              []byte
		edits                              []edit
		regions                            []region
		arenaShare, editShare, regionShare int
	}
}

func newGen(pr *parser.Result, opts Options) *gen {
	g := &gen{pr: pr, f: pr.File, src: pr.File.Src, toks: pr.Toks, opts: opts, diags: &pr.Diags, nl: "\n", offloadPos: -1, lineNo: 1}
	if pr.Config.Preprocessed {
		g.preprocessed, g.pragmaLines = true, true
		g.iface = include.PompC
		if pr.Config.CPlusPlus {
			g.iface = include.PompCXX
		}
	}
	// Instrumented code is a few times larger than the directives it
	// replaces; sizing the arena once avoids copying it while it grows.
	// A large make of fresh memory is neither cleared nor faulted in
	// until written, so what stays unused costs nothing. (The walk in
	// chunks gives each a share in proportion to its items: each has room
	// for twice what dense code uses. walk faults in what it will use.)
	g.edits.arena = mem.Huge[byte](512*len(pr.Directives) + len(pr.Locks)*32 + 4096)
	g.edits.edits = mem.Huge[edit](3*len(pr.Directives) + 2*len(pr.Locks) + 8)
	g.edits.tmp = mem.Huge[edit](cap(g.edits.edits))
	mem.Prefault(g.edits.edits, cap(g.edits.edits))
	mem.Prefault(g.edits.tmp, cap(g.edits.tmp))
	g.regions = mem.Huge[region](regionsAhead(pr))
	g.parens = &parenTable{toks: g.toks, ahead: pr.OpenParens}
	if !g.preprocessed && g.parens.ahead == nil && len(g.toks) >= parensAhead {
		// keepColumns asks inParens where code follows an edit on its
		// line, which in a large file is nearly always: its table of
		// every token is built beside the walk over the constructs,
		// unless the parser built it beside the parse (ParseAsync).
		ch := make(chan []bool, 1)
		go func(toks []parser.Token) { ch <- parser.OpenParens(toks) }(g.toks)
		g.parens.ahead = func() []bool { return <-ch }
	}
	for c := range classes {
		if k := classes[c].Kind; k != nil && k.Group != "" {
			g.off[c] = g.disabled(k.Group)
		}
	}
	g.name = opts.Name
	if g.name == "" {
		g.name = g.f.Name
	}
	if i := bytes.IndexByte(g.src, '\n'); i > 0 && g.src[i-1] == '\r' {
		g.nl = "\r\n"
	}
	return g
}

// run instruments the file and returns the result, or nil after errors.
func (g *gen) run() *Result {
	pr := g.pr
	if bytes.HasPrefix(g.src, []byte("\xEF\xBB\xBF")) {
		g.edits.replace(0, 3, seg{}) // the BOM cannot follow the header
	}
	if g.instrumented() {
		g.errorf(0, "input is already instrumented by gopari; instrument the original source")
		return nil
	}
	g.taskLoops()
	g.walk()
	g.attributes()
	if pr.Diags.HasErrors() {
		pr.Diags.Sort()
		return nil
	}
	if g.offloads > 0 {
		g.notef(g.offloadPos, "%d target, teams or distribute construct(s) passed through without instrumentation", g.offloads)
	}
	if g.untieds > 0 {
		g.notef(g.untiedPos, "%s removed so that task identities stay exact (--untied=keep keeps them)", plural(g.untieds, "'untied' clause"))
	}
	if n := len(pr.MacroPragmas); n > 0 {
		g.notef(pr.MacroPragmas[0], "%d _Pragma(\"omp …\") in macro definitions not instrumented; use gopari cc, which preprocesses first, to instrument them", n)
	}
	pr.Diags.Sort()
	g.renderRows(func() { g.edits.sort(); g.keepColumns() })
	return &Result{Regions: len(g.regions), g: g, src: g.src, edits: &g.edits}
}

// plural renders n and a noun, with an s when n is not 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// instrumented reports whether the input is gopari's own output.
func (g *gen) instrumented() bool {
	if bytes.HasPrefix(g.src, []byte(Header)) {
		return true
	}
	if !bytes.Contains(g.src, []byte("POMP_Register_unit")) {
		return false
	}
	for i, t := range g.toks {
		if t.Kind == parser.Ident && string(g.src[t.Pos:t.End]) == "POMP_Register_unit" && i+1 < len(g.toks) {
			return true
		}
	}
	return false
}

func (g *gen) errorf(off int, format string, args ...any) {
	g.diags.Report(g.f, off, parser.Error, format, args...)
}

func (g *gen) warnf(off int, format string, args ...any) {
	g.diags.Report(g.f, off, parser.Warning, format, args...)
}

func (g *gen) notef(off int, format string, args ...any) {
	g.diags.Report(g.f, off, parser.Note, format, args...)
}

// walk instruments constructs, user regions and lock calls in source
// order, so that region numbers follow the source: a large file in
// chunks on two threads when a core is free (walkchunks.go).
func (g *gen) walk() {
	items := g.items()
	if bounds := g.walkChunks(items); bounds != nil {
		g.walkInChunks(items, bounds) // walkchunks.go
		return
	}
	mem.Prefault(g.edits.arena, arenaUse*len(g.pr.Directives))
	mem.Prefault(g.regions, cap(g.regions))
	g.walkItems(items)
}

// regionsAhead returns how many regions the walk makes at most, but for
// leaves of combined constructs beyond maxLeaves.
func regionsAhead(pr *parser.Result) int {
	n := len(pr.Locks) + len(pr.UserRegions) + 8
	for _, c := range pr.Constructs {
		n += max(1, len(c.Dir.Leaves))
	}
	return n
}

// disabled reports whether the user turned off a construct group.
func (g *gen) disabled(group string) bool { return g.opts.Disable[group] }

// addRegion appends a region and returns its index.
func (g *gen) addRegion(r region) int {
	g.regions = append(g.regions, r)
	return len(g.regions) - 1
}

// line returns the presumed line of offset off. Lookups move mostly
// forward through the file, so it counts newlines from the previous
// lookup when that is close, instead of searching the line table. A
// construct asks for its directive's line, then its end's, then its
// directive's again, and a nested one for a line in between: the lookup
// before the last is kept too, and counting starts from the nearer.
func (g *gen) line(off int) int {
	if g.f.HasMarkers() {
		return g.f.Position(off).Line
	}
	if off == g.lineOff {
		return g.lineNo
	}
	last, lastNo := g.lineOff, g.lineNo
	if g.prevNo > 0 && abs(off-g.prevOff) < abs(off-last) {
		g.lineOff, g.lineNo = g.prevOff, g.prevNo
	}
	g.prevOff, g.prevNo = last, lastNo
	const near = 4096
	switch {
	case off >= g.lineOff && off-g.lineOff < near:
		g.lineNo += bytes.Count(g.src[g.lineOff:off], []byte{'\n'})
		g.work += off - g.lineOff
	case off < g.lineOff && g.lineOff-off < near:
		g.lineNo -= bytes.Count(g.src[off:g.lineOff], []byte{'\n'})
		g.work += g.lineOff - off
	default:
		g.lineNo = g.f.Line(off)
	}
	g.lineOff = off
	return g.lineNo
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// fileAt returns the file name to record for offset off: the presumed
// name under a line marker, otherwise the recorded name.
func (g *gen) fileAt(off int) string {
	if g.f.HasMarkers() {
		if n := g.f.PresumedName(off); n != g.f.Name {
			return n
		}
	}
	return g.name
}

// newlines counts the line breaks inside src[start:end]; a replacement
// of the span ends with as many, to keep the line count.
func (g *gen) newlines(start, end int) int {
	return bytes.Count(g.src[start:end], []byte{'\n'})
}

// lineAfter returns the offset of the first byte of the line after the
// one holding token j.
func (g *gen) lineAfter(j int) int {
	e := g.f.LineEnd(int(g.toks[j].End))
	if e >= len(g.src) {
		return len(g.src)
	}
	return e + 1
}
