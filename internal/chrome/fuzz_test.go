package chrome

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"gopari/internal/events"
	"gopari/internal/events/evtest"
	"gopari/internal/grains"
)

// FuzzReplay writes streams of arbitrary records, in the format but with
// any order and payload, on three threads, and exports them: the replay,
// the Chrome writer and the grains must not panic, and the Chrome JSON
// must keep its structure (closed, nested slices, time going forward on
// every track) whatever the records said.
func FuzzReplay(f *testing.F) {
	f.Add([]byte{16, 0, 18, 1, 21, 2, 23, 2, 24, 2, 22, 2, 19, 1, 17, 0})
	f.Add([]byte{8, 1, 9, 1, 23, 5, 13, 1, 24, 5, 12, 1, 28, 3, 29, 3, 25, 7})
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
		var buf bytes.Buffer
		if _, err := Write(&buf, exp); err != nil {
			t.Fatal(err)
		}
		if _, err := Check(bytes.NewReader(buf.Bytes())); err != nil && !strings.Contains(err.Error(), "flow") {
			t.Fatalf("%v\n%s", err, buf.Bytes())
		}
		a, err := grains.Analyze(exp, grains.Options{})
		if err != nil {
			t.Fatal(err)
		}
		g := grains.NewGraph(50)
		res, err := a.Write(grains.Outputs{CSV: &bytes.Buffer{}, Graph: g})
		if err != nil {
			t.Fatal(err)
		}
		a.Summary(&bytes.Buffer{}, res, 5)
		g.WriteDOT(&bytes.Buffer{}, "x")
		g.WriteGraphML(&bytes.Buffer{})
	})
}
