package events

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
)

// A Writer writes one stream file as libpomp does: a header, then blocks
// that each start with a LOC record. It exists for tests and benchmarks,
// which need streams of known content; the runtime's writer is in C.
type Writer struct {
	w         io.Writer
	blockSize int
	buf       []byte // the current block: header and records
	base      uint64 // the block's base timestamp
	last      uint64 // running timestamp
	loc       uint32
	haveLoc   bool
	open      bool
	err       error
	records   int64
	bytes     int64
	// short: the stream's version has the short task records (6), which
	// the writer uses as the runtime does, with what they leave out as
	// the block's records named it (Reader.created ...), and tiny the
	// records of version 7 (TINY_TASK, TASK_BEGIN_OWN, CREATE_QUEUED,
	// TASK_END_BEFORE);
	// createdAt, begunAt, ended and endedAt are where the block's last
	// record ends if it can grow, as in libpomp (events.h: a
	// CREATE_BEGIN_NEXT without payload, an UNDEFERRED_BEGIN, a
	// TASK_END_LAST, an UNDEFERRED_END), or 0.
	short, tiny                        bool
	created, begun, parent             uint64
	createdAt, begunAt, ended, endedAt int
}

// NewWriter writes h as the file header and returns a writer whose blocks
// hold at most blockSize bytes of records (at least 64).
func NewWriter(w io.Writer, h Header, blockSize int) (*Writer, error) {
	if blockSize < 64 {
		blockSize = 64
	}
	blockSize &^= WordSize - 1
	var b [FileHeaderSize]byte
	copy(b[:], FileMagic)
	v := h.Version
	if v == 0 {
		v = Version
	}
	binary.LittleEndian.PutUint16(b[8:], uint16(v))
	binary.LittleEndian.PutUint16(b[10:], FileHeaderSize)
	binary.LittleEndian.PutUint32(b[12:], h.OSThread)
	binary.LittleEndian.PutUint32(b[16:], h.PID)
	binary.LittleEndian.PutUint64(b[24:], h.Tick0)
	if _, err := w.Write(b[:]); err != nil {
		return nil, err
	}
	return &Writer{w: w, blockSize: blockSize, bytes: FileHeaderSize, short: v >= 6, tiny: v >= 7}, nil
}

// Loc records that the thread now acts as location loc.
func (w *Writer) Loc(t uint64, loc uint32) {
	w.loc, w.haveLoc = loc, true
	w.put(Loc, 0, t, uint64(loc))
}

// Put appends a record of type typ at time t. It panics on a record that
// the format cannot hold: the writer is for tests, whose streams must be
// right unless they are made wrong on purpose (see Raw).
func (w *Writer) Put(typ Type, region uint32, t uint64, args ...uint64) {
	if typ == Loc {
		w.Loc(t, uint32(args[0]))
		return
	}
	if !w.haveLoc {
		panic("events.Writer: a record before the first LOC")
	}
	w.put(typ, region, t, args...)
}

func (w *Writer) put(typ Type, region uint32, t uint64, args ...uint64) {
	if typ == 0 || typ > MaxType || len(args) > 3 || region > 0xffffff {
		panic(fmt.Sprintf("events.Writer: bad record %v region %d with %d words", typ, region, len(args)))
	}
	need := WordSize * (1 + len(args))
	if w.open && len(w.buf)-BlockHeaderSize+need+2*WordSize > w.blockSize {
		w.Flush()
	}
	if !w.open {
		w.open = true
		w.created, w.begun, w.parent = 0, 0, 0
		w.createdAt, w.begunAt, w.ended, w.endedAt = 0, 0, 0, 0
		w.base, w.last = t, t
		w.buf = append(w.buf[:0], make([]byte, BlockHeaderSize)...)
		copy(w.buf, BlockMagic)
		binary.LittleEndian.PutUint64(w.buf[8:], t)
		if typ != Loc {
			w.word(uint64(Loc) | 1<<6)
			w.word(uint64(w.loc))
			w.records++
		}
	}
	if w.short && w.grow(typ, region, t, args) {
		w.last = t
		w.records++
		return
	}
	if t < w.last || t-w.last > math.MaxUint32 {
		w.word(uint64(Time) | 1<<6)
		w.word(t)
		w.records++
		w.last = t
	}
	d := t - w.last
	if w.short {
		long := typ
		if typ, args = w.shorten(typ, args, d); typ == TaskEndBefore && long == TaskEnd {
			d, args = d|args[0]<<20, nil // k in the header, above the delta's 20 bits
		}
	}
	w.word(uint64(typ) | uint64(len(args))<<6 | uint64(region)<<8 | d<<32)
	for _, a := range args {
		w.word(a)
	}
	w.last = t
	w.records++
	w.createdAt, w.begunAt, w.ended, w.endedAt = 0, 0, 0, 0
	switch {
	case typ == CreateBeginNext && len(args) == 0:
		w.createdAt = len(w.buf)
	case typ == TaskEndLast:
		w.ended = len(w.buf)
	}
}

