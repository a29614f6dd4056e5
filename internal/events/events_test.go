package events

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"testing"
)

// stream writes a small stream with every known type and returns its
// bytes and the records, as a reader must return them.
func stream(t *testing.T, blockSize int) ([]byte, []Record) {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, Header{OSThread: 3, PID: 77, Tick0: 1000}, blockSize)
	if err != nil {
		t.Fatal(err)
	}
	var want []Record
	put := func(typ Type, region uint32, ts uint64, args ...uint64) {
		w.Put(typ, region, ts, args...)
		if typ == ChunkNext || typ == ChunkNextStatic || typ == ChunkNextDynamic {
			// The reader returns the chunk's end and the next's beginning.
			want = append(want, Record{Type: ChunkEnd, Region: region, Time: ts, N: 2, Args: [3]uint64{args[0] & 0xffffffff, args[1]}})
			begin := Record{Type: ChunkBegin, Region: region, Time: ts, N: 2, Args: [3]uint64{args[0] >> 32, args[2]}}
			switch typ {
			case ChunkNextStatic:
				begin.N, begin.Args[2] = 3, 1
			case ChunkNextDynamic:
				begin.N, begin.Args[2] = 3, 2
			}
			want = append(want, begin)
			return
		}
		r := Record{Type: typ, Region: region, Time: ts, N: len(args)}
		copy(r.Args[:], args)
		want = append(want, r)
	}
	ts := uint64(1000)
	put(Loc, 0, ts, 5)
	for i, typ := range KnownTypes() {
		if typ == Time || typ == Loc || typ.short() {
			continue // the short task records: TestShortTaskRecords
		}
		args := make([]uint64, typ.Words())
		for j := range args {
			args[j] = uint64(i*10 + j)
		}
		region := uint32(0)
		if specs[typ].region {
			region = uint32(i + 1)
		}
		ts += uint64(i * 7)
		put(typ, region, ts, args...)
	}
	ts += math.MaxUint32 + 5 // needs a TIME record
	put(ChunkBegin, 9, ts, uint64(1<<63|5))
	put(ChunkEnd, 9, ts-3, 7)                  // backwards: a TIME record too
	put(ChunkNext, 9, ts, 7|12<<32, 1<<63, 99) // a value of INT64_MIN
	put(ChunkNextStatic, 9, ts+1, 0xffffffff|0xfffffffe<<32, 5, 6)
	put(ChunkNextDynamic, 9, ts+2, 3|4<<32, 5, 6)
	put(Loc, 0, ts, 6)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), want
}

// readAll reads every record of b, skipping the LOC records that start
// blocks and TIME records, which the writer adds on its own.
func readAll(t *testing.T, b []byte) ([]Record, error) {
	t.Helper()
	r, err := NewReader("t.evt", bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return nil, err
	}
	var out []Record
	for {
		rec, err := r.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, rec)
	}
}

func TestRoundTrip(t *testing.T) {
	for _, bs := range []int{64, 100, 4096} {
		b, want := stream(t, bs)
		got, err := readAll(t, b)
		if err != nil {
			t.Fatalf("block size %d: %v", bs, err)
		}
		// Drop what the writer added: LOC at block starts repeating the
		// current location, TIME records.
		var kept []Record
		loc := uint64(math.MaxUint64)
		for _, r := range got {
			if r.Type == Time {
				continue
			}
			if r.Type == Loc {
				if r.Args[0] == loc {
					continue
				}
				loc = r.Args[0]
			}
			kept = append(kept, r)
		}
		if len(kept) != len(want) {
			t.Fatalf("block size %d: %d records, want %d", bs, len(kept), len(want))
		}
		for i := range want {
			if kept[i] != want[i] {
				t.Errorf("block size %d: record %d = %+v, want %+v", bs, i, kept[i], want[i])
			}
		}
	}
}

