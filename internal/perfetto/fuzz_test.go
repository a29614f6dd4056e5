package perfetto

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"gopari/internal/chrome"
	"gopari/internal/events"
	"gopari/internal/events/evtest"
)

// FuzzCut writes streams of arbitrary records (evtest.Arbitrary) and
// exports them cut to a window and to some of the three threads, as
// Chrome JSON and as Perfetto: neither may panic, the JSON must keep its
// structure (chrome.Check: closed, nested slices, time going forward on
// every track) whatever the records and the cut, and the Perfetto trace
// must decode into the same events.
func FuzzCut(f *testing.F) {
	f.Add([]byte{16, 0, 18, 1, 21, 2, 23, 2, 24, 2, 22, 2, 19, 1, 17, 0}, uint16(40), uint16(90), uint8(3))
	f.Add([]byte{8, 1, 9, 1, 23, 5, 13, 1, 24, 5, 12, 1, 28, 3, 29, 3, 25, 7}, uint16(0), uint16(30), uint8(6))
	f.Fuzz(func(t *testing.T, data []byte, from, length uint16, threads uint8) {
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
		opt := chrome.Options{Window: length > 0, From: float64(from), To: float64(from) + float64(length)}
		if threads&7 != 0 {
			opt.Threads = map[string]bool{}
			for i, p := range []string{"0", "0.0", "0.1"} {
				if threads&(1<<i) != 0 {
					opt.Threads[p] = true
				}
			}
		}
		var js, pf bytes.Buffer
		if _, err := chrome.WriteCut(&js, exp, opt); err != nil {
			t.Fatal(err)
		}
		if _, err := chrome.Check(bytes.NewReader(js.Bytes())); err != nil && !strings.Contains(err.Error(), "flow") {
			t.Fatalf("%+v: %v\n%s", opt, err, js.Bytes())
		}
		if _, err := Write(&pf, exp, opt); err != nil {
			t.Fatal(err)
		}
		tr, err := Read(&pf)
		if err != nil {
			t.Fatal(err)
		}
		conv, err := ChromeJSON(tr)
		if err != nil {
			t.Fatal(err)
		}
		want, got := decode(t, js.Bytes()), decode(t, conv)
		if len(want) != len(got) {
			t.Fatalf("%d events in the Perfetto trace, %d in the JSON", len(got), len(want))
		}
	})
}
