package atomicfile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestWriteAtomicModes checks the modes of written files: a new one gets
// 0644 under the umask, a replaced one keeps its own, a symbolic link
// stays a link, and no temporary file is left behind.
func TestWriteAtomicModes(t *testing.T) {
	old := syscall.Umask(0o002)
	defer syscall.Umask(old)
	dir := t.TempDir()

	fresh := filepath.Join(dir, "new.c")
	if err := WriteFile(fresh, []byte("a\n")); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(fresh); err != nil || st.Mode().Perm() != 0o644 {
		t.Errorf("new file: %v %v, want mode 0644 under umask 002", st.Mode(), err)
	}

	kept := filepath.Join(dir, "kept.c")
	if err := os.WriteFile(kept, []byte("old\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	os.Chmod(kept, 0o751)
	if err := WriteFile(kept, []byte("b\n")); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(kept); err != nil || st.Mode().Perm() != 0o751 {
		t.Errorf("replaced file: %v %v, want its mode 0751 kept", st.Mode(), err)
	}

	link := filepath.Join(dir, "link.c")
	if err := os.Symlink("kept.c", link); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(link, []byte("c\n")); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the symbolic link was replaced: %v %v", st.Mode(), err)
	}
	if b, _ := os.ReadFile(kept); string(b) != "c\n" {
		t.Errorf("the link's target holds %q, want %q", b, "c\n")
	}

	entries, _ := os.ReadDir(dir)
	if len(entries) != 3 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("directory holds %v, want new.c, kept.c, link.c", names)
	}

	if err := WriteFile(dir, []byte("d\n")); err == nil {
		t.Errorf("writing over a directory succeeded")
	}
}