func TestHeader(t *testing.T) {
	b, _ := stream(t, 4096)
	r, err := NewReader("t.evt", bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	h := r.Header()
	if h.Version != Version || h.HeaderSize != 32 || h.OSThread != 3 || h.PID != 77 || h.Tick0 != 1000 {
		t.Errorf("header %+v", h)
	}
}

// TestUnknownTypes checks that records of types the reader does not know
// are skipped, by their payload size.
func TestUnknownTypes(t *testing.T) {
	var buf bytes.Buffer
	w, _ := NewWriter(&buf, Header{}, 4096)
	w.Loc(10, 0)
	w.Put(60, 3, 11, 1, 2, 3)
	w.Put(TaskEnd, 4, 12, 99)
	w.Close()
	got, err := readAll(t, buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[1].Type != TaskEnd || got[1].Args[0] != 99 || got[1].Time != 12 {
		t.Errorf("got %+v", got)
	}
}

func word(typ Type, n int, region uint32, delta uint32) []byte {
	return binary.LittleEndian.AppendUint64(nil, uint64(typ)|uint64(n)<<6|uint64(region)<<8|uint64(delta)<<32)
}

func block(payload ...[]byte) []byte {
	p := bytes.Join(payload, nil)
	b := []byte(BlockMagic)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(p)))
	b = binary.LittleEndian.AppendUint64(b, 500)
	return append(b, p...)
}

func u64(v uint64) []byte { return binary.LittleEndian.AppendUint64(nil, v) }

func header(version uint16) []byte {
	b := []byte(FileMagic)
	b = binary.LittleEndian.AppendUint16(b, version)
	b = binary.LittleEndian.AppendUint16(b, FileHeaderSize)
	return append(b, make([]byte, 20)...)
}

// TestHostile feeds damaged streams: each must give an error naming the
// file and the offset of the damage, after the records of the complete
// blocks before it.
func TestHostile(t *testing.T) {
	good := block(word(Loc, 1, 0, 0), u64(1), word(TaskEnd, 1, 2, 5), u64(7))
	whole := append(header(1), good...)
	tests := []struct {
		name    string
		data    []byte
		records int // delivered before the error
		want    string
	}{
		{"empty", nil, 0, "t.evt: offset 0: empty file, not an event stream"},
		{"short header", []byte("GOPARIEV\x01"), 0, "t.evt: offset 0: truncated file header (got 9 of 32 bytes)"},
		{"magic", append([]byte("PK\x03\x04xxxx"), make([]byte, 24)...), 0, `t.evt: offset 0: not a gopari event stream (magic "PK..xxxx", want "GOPARIEV")`},
		{"newer", header(8), 0, "t.evt: offset 8: format version 8 is newer than this gopari reads (7); update gopari"},
		{"version 0", header(0), 0, "t.evt: offset 8: format version 0"},
		{"cut in a block", whole[:len(whole)-3], 0, "t.evt: offset 32: truncated block (got 29 of 32 bytes)"},
		{"cut in the second block", append(whole, good...)[:len(whole)+20], 2, "t.evt: offset 80: truncated block (got 4 of 32 bytes)"},
		{"cut in a block header", append(whole, good[:10]...), 2, "t.evt: offset 80: truncated block header (got 10 of 16 bytes)"},
		{"block magic", append(whole, []byte("XXXX\x08\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00")...), 2, `t.evt: offset 80: no block here (magic "XXXX", want "BLK1")`},
		{"odd length", append(header(1), block(word(Loc, 1, 0, 0), u64(1), []byte{1, 2, 3})...), 0, "t.evt: offset 36: block payload of 19 bytes is not a multiple of 8"},
		{"huge length", append(header(1), []byte("BLK1\x00\x00\x00\xf0\x00\x00\x00\x00\x00\x00\x00\x00")...), 0, "t.evt: offset 36: block payload of 4026531840 bytes is larger than any writer makes (1073741824)"},
		{"empty block", append(header(1), block()...), 0, "t.evt: offset 32: empty block"},
		{"no LOC", append(header(1), block(word(TaskEnd, 1, 2, 5), u64(7))...), 0, "t.evt: offset 48: block starts with a TASK_END record, not LOC"},
		{"past the block", append(header(1), block(word(Loc, 1, 0, 0), u64(1), word(TaskBegin, 2, 2, 0), u64(7))...), 1, "t.evt: offset 64: TASK_BEGIN record with 2 payload words runs past the end of its block"},
		{"short payload", append(header(1), block(word(Loc, 1, 0, 0), u64(1), word(TaskBegin, 1, 2, 0), u64(7))...), 1, "t.evt: offset 64: TASK_BEGIN record with 1 payload words, want 2"},
		{"short CHUNK_NEXT", append(header(2), block(word(Loc, 1, 0, 0), u64(1), word(ChunkNext, 2, 2, 0), u64(7), u64(8))...), 1, "t.evt: offset 64: CHUNK_NEXT record with 2 payload words, want 3"},
		{"zeroed", append(header(1), block(word(Loc, 1, 0, 0), u64(1), make([]byte, 16))...), 1, "t.evt: offset 64: record of type 0 (zeroed or damaged block)"},
	}
	for _, tt := range tests {
		got, err := readAll(t, tt.data)
		if err == nil {
			t.Errorf("%s: no error", tt.name)
			continue
		}
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%s: error %T %v, want *Error", tt.name, err, err)
		}
		if err.Error() != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.name, err, tt.want)
		}
		if len(got) != tt.records {
			t.Errorf("%s: %d records before the error, want %d", tt.name, len(got), tt.records)
		}
	}
}

