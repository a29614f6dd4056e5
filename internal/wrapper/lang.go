package main

import (
	"path/filepath"
	"strings"
)

// A language is what a file suffix says about a source, as GCC reads it
// (gcc(1), "-x language").
type language struct {
	name   string // GCC's -x name: c, c++, cpp-output, c++-cpp-output
	header bool   // a header: instrumented by gopari instrument, passed through by gopari cc
}

// suffixes is gopari's one table of C and C++ file suffixes: GCC's, and
// the usual names of C++ files meant for inclusion.
var suffixes = map[string]language{
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

// languageOf returns the language of a file by its suffix; the name is
// "" for a suffix that is not C or C++.
func languageOf(path string) language {
	return suffixes[filepath.Ext(path)]
}

// cplusplus reports whether a language is C++.
func (l language) cplusplus() bool { return strings.HasPrefix(l.name, "c++") }

// preprocessed reports whether a language is preprocessed output.
func (l language) preprocessed() bool { return strings.HasSuffix(l.name, "cpp-output") }
