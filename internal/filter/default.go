package filter

import "strings"

// defaultPrefixes begin the names of the functions that gopari cc
// --functions never measures, whatever the filter says: gopari's own
// (pomp_register, pomp_r: gopari owns the pomp_ prefix), and the C++
// standard library's (std::, __gnu_cxx::), which GCC leaves out at compile
// time as functions of system headers; clang cannot, so its builds leave
// them out by name, at compile time (the wrapper's IR step) and at run
// time.
var defaultPrefixes = []string{"pomp_", "POMP_", "std::", "__gnu_cxx::", "_ZSt", "_ZNSt", "_ZNKSt", "_ZN9__gnu_cxx", "_ZNK9__gnu_cxx"}

// DefaultExcluded reports whether the function name (demangled or
// mangled) is left out by default.
func DefaultExcluded(name string) bool {
	for _, p := range defaultPrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}
