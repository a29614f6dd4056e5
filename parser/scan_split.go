package parser

import (
	"bytes"
	"sync/atomic"
)

// A large file is scanned in two halves at once, on two cores. The second
// half is scanned from the start of a line near the middle as if nothing
// were open there; the first half's scan then checks, when it reaches
// that line, that nothing was: no comment, literal, directive line or
// skipped branch running over it, and no open conditional whose state the
// second half's lines would have depended on. If so the two token lists
// are joined, exactly what one scan gives; otherwise the first half's scan
// goes on to the end and the second half's work is thrown away.

// splitMin is the smallest file scanned in two halves (a variable for
// the test that compares both ways on small inputs).
var splitMin = 1 << 20

// splitsRejected counts the second halves thrown away, for the test.
var splitsRejected atomic.Int64

// An unmatchedCond is an #elif, #else or #endif that the second half's
// scanner met outside any group it saw open. decided marks an #elif whose
// condition is a literal.
type unmatchedCond struct {
	kind    int
	decided bool
}

// runSplit scans the file in two halves at once and reports whether it
// did; false leaves the scanner as it was.
func (s *scanner) runSplit() bool {
	if len(s.src) < splitMin {
		return false
	}
	split := len(s.src) / 2
	for { // the start of a line after one that ends without a splice
		nl := bytes.IndexByte(s.src[split:], '\n')
		if nl < 0 || split+nl+1 >= len(s.src) {
			return false
		}
		split += nl + 1
		k := split - 2 // before the newline: blanks, then a backslash?
		for k >= 0 && (s.src[k] == ' ' || s.src[k] == '\t' || s.src[k] == '\r') {
			k--
		}
		if k < 0 || s.src[k] != '\\' {
			break
		}
	}
	// One token array for both: the first half fills its first half (and
	// moves out if it needs more), the second its second half.
	all := s.toks[:cap(s.toks)]
	half := len(all) / 2
	s.toks = all[:0:half]
	second := &scanner{f: s.f, src: s.src, opts: s.opts, lastNL: split - 1, toks: all[half:half]}
	done := make(chan struct{})
	go func() {
		second.runFrom(split, len(s.src))
		close(done)
	}()
	stopped := s.run(split)
	<-done
	// lastNL: the newline before split ended a line, not a splice.
	if stopped != split || s.fatal || s.lastNL != split-1 || !second.fits(s.conds) {
		splitsRejected.Add(1)
		if !s.fatal {
			s.runFrom(stopped, len(s.src))
		}
		return true
	}
	base := int32(len(s.toks))
	if len(s.toks)+len(second.toks) <= cap(all) && &s.toks[:1][0] == &all[0] {
		s.toks = all[:len(s.toks)+copy(all[len(s.toks):], second.toks)]
	} else {
		s.toks = append(s.toks, second.toks...)
	}
	for _, k := range second.pp {
		s.pp = append(s.pp, base+k)
	}
	for _, k := range second.ids {
		s.ids = append(s.ids, base+k)
	}
	s.markers = append(s.markers, second.markers...)
	s.errs = append(s.errs, second.errs...)
	s.fatal = second.fatal
	s.lastNL = second.lastNL
	return true
}

// fits reports whether the second half scanned its lines as they are
// scanned after the first half, which left the conditionals conds open:
// the lines that closed groups the second half did not see open would
// have been scanned alike.
func (s *scanner) fits(conds []bool) bool {
	conds = append([]bool(nil), conds...)
	for _, u := range s.unmatched {
		if len(conds) == 0 {
			continue // unmatched in the whole file too
		}
		top := conds[len(conds)-1]
		switch u.kind {
		case PPElif:
			if top || u.decided {
				return false // would skip its branch, or decide the group
			}
		case PPElse:
			if top {
				return false // would skip its branch
			}
		case PPEndif:
			conds = conds[:len(conds)-1]
		}
	}
	return true
}
