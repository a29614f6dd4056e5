// Package filter reads and writes Score-P filter files, which say which
// functions of a program are measured (gopari cc --functions --filter
// FILE, and the file that gopari filter proposes).
//
// # Syntax
//
// A filter file has two kinds of blocks, each any number of times:
//
//	SCOREP_REGION_NAMES_BEGIN          # rules on function names
//	  EXCLUDE *
//	  INCLUDE main bar
//	          baz                      # a rule's patterns run on until the next keyword
//	  EXCLUDE MANGLED _ZN3foo*         # MANGLED: match the mangled name
//	SCOREP_REGION_NAMES_END
//
//	SCOREP_FILE_NAMES_BEGIN            # rules on source file paths
//	  EXCLUDE */test/*
//	SCOREP_FILE_NAMES_END
//
// Tokens are separated by white space (space, tab, carriage return); a
// white-space byte or '#' right after a backslash is part of the token,
// as Score-P reads it. '#' starts a comment that runs to the
// end of the line. A rule keyword, EXCLUDE or INCLUDE, is followed by
// patterns, on its line and the following lines, until the next keyword
// or the block's END. In region blocks MANGLED after the rule keyword
// matches the patterns that follow against the mangled name (a name
// without a mangled form is matched as it is), and DEMANGLED turns that
// off again. Patterns are shell wildcards as fnmatch(3) reads them with
// no flags: '*' any string (a '/' too), '?' any byte, [...] a set
// ([!...] or [^...] its complement, ranges a-z, classes [:alpha:]), and
// a backslash quotes the next byte. A '[' without its ']' is itself.
//
// # Semantics
//
// As Score-P decides (its user manual, "Application Measurement" →
// "Filtering", and its implementation, scorep_filter_parser.c and
// scorep_filter_matching.c, with its test file test/filtering/filter.cfg,
// read for this package): every function and every file starts included; the rules of
// a kind are applied in the order written, blocks of a kind joined, and
// the last rule whose pattern matches decides. A function is measured
// when its file is included and its name is included: the two kinds
// combine with AND (Score-P: filtered = file excluded OR name excluded).
// A function whose file is unknown is decided by its name alone.
//
// Where gopari is stricter than Score-P, it is for clearer errors: a
// block left open at the end of the file, and a NUL byte, are errors
// (Score-P accepts the first and stops reading at the second).
package filter

import "fmt"

// A Rule is one pattern of an EXCLUDE or INCLUDE rule.
type Rule struct {
	Exclude bool   // EXCLUDE, else INCLUDE
	Mangled bool   // MANGLED: matched against the mangled name (region rules only)
	Pattern string // as written, backslash escapes included
	Line    int    // where the pattern is, 1-based; 0 for a rule made by a program
	Col     int
	// Comment, written after the pattern by WriteTo (gopari filter's
	// reason for the rule); never read from a file.
	Comment string
}

// A Filter is a parsed filter file: its region and file rules, each in
// the order written.
type Filter struct {
	Name    string // the file's name, as given to Parse
	Regions []Rule
	Files   []Rule
	// Header, written as comment lines at the top by WriteTo; never read
	// from a file.
	Header string
}

// An Error is a syntax error in a filter file.
type Error struct {
	Name      string
	Line, Col int
	Msg       string
}

func (e *Error) Error() string { return fmt.Sprintf("%s:%d:%d: %s", e.Name, e.Line, e.Col, e.Msg) }

// Function reports whether the function name (demangled, as the user
// reads it), with its mangled name (or "" when it has none) and defined
// in file (or "" when unknown), is measured.
func (f *Filter) Function(name, mangled, file string) bool {
	if f == nil {
		return true
	}
	if file != "" && excluded(f.Files, file, file) {
		return false
	}
	return !excluded(f.Regions, name, mangled)
}

// File reports whether the functions of file are measured as far as the
// file rules go.
func (f *Filter) File(file string) bool {
	return f == nil || !excluded(f.Files, file, file)
}

// excluded applies rules in order to name: the last matching rule decides.
func excluded(rules []Rule, name, mangled string) bool {
	if mangled == "" {
		mangled = name
	}
	ex := false
	for i := range rules {
		r := &rules[i]
		if r.Exclude == ex {
			continue // cannot change the decision
		}
		s := name
		if r.Mangled {
			s = mangled
		}
		if Match(r.Pattern, s) {
			ex = r.Exclude
		}
	}
	return ex
}