// grow writes a task record of version 6 into the block's last record,
// where libpomp does (events.h, ev_task): the begin and then the end of
// the task created last into its CREATE_BEGIN_NEXT, when it runs as it
// is created, and a creation's end into the end of its task, or (version
// 7) into its CREATE_BEGIN_NEXT when it is queued. It returns whether it
// did.
func (w *Writer) grow(typ Type, region uint32, t uint64, args []uint64) bool {
	n := len(w.buf)
	d := t - w.last
	fits := t >= w.last && d <= math.MaxUint32
	le := binary.LittleEndian
	names := func(at int) bool { return at == n && le.Uint32(w.buf[at-8:])>>8 == region }
	switch {
	case typ == CreateEnd && len(args) == 1 && args[0] == w.created && w.tiny && fits && d < 1<<12 && names(w.createdAt) &&
		le.Uint64(w.buf[n-8:])>>52 == 0:
		le.PutUint64(w.buf[n-8:], le.Uint64(w.buf[n-8:])+uint64(CreateQueued-CreateBeginNext)|d<<52) // CREATE_QUEUED
		w.createdAt = 0
	case typ == TaskBegin && len(args) == 2 && args[0] == w.created && args[1] == w.parent && fits && names(w.createdAt):
		w.buf[n-8] += byte(UndeferredBegin-CreateBeginNext) | 1<<6
		w.word(d)
		w.begun, w.begunAt, w.createdAt = args[0], len(w.buf), 0
	case typ == TaskEnd && len(args) == 1 && args[0] == w.begun && fits && w.begunAt == n && le.Uint32(w.buf[n-16:])>>8 == region:
		w.buf[n-16]++ // UNDEFERRED_END
		le.PutUint64(w.buf[n-8:], le.Uint64(w.buf[n-8:])|d<<32)
		w.endedAt, w.begunAt = n, 0
	case typ == CreateEnd && len(args) == 1 && args[0] == w.created && args[0] == w.begun && t == w.last && names(w.ended):
		w.buf[n-8]++ // TASK_END_CREATED
		w.ended = 0
	case typ == CreateEnd && len(args) == 1 && args[0] == w.created && args[0] == w.begun && t == w.last && w.endedAt == n &&
		le.Uint32(w.buf[n-16:])>>8 == region:
		w.endedAt = 0
		h, steps := le.Uint64(w.buf[n-16:]), le.Uint64(w.buf[n-8:])
		if !w.tiny || h>>42|uint64(uint32(steps))>>10|steps>>44 != 0 {
			w.buf[n-16]++ // UNDEFERRED_TASK
			break
		}
		le.PutUint64(w.buf[n-16:], h&0x3ffffffff00|uint64(TinyTask)|steps&0x3ff<<42|steps>>32<<52)
		w.buf = w.buf[:n-8]
	default:
		return false
	}
	return true
}

// shorten returns the short form of a task record (version 6) where the
// block's earlier records name its IDs, as libpomp writes them
// (pomprt/events.h, ev_task), and keeps what a reader will know.
func (w *Writer) shorten(typ Type, args []uint64, d uint64) (Type, []uint64) {
	switch {
	case typ == CreateBegin && len(args) >= 1:
		id := args[0]
		next := id == w.created+1
		w.created = id
		if next && len(args) <= 2 {
			return CreateBeginNext, args[1:]
		}
	case typ == CreateEnd && len(args) == 1 && args[0] == w.created:
		return CreateEndLast, nil
	case typ == TaskBegin && len(args) >= 2:
		id, parent := args[0], args[1]
		same := len(args) == 2 && parent == w.parent
		last := same && id == w.created
		own := w.tiny && len(args) == 2 && !same && w.created != 0 && id>>32 == w.created>>32 && parent>>32 == id>>32 && parent < id
		w.begun, w.parent = id, parent
		switch {
		case last:
			return TaskBeginLast, nil
		case same:
			return TaskBeginParent, args[:1]
		case own:
			return TaskBeginOwn, []uint64{id&0xffffffff | (id-parent)<<32}
		}
	case typ == TaskEnd && len(args) == 1 && args[0] == w.begun:
		return TaskEndLast, nil
	case typ == TaskEnd && len(args) == 1 && w.tiny && w.begun-args[0]-1 < 4095 && (w.begun^args[0])>>32 == 0 && d < 1<<20:
		return TaskEndBefore, []uint64{w.begun - args[0]}
	}
	return typ, args
}

func (w *Writer) word(v uint64) { w.buf = binary.LittleEndian.AppendUint64(w.buf, v) }

// Flush writes the current block, if any.
func (w *Writer) Flush() error {
	if !w.open || w.err != nil {
		return w.err
	}
	binary.LittleEndian.PutUint32(w.buf[4:], uint32(len(w.buf)-BlockHeaderSize))
	_, w.err = w.w.Write(w.buf)
	w.bytes += int64(len(w.buf))
	w.open = false
	return w.err
}

// Close flushes the last block.
func (w *Writer) Close() error { return w.Flush() }

// Records returns the number of records written, TIME and LOC included;
// Bytes the bytes, header included.
func (w *Writer) Records() int64 { return w.records }
func (w *Writer) Bytes() int64   { return w.bytes }
