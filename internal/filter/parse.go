package filter

import (
	"bytes"
	"fmt"
	"os"
)

// Block and rule keywords.
const (
	regionsBegin = "SCOREP_REGION_NAMES_BEGIN"
	regionsEnd   = "SCOREP_REGION_NAMES_END"
	filesBegin   = "SCOREP_FILE_NAMES_BEGIN"
	filesEnd     = "SCOREP_FILE_NAMES_END"
)

// keywords are the tokens that are never patterns.
var keywords = map[string]bool{
	regionsBegin: true, regionsEnd: true, filesBegin: true, filesEnd: true,
	"EXCLUDE": true, "INCLUDE": true, "MANGLED": true, "DEMANGLED": true,
}

// What a parser is inside of.
const (
	outside = iota
	inRegions
	inFiles
)

// A parser holds the state between tokens.
type parser struct {
	f          *Filter
	block      int // outside, inRegions or inFiles
	begin      pos // where the open block began
	rule       int // 0 before a rule keyword in the block, else 'E' or 'I'
	mangled    bool
	line, col0 int // the line being read, and the offset of its first byte
}

type pos struct{ line, col int }

// Parse reads the filter file src, named name in errors.
func Parse(name string, src []byte) (*Filter, error) {
	p := &parser{f: &Filter{Name: name}}
	for off := 0; off <= len(src); {
		end := bytes.IndexByte(src[off:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += off
		}
		p.line++
		p.col0 = off
		if err := p.parseLine(src[off:end]); err != nil {
			return nil, err
		}
		off = end + 1
	}
	switch p.block {
	case inRegions:
		return nil, p.errAt(p.begin, "%s without %s", regionsBegin, regionsEnd)
	case inFiles:
		return nil, p.errAt(p.begin, "%s without %s", filesBegin, filesEnd)
	}
	return p.f, nil
}

// parseLine reads the tokens of one line (without its newline).
func (p *parser) parseLine(line []byte) error {
	if i := bytes.IndexByte(line, 0); i >= 0 {
		return p.errAt(pos{p.line, i + 1}, "NUL byte in a filter file")
	}
	// A '#' starts a comment unless a backslash comes right before it.
	for i := 0; i < len(line); i++ {
		if line[i] == '#' && (i == 0 || line[i-1] != '\\') {
			line = line[:i]
			break
		}
	}
	if n := len(line); n > 0 && line[n-1] == '\\' {
		return p.errAt(pos{p.line, n}, "a backslash cannot continue a line")
	}
	start := -1
	for i := 0; i <= len(line); i++ {
		sep := i == len(line) || isSpace(line[i]) && (i == 0 || line[i-1] != '\\')
		switch {
		case !sep && start < 0:
			start = i
		case sep && start >= 0:
			if err := p.token(string(line[start:i]), pos{p.line, start + 1}); err != nil {
				return err
			}
			start = -1
		}
	}
	return nil
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' }

// token takes one token at at.
func (p *parser) token(tok string, at pos) error {
	switch tok {
	case regionsBegin, filesBegin:
		if p.block != outside {
			return p.errAt(at, "%s inside the block opened at line %d", tok, p.begin.line)
		}
		p.block, p.begin, p.rule, p.mangled = inRegions, at, 0, false
		if tok == filesBegin {
			p.block = inFiles
		}
	case regionsEnd, filesEnd:
		want := map[string]int{regionsEnd: inRegions, filesEnd: inFiles}[tok]
		if p.block != want {
			return p.errAt(at, "%s %s", tok, p.where())
		}
		p.block = outside
	case "EXCLUDE", "INCLUDE":
		if p.block == outside {
			return p.errAt(at, "%s outside a %s or %s block", tok, regionsBegin, filesBegin)
		}
		p.rule, p.mangled = int(tok[0]), false
	case "MANGLED", "DEMANGLED":
		switch {
		case p.block != inRegions:
			return p.errAt(at, "%s applies to region names only, in a %s block", tok, regionsBegin)
		case p.rule == 0:
			return p.errAt(at, "%s must follow EXCLUDE or INCLUDE", tok)
		}
		p.mangled = tok == "MANGLED"
	default:
		return p.pattern(tok, at)
	}
	return nil
}

// where says where a misplaced END is.
func (p *parser) where() string {
	switch p.block {
	case inRegions:
		return fmt.Sprintf("inside the %s block opened at line %d", regionsBegin, p.begin.line)
	case inFiles:
		return fmt.Sprintf("inside the %s block opened at line %d", filesBegin, p.begin.line)
	}
	return "without its BEGIN"
}

// pattern adds a rule for the pattern tok.
func (p *parser) pattern(tok string, at pos) error {
	switch {
	case p.block == outside:
		return p.errAt(at, "unexpected %q outside a %s or %s block", tok, regionsBegin, filesBegin)
	case p.rule == 0:
		return p.errAt(at, "pattern %q before EXCLUDE or INCLUDE", tok)
	}
	r := Rule{Exclude: p.rule == 'E', Mangled: p.mangled, Pattern: tok, Line: at.line, Col: at.col}
	if p.block == inFiles {
		p.f.Files = append(p.f.Files, r)
	} else {
		p.f.Regions = append(p.f.Regions, r)
	}
	return nil
}

func (p *parser) errAt(at pos, format string, args ...any) error {
	return &Error{Name: p.f.Name, Line: at.line, Col: at.col, Msg: fmt.Sprintf(format, args...)}
}

// ReadFile reads and parses the filter file name, and returns its bytes
// too (gopari cc carries them into the program).
func ReadFile(name string) (*Filter, []byte, error) {
	src, err := os.ReadFile(name)
	if err != nil {
		return nil, nil, err
	}
	f, err := Parse(name, src)
	return f, src, err
}