func TestMerge(t *testing.T) {
	mk := func(thread uint32, times ...uint64) *Reader {
		var buf bytes.Buffer
		w, _ := NewWriter(&buf, Header{OSThread: thread}, 64)
		w.Loc(times[0], thread)
		for _, ts := range times[1:] {
			w.Put(TaskEnd, 1, ts, uint64(thread))
		}
		w.Close()
		r, err := NewReader("x", bytes.NewReader(buf.Bytes()), int64(buf.Len()))
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	m, err := NewMerger([]*Reader{mk(0, 1, 5, 5, 9), mk(1, 2, 5, 6), mk(2, 0, 3)})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	var last uint64
	for {
		rec, src, err := m.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if rec.Time < last {
			t.Errorf("time went back: %d after %d", rec.Time, last)
		}
		last = rec.Time
		if rec.Type == TaskEnd {
			got = append(got, string(rune('0'+src))+":"+string(rune('0'+rec.Time)))
		}
	}
	if s := strings.Join(got, " "); s != "2:3 0:5 0:5 1:5 1:6 0:9" {
		t.Errorf("merged %s", s)
	}
}

// FuzzReader checks that no input makes the reader panic or loop, and
// that every error names the file and an offset inside it.
func FuzzReader(f *testing.F) {
	b, _ := stream(&testing.T{}, 100)
	f.Add(b)
	f.Add(b[:len(b)/2])
	c := calls(f)
	f.Add(c)
	f.Add(c[:len(c)-12])
	for _, v := range []int{5, 6} {
		b, _ := tasks(f, v, 96)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := NewReader("f.evt", bytes.NewReader(data), int64(len(data)))
		for n := 0; err == nil; n++ {
			if n > len(data) {
				t.Fatal("more records than bytes")
			}
			_, err = r.Next()
		}
		if err == io.EOF {
			return
		}
		var e *Error
		if !errors.As(err, &e) || e.File != "f.evt" || e.Offset < 0 || e.Offset > int64(len(data)) {
			t.Fatalf("error %v", err)
		}
	})
}

