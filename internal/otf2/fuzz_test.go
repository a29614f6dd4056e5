//go:build otf2

package otf2

import (
	"path/filepath"
	"testing"

	"gopari/internal/events"
	"gopari/internal/events/evtest"
)

// FuzzExport writes streams of arbitrary records, in the format but with
// any order and payload, on three threads, and exports them: the export
// must succeed (libotf2 refuses a location's events out of time order,
// among others), whatever the records said.
func FuzzExport(f *testing.F) {
	f.Add([]byte{16, 0, 18, 1, 21, 2, 23, 2, 24, 2, 22, 2, 19, 1, 17, 0})
	f.Add([]byte{8, 1, 9, 1, 23, 5, 13, 1, 24, 5, 12, 1, 28, 3, 29, 3, 25, 7})
	f.Add([]byte{16, 0, 2, 1, 18, 1, 0, 4, 2, 0, 3, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 4000 {
			return
		}
		dir := filepath.Join(t.TempDir(), "exp")
		if _, err := evtest.Arbitrary(dir, data); err != nil {
			t.Fatal(err)
		}
		exp, err := events.OpenExperiment(dir)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Write(filepath.Join(t.TempDir(), "otf2"), exp); err != nil {
			t.Fatal(err)
		}
	})
}
