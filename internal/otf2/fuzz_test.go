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
		s, err := evtest.New(dir)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 4; i++ {
			s.Region([]string{"parallel", "task", "taskwait", "for"}[i], "f.c", i+1)
		}
		s.Loc("0", 0)
		s.Loc("0.0", 0)
		s.Loc("0.1", 1)
		th := []*evtest.Thread{s.Thread(), s.Thread(), s.Thread()}
		for i, t := range th {
			t.Put(events.Loc, 0, uint64(i%3))
		}
		types := events.KnownTypes()
		for i := 0; i+1 < len(data); i += 2 {
			t := th[int(data[i+1])%3]
			typ := types[int(data[i])%len(types)]
			if typ == events.Time {
				t.Wait(uint64(data[i+1]))
				continue
			}
			args := make([]uint64, typ.Words())
			for k := range args {
				args[k] = uint64(data[(i+k+1)%len(data)] % 8)
			}
			if typ == events.Loc {
				args[0] %= 3
			}
			t.Put(typ, uint32(data[i+1]%5), args...)
		}
		if err := s.Close(); err != nil {
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
