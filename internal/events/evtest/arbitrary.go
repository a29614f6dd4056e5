package evtest

import "gopari/internal/events"

// Arbitrary writes the records that data spells, in the format but in
// any order and with any payload, on three threads acting as locations
// 0, 0.0 and 0.1, over four regions: the input of the fuzz tests of the
// stream's readers. Two bytes make a record: its type (any known type,
// TIME advancing the clock) and the thread, region and first argument.
func Arbitrary(dir string, data []byte) (*Sim, error) {
	s, err := New(dir)
	if err != nil {
		return nil, err
	}
	for i, kind := range []string{"parallel", "task", "taskwait", "for"} {
		s.Region(kind, "f.c", i+1)
	}
	s.Loc("0", 0)
	s.Loc("0.0", 0)
	s.Loc("0.1", 1)
	th := []*Thread{s.Thread(), s.Thread(), s.Thread()}
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
	return s, s.Close()
}
