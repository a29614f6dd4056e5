package scale

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTail checks that a run's output keeps its last bytes and says
// whether it was cut.
func TestTail(t *testing.T) {
	t.Parallel()
	tl := &tail{max: 4}
	tl.Write([]byte("abc"))
	if got := string(tl.Bytes()); got != "abc" || tl.cut {
		t.Errorf("short: %q cut %v", got, tl.cut)
	}
	for i := 0; i < 5; i++ {
		tl.Write([]byte("0123456789"))
	}
	if got := string(tl.Bytes()); got != "6789" || !tl.cut {
		t.Errorf("long: %q cut %v, want 6789 cut", got, tl.cut)
	}
}

// TestDir checks the directory of the runs: a new one is made, an empty
// one taken, one with files refused.
func TestDir(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	fresh := filepath.Join(root, "new")
	if got, err := Dir(fresh, "prog"); got != fresh || err != nil {
		t.Errorf("new: %q, %v", got, err)
	}
	if got, err := Dir(fresh, "prog"); got != fresh || err != nil {
		t.Errorf("empty: %q, %v", got, err)
	}
	os.WriteFile(filepath.Join(fresh, "f"), nil, 0o644)
	if _, err := Dir(fresh, "prog"); err == nil || !strings.Contains(err.Error(), "exists and is not empty") {
		t.Errorf("not empty: %v", err)
	}
}

// TestShowTail checks what is shown of a failed run's output.
func TestShowTail(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	showTail(&b, "stdout", &tail{max: 8})
	tl := &tail{max: 8}
	tl.Write([]byte("no newline"))
	showTail(&b, "stderr", tl)
	if want := "--- its stderr, its end:\n newline\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}
