package udiff

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUnified checks diffs whose text diff -u gives: a changed line with
// its context, far-apart changes in two hunks, a missing final newline,
// and equal inputs.
func TestUnified(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, a, b, want string
	}{
		// One changed line in the middle: three lines of context each side.
		{"change", "1\n2\n3\n4\n5\n6\n7\n", "1\n2\n3\nx\n5\n6\n7\n",
			"--- a\n+++ b\n@@ -1,7 +1,7 @@\n 1\n 2\n 3\n-4\n+x\n 5\n 6\n 7\n"},
		// Changes more than six lines apart are two hunks.
		{"two hunks", "a\n1\n2\n3\n4\n5\n6\n7\nb\n", "A\n1\n2\n3\n4\n5\n6\n7\nB\n",
			"--- a\n+++ b\n@@ -1,4 +1,4 @@\n-a\n+A\n 1\n 2\n 3\n@@ -6,4 +6,4 @@\n 5\n 6\n 7\n-b\n+B\n"},
		// An inserted line into an empty file.
		{"insert", "", "x\n", "--- a\n+++ b\n@@ -0,0 +1 @@\n+x\n"},
		// The final newline removed.
		{"no newline", "x\n", "x", "--- a\n+++ b\n@@ -1 +1 @@\n-x\n+x\n\\ No newline at end of file\n"},
		// Equal inputs: no diff at all.
		{"equal", "x\n", "x\n", ""},
	} {
		if got := Unified("a", "b", []byte(tc.a), []byte(tc.b)); got != tc.want {
			t.Errorf("%s: got\n%s\nwant\n%s", tc.name, got, tc.want)
		}
	}
}

// TestGolden checks the comparison with a golden file: equal, different
// (the sides named as gopari diff names them), and missing.
func TestGolden(t *testing.T) {
	t.Parallel()
	golden := filepath.Join(t.TempDir(), "a.c")
	if err := os.WriteFile(golden, []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if d, err := Golden(golden, "a.c", []byte("x\n")); d != "" || err != nil {
		t.Errorf("equal: %q, %v", d, err)
	}
	want := "--- " + filepath.ToSlash(golden) + "\n+++ a.c (instrumented)\n@@ -1 +1 @@\n-x\n+y\n"
	if d, err := Golden(golden, "a.c", []byte("y\n")); d != want || err != nil {
		t.Errorf("different: %q, %v; want %q", d, err, want)
	}
	if _, err := Golden(golden+".missing", "b.c", nil); err == nil || !strings.HasPrefix(err.Error(), "b.c: no golden file: ") || !strings.HasSuffix(err.Error(), "(use --update to create it)") {
		t.Errorf("missing: %v", err)
	}
}
