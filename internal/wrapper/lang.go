package wrapper

import (
	"path/filepath"
	"strings"
)

// A Language is what a file suffix says about a source, as GCC reads it
// (gcc(1), "-x language").
type Language struct {
	Name   string // GCC's -x name: c, c++, cpp-output, c++-cpp-output
	Header bool   // a header: instrumented by gopari instrument, passed through by gopari cc
}

// suffixes is gopari's one table of C and C++ file suffixes: GCC's, and
// the usual names of C++ files meant for inclusion.
var suffixes = map[string]Language{
	".c": {"c", false},
	".h": {"c", true},
	".i": {"cpp-output", false},

	".cc": {"c++", false}, ".cp": {"c++", false}, ".cxx": {"c++", false}, ".cpp": {"c++", false},
	".CPP": {"c++", false}, ".c++": {"c++", false}, ".C": {"c++", false},
	".ii": {"c++-cpp-output", false},

	".hh": {"c++", true}, ".H": {"c++", true}, ".hp": {"c++", true}, ".hxx": {"c++", true},
	".hpp": {"c++", true}, ".HPP": {"c++", true}, ".h++": {"c++", true}, ".tcc": {"c++", true},
	".ipp": {"c++", true}, ".inl": {"c++", true},
}

// LanguageOf returns the language of a file by its suffix; the name is
// "" for a suffix that is not C or C++.
func LanguageOf(path string) Language {
	return suffixes[filepath.Ext(path)]
}

// CPlusPlus reports whether a language is C++.
func (l Language) CPlusPlus() bool { return strings.HasPrefix(l.Name, "c++") }

// Preprocessed reports whether a language is preprocessed output.
func (l Language) Preprocessed() bool { return strings.HasSuffix(l.Name, "cpp-output") }
