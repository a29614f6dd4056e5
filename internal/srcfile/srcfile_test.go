package srcfile

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestReadLarge reads a file large enough to be read in two halves
// on two threads, and one that is not, byte for byte.
func TestReadLarge(t *testing.T) {
	for _, size := range []int{1<<20 + 3, 1 << 20, 4095} {
		want := make([]byte, size)
		for i := range want {
			want[i] = byte(i*7 + i>>11)
		}
		name := filepath.Join(t.TempDir(), "big.c")
		if err := os.WriteFile(name, want, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := Read(name, nil)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%d bytes: read %d bytes, error %v; equal: %v", size, len(got), err, bytes.Equal(got, want))
		}
	}
}
