package filter

import "strings"

// What a compiler can apply of a filter, exactly.
//
// GCC's -finstrument-functions-exclude-function-list= and
// -finstrument-functions-exclude-file-list= leave out the functions whose
// name, or whose file's name, holds one of the listed strings (strstr).
// Such an exclusion is exact only when the filter excludes every function
// it leaves out, so that measuring at run time sees the same program:
//
//   - the rule's pattern is *literal*: a substring test, nothing more;
//   - no INCLUDE rule of its kind comes after it, which could take some of
//     those functions back (the last matching rule decides);
//   - the literal holds only what GCC's name and the run's name share.
//     GCC tests its own printable name of a function, the run a demangled
//     name. GCC's name is the function's scoped name without parameters
//     or return type: "cfun", "geo::inner::Mesh::get" (every overload),
//     "Mesh::~Mesh", "Mesh::operator()", "tmax<int>", "Box<int, float>::
//     val", "{anonymous}::anon", "main()::<lambda(int)>::operator()" (gcc
//     12, -finstrument-functions-exclude-function-list=, tested on the
//     functions left without a __cyg_profile_func_enter call). A literal
//     of identifier bytes [A-Za-z0-9_], ':' and '~' is a run of a scoped
//     name, spelt alike in both names, so whatever GCC's name holds it,
//     the demangled name holds it too. Template arguments are not: GCC
//     drops default arguments ("basic_string<char>") and spells types its
//     own way ("long int", "const char*"), so '<', '>', ',' and spaces are
//     left to the run, and so is a literal that could fall inside a word
//     that only GCC spells (gccOnlyRuns: "int" of "long unsigned int").
//     GCC tests the file name as the compiler found it, which the run's
//     name for the file contains, so any literal goes, but for a
//     backslash, which GCC's list syntax reads.
//
// MANGLED rules are matched at run time only: a mangled name abbreviates
// what GCC's name spells out (St for std::).
//
// The run applies the whole filter again; what the compiler left out
// never reaches it.

// CompilerExclusions returns the literals of the rules that a compiler
// testing substrings can apply exactly: of file names and of function
// names, in the order written.
func (f *Filter) CompilerExclusions() (files, functions []string) {
	if f == nil {
		return nil, nil
	}
	for _, lit := range exactSubstrings(f.Files, false) {
		if !strings.Contains(lit, `\`) {
			files = append(files, lit)
		}
	}
	for _, lit := range exactSubstrings(f.Regions, true) {
		if SharedNameLiteral(lit) {
			functions = append(functions, lit)
		}
	}
	return files, functions
}

// exactSubstrings returns the literals of the *literal* EXCLUDE rules
// that no INCLUDE rule follows.
func exactSubstrings(rules []Rule, skipMangled bool) []string {
	last := len(rules)
	for last > 0 && rules[last-1].Exclude {
		last--
	}
	var out []string
	for _, r := range rules[last:] {
		if skipMangled && r.Mangled {
			continue
		}
		if lit, ok := substringPattern(r.Pattern); ok && lit != "" {
			out = append(out, lit)
		}
	}
	return out
}

// substringPattern returns lit when pattern is *lit*: stars around a
// literal, which may quote bytes with backslashes.
func substringPattern(pattern string) (string, bool) {
	if len(pattern) < 2 || pattern[0] != '*' {
		return "", false
	}
	start := strings.IndexFunc(pattern, func(r rune) bool { return r != '*' })
	if start < 0 {
		return "", false // stars only
	}
	var lit []byte
	stars := false // a run of stars ends the pattern
	for i := start; i < len(pattern); i++ {
		c := pattern[i]
		switch {
		case c == '*':
			stars = true
			continue
		case stars:
			return "", false // a star inside
		case c == '?' || c == '[':
			return "", false
		case c == '\\':
			if i+1 >= len(pattern) {
				return "", false
			}
			i++
			c = pattern[i]
		}
		lit = append(lit, c)
	}
	if !stars {
		return "", false
	}
	return string(lit), true
}

// gccOnlyRuns are the runs of name bytes that GCC's printable names
// spell in template arguments where a demangled name does not: "int" in
// "long int" and "long unsigned int" (demangled "long", "unsigned
// long"), and the class templates that the demangler abbreviates
// (std::string, std::istream and the like of the old ABI).
var gccOnlyRuns = []string{"int", "std::basic_string", "std::basic_istream", "std::basic_ostream",
	"std::basic_iostream", "std::char_traits", "std::allocator"}

// SharedNameLiteral reports whether every function whose GCC printable
// name holds lit has a demangled name that holds it too: lit is made of
// [A-Za-z0-9_:~] and lies within no run that only GCC spells.
func SharedNameLiteral(lit string) bool {
	for i := 0; i < len(lit); i++ {
		c := lit[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == ':' || c == '~') {
			return false
		}
	}
	for _, run := range gccOnlyRuns {
		if strings.Contains(run, lit) {
			return false
		}
	}
	return lit != ""
}