// calls writes the records of function calls (version 5) as the runtime
// does around a task: a call that its task adopts, one inside it, and
// the adopted one's exit after the task's end.
func calls(tb testing.TB) []byte {
	var buf bytes.Buffer
	w, err := NewWriter(&buf, Header{OSThread: 1, PID: 9, Tick0: 10}, 96)
	if err != nil {
		tb.Fatal(err)
	}
	w.Loc(10, 0)
	w.Put(FuncEnter, 0, 11, 0x401000)
	w.Put(FuncAdopt, 0, 12, 1)
	w.Put(TaskBegin, 4, 12, 7, 1)
	w.Put(FuncEnter, 0, 13, 0x401100)
	w.Put(FuncExit, 0, 20, 0x401100)
	w.Put(TaskEnd, 4, 21, 7)
	w.Put(FuncExit, 0, 22, 0x401000)
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// TestFuncRecords reads the records of function calls back.
func TestFuncRecords(t *testing.T) {
	recs, err := readAll(t, calls(t))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range recs {
		if r.Type >= FuncEnter {
			got = append(got, fmt.Sprintf("%v %#x @%d", r.Type, r.Args[0], r.Time))
		}
	}
	want := "FUNC_ENTER 0x401000 @11,FUNC_ADOPT 0x1 @12,FUNC_ENTER 0x401100 @13,FUNC_EXIT 0x401100 @20,FUNC_EXIT 0x401000 @22"
	if strings.Join(got, ",") != want {
		t.Errorf("got %s\nwant %s", strings.Join(got, ","), want)
	}
}

// tasks writes, in format version, the records of tasks as the runtime
// makes them: tiny tasks run undeferred (created, begun, ended, their
// creation ended at their end), created in a loop's body (with the
// iteration), deferred and run later, nested, and a task begun while
// measurement was off (ID 0). It returns the stream and the records a
// reader must return, in order.
func tasks(tb testing.TB, version, blockSize int) ([]byte, []Record) {
	var buf bytes.Buffer
	w, err := NewWriter(&buf, Header{Version: version, OSThread: 2, PID: 9, Tick0: 10}, blockSize)
	if err != nil {
		tb.Fatal(err)
	}
	var want []Record
	ts := uint64(10)
	put := func(typ Type, region uint32, dt uint64, args ...uint64) {
		ts += dt
		w.Put(typ, region, ts, args...)
		r := Record{Type: typ, Region: region, Time: ts, N: len(args)}
		copy(r.Args[:], args)
		want = append(want, r)
	}
	put(Loc, 0, 0, 1)
	put(ImplicitBegin, 1, 1, 1<<32|1, 7)
	id := uint64(1<<32 | 2)
	for i := 0; i < 40; i++ { // undeferred tiny tasks
		put(CreateBegin, 2, 3, id)
		put(TaskBegin, 2, 5, id, 1<<32|1)
		put(TaskEnd, 2, 2, id)
		put(CreateEnd, 2, 0, id)
		id++
	}
	// Undeferred, their steps at the edges of a TINY_TASK's fields
	// (version 7): the first fits, the others take 16 bytes.
	for _, steps := range [][3]uint64{{1023, 1023, 4095}, {1024, 1, 1}, {1, 1024, 1}, {1, 1, 4096}, {1 << 31, 1 << 31, 1 << 31}} {
		put(CreateBegin, 2, steps[0], id)
		put(TaskBegin, 2, steps[1], id, 1<<32|1)
		put(TaskEnd, 2, steps[2], id)
		put(CreateEnd, 2, 0, id)
		id++
	}
	// Deferred, not in a loop: queued right after their creation begins,
	// the steps at the edges of a CREATE_QUEUED's fields (version 7):
	// the first fits, the others take 16 bytes.
	for _, steps := range [][2]uint64{{1<<20 - 1, 4095}, {1 << 20, 1}, {1, 4096}} {
		put(CreateBegin, 2, steps[0], id)
		put(CreateEnd, 2, steps[1], id)
		put(TaskBegin, 2, 1, id, 1<<32|1)
		put(TaskEnd, 2, 1, id)
		id++
	}
	for i := uint64(0); i < 5; i++ { // in a loop's body, deferred
		put(CreateBegin, 3, 4, id+i, i)
		put(CreateEnd, 3, 6, id+i)
	}
	for i := uint64(0); i < 5; i++ { // run later, the last on another ID's heels
		put(TaskBegin, 3, 2, id+i, 1<<32|1)
		put(TaskEnd, 3, 1, id+i)
	}
	id += 5
	put(CreateBegin, 2, 3, id) // nested: a task created in an undeferred task
	put(TaskBegin, 2, 1, id, 1<<32|1)
	put(CreateBegin, 2, 1, id+1)
	put(TaskBegin, 2, 1, id+1, id)
	put(TaskEnd, 2, 1, id+1)
	put(CreateEnd, 2, 0, id+1)
	put(TaskEnd, 2, 1, id)
	put(CreateEnd, 2, 0, id)
	put(TaskEnd, 2, 1, id+2)         // of a task not begun here
	put(CreateEnd, 4, 0, id)         // of another region: no merge
	put(TaskBegin, 2, 1, 0, 1<<32|1) // measurement was off: ID 0
	put(TaskEnd, 2, 1, 0)
	put(CreateBegin, 2, 1<<33, id+7, 3) // after a TIME record
	put(CreateEnd, 2, 1, id+7)
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes(), want
}

// TestShortTaskRecords checks the short task records of versions 6 and
// 7: the reader returns what was written, in blocks of any size, and a
// tiny task run undeferred takes 16 bytes instead of 72, 8 in version 7
// when its steps fit a TINY_TASK.
func TestShortTaskRecords(t *testing.T) {
	sizes := map[int]int{}
	for _, version := range []int{5, 6, 7} {
		for _, bs := range []int{64, 72, 96, 256, 1 << 20} {
			b, want := tasks(t, version, bs)
			got, err := readAll(t, b)
			if err != nil {
				t.Fatalf("version %d, blocks of %d: %v", version, bs, err)
			}
			var kept []Record
			for i, r := range got {
				if r.Type == Time || (r.Type == Loc && i > 0) {
					continue
				}
				kept = append(kept, r)
			}
			if len(kept) != len(want) {
				t.Fatalf("version %d, blocks of %d: %d records, want %d", version, bs, len(kept), len(want))
			}
			for i := range want {
				if kept[i] != want[i] {
					t.Errorf("version %d, blocks of %d: record %d = %+v, want %+v", version, bs, i, kept[i], want[i])
				}
			}
			if bs == 1<<20 {
				sizes[version] = len(b)
			}
		}
	}
	// 40 tiny tasks: 16 bytes each instead of 72; and 8 in version 7,
	// all but the first (whose long CREATE_BEGIN names its ID), as one
	// more whose steps just fit; each TASK_BEGIN_OWN 16 bytes instead of
	// a TASK_BEGIN's 24, the one queued task whose steps fit 8 instead
	// of 16, and each TASK_END_BEFORE 8 instead of a TASK_END's 16.
	if sizes[5]-sizes[6] < 40*56 {
		t.Errorf("version 6 takes %d bytes, version 5 %d: want at least %d fewer", sizes[6], sizes[5], 40*56)
	}
	b, _ := tasks(t, 7, 1<<20)
	own, queued, before := rawCount(b, TaskBeginOwn), rawCount(b, CreateQueued), rawCount(b, TaskEndBefore)
	if want := 40*8 + own*8 + 8 + before*8; own == 0 || queued != 1 || before == 0 || sizes[6]-sizes[7] != want {
		t.Errorf("version 7 takes %d bytes, version 6 %d, with %d TASK_BEGIN_OWN, %d CREATE_QUEUED and %d TASK_END_BEFORE: want %d fewer, some, 1 and some",
			sizes[7], sizes[6], own, queued, before, want)
	}
}

// rawCount counts the records of type typ in stream b as written, the
// short forms as themselves.
func rawCount(b []byte, typ Type) int {
	n := 0
	for off := FileHeaderSize; off+BlockHeaderSize <= len(b); {
		end := off + BlockHeaderSize + int(binary.LittleEndian.Uint32(b[off+4:]))
		for p := off + BlockHeaderSize; p < end; p += WordSize * (1 + int(b[p]>>6)) {
			if Type(b[p]&MaxType) == typ {
				n++
			}
		}
		off = end
	}
	return n
}

// TestShortRecordsAtBlockStart checks that the short task records name
// nothing from an earlier block: at a block's start every ID they leave
// out is 0, and in a stream of version 5 they are types it did not know.
func TestShortRecordsAtBlockStart(t *testing.T) {
	rec := func(version uint16) []Record {
		b := append(header(version), block(word(Loc, 1, 0, 0), u64(1), word(CreateBegin, 1, 2, 1), u64(41), word(TaskBegin, 2, 2, 1), u64(41), u64(3))...)
		b = append(b, block(word(Loc, 1, 0, 0), u64(1), word(CreateBeginNext, 1, 2, 1), u64(9), word(TaskBeginLast, 0, 2, 1),
			word(TaskEndCreated, 0, 2, 1), word(UndeferredTask, 1, 5, 2), u64(7<<32|3), word(UndeferredBegin, 1, 5, 1), u64(4),
			word(UndeferredEnd, 1, 5, 1), u64(1<<32|1), word(TaskBeginParent, 1, 5, 1), u64(77),
			u64(uint64(TinyTask)|6<<8|2<<32|3<<42|4<<52), word(TaskBeginOwn, 1, 5, 1), u64(7|2<<32),
			u64(uint64(CreateQueued)|6<<8|2<<32|5<<52), u64(uint64(TaskEndBefore)|6<<8|3<<32|2<<52))...)
		got, err := readAll(t, b)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	want := "LOC 1 [1 0 0] @500,CREATE_BEGIN 1 [41 0 0] @501,TASK_BEGIN 2 [41 3 0] @502," +
		"LOC 1 [1 0 0] @500,CREATE_BEGIN 2 [1 9 0] @501,TASK_BEGIN 2 [1 0 0] @502,TASK_END 1 [1 0 0] @503,CREATE_END 1 [1 0 0] @503," +
		"CREATE_BEGIN 1 [2 0 0] @505,TASK_BEGIN 2 [2 0 0] @508,TASK_END 1 [2 0 0] @515,CREATE_END 1 [2 0 0] @515," +
		"CREATE_BEGIN 1 [3 0 0] @516,TASK_BEGIN 2 [3 0 0] @520," +
		"CREATE_BEGIN 1 [4 0 0] @521,TASK_BEGIN 2 [4 0 0] @522,TASK_END 1 [4 0 0] @523,TASK_BEGIN 2 [77 0 0] @524"
	// TINY_TASK, TASK_BEGIN_OWN, CREATE_QUEUED and TASK_END_BEFORE are
	// types that version 6 did not know; TASK_BEGIN_OWN's ID takes its
	// high half from the last created task's (5 here, high half 0), and
	// TASK_END_BEFORE's task is begun less k (7 - 2).
	tiny := ",CREATE_BEGIN 1 [5 0 0] @526,TASK_BEGIN 2 [5 0 0] @529,TASK_END 1 [5 0 0] @533,CREATE_END 1 [5 0 0] @533" +
		",TASK_BEGIN 2 [7 5 0] @534,CREATE_BEGIN 1 [6 0 0] @536,CREATE_END 1 [6 0 0] @541,TASK_END 1 [5 0 0] @544"
	for version, want := range map[uint16]string{6: want, 7: want + tiny} {
		var s []string
		for _, r := range rec(version) {
			s = append(s, fmt.Sprintf("%v %d %v @%d", r.Type, r.N, r.Args, r.Time))
		}
		if got := strings.Join(s, ","); got != want {
			t.Errorf("version %d: got  %s\nwant %s", version, got, want)
		}
	}
	if got := rec(5); len(got) != 4 {
		t.Errorf("version 5: %d records, want the 4 of types it knew: %+v", len(got), got)
	}
}
