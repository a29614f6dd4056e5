package codeshape

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const (
	maxFileLines = 800
	maxFuncLines = 80
	// maxMainLines bounds cmd/gopari's non-test Go: the command is glue
	// (flags, help, exit codes), its subsystems live in internal/.
	maxMainLines = 2000
	// A function over maxFuncLines passes when it is a dispatch switch:
	// this share of its lines at least is one switch statement.
	dispatchShare = 0.8
)

// TestShape checks every Go file that is not a test: at most 800 lines,
// and no function over 80 lines unless it is a dispatch switch.
func TestShape(t *testing.T) {
	root := filepath.Join("..", "..")
	n := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "build" || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		n++
		rel, _ := filepath.Rel(root, path)
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, rel, src, 0)
		if err != nil {
			return err
		}
		if lines := fset.File(f.Pos()).LineCount(); lines > maxFileLines {
			t.Errorf("%s: %d lines, more than %d", rel, lines, maxFileLines)
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			if lines := span(fset, fn); lines > maxFuncLines && !dispatch(fset, fn, lines) {
				t.Errorf("%s: func %s has %d lines, more than %d, and is not a dispatch switch", fset.Position(fn.Pos()), fn.Name.Name, lines, maxFuncLines)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 100 {
		t.Fatalf("read %d Go files below %s: the walk missed the repository", n, root)
	}
}

func span(fset *token.FileSet, n ast.Node) int {
	return fset.Position(n.End()).Line - fset.Position(n.Pos()).Line + 1
}

// dispatch reports whether one switch statement makes up most of fn.
func dispatch(fset *token.FileSet, fn *ast.FuncDecl, lines int) bool {
	for _, s := range fn.Body.List {
		switch s.(type) {
		case *ast.SwitchStmt, *ast.TypeSwitchStmt:
			if float64(span(fset, s)) >= dispatchShare*float64(lines) {
				return true
			}
		}
	}
	return false
}

// TestThinMain checks that cmd/gopari holds at most 2,000 lines of Go
// that is not a test.
func TestThinMain(t *testing.T) {
	dir := filepath.Join("..", "..", "cmd", "gopari")
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	var sizes []string
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		n := bytes.Count(src, []byte("\n"))
		total += n
		sizes = append(sizes, fmt.Sprintf("%s %d", filepath.Base(f), n))
	}
	if len(sizes) == 0 {
		t.Fatalf("no Go files in %s", dir)
	}
	if total > maxMainLines {
		t.Errorf("cmd/gopari has %d lines of non-test Go, more than %d: move subsystems into internal/ (%s)",
			total, maxMainLines, strings.Join(sizes, ", "))
	}
}
