package events

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
)

// A Reader decodes one stream file record by record. It holds one
// buffer, whatever the size of the file or of its blocks.
type Reader struct {
	name string
	r    *bufio.Reader
	size int64 // bytes in the file
	off  int64 // offset of the next unread byte
	hdr  Header

	left    int64  // payload bytes left in the current block
	now     uint64 // running timestamp
	inBlock bool
	first   bool // the next record is its block's first
	blocks  int
	err     error // sticky
	closer  io.Closer
	// pend holds the records after the first that one record stands
	// for (a CHUNK_NEXT's CHUNK_BEGIN, the records of a short task
	// record), returned by the next calls of Next: pend[npend:] are left.
	pend  [3]Record
	npend int
	nleft int
	// The IDs that the short task records leave out (version 6), as the
	// block's records so far name them: its last created task, its last
	// begun task and that one's parent.
	created, begun, parent uint64
}

// Open opens a stream file and reads its header.
func Open(path string) (*Reader, error) {
	return openSized(path, -1)
}

// openSized opens a stream file whose first size bytes are read as the
// whole stream (all of it when size is negative).
func openSized(path string, size int64) (*Reader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if size < 0 || size > st.Size() {
		size = st.Size()
	}
	r, err := NewReader(path, f, size)
	if err != nil {
		f.Close()
		return nil, err
	}
	r.closer = f
	return r, nil
}

// NewReader reads the header of a stream of size bytes from rd; name is
// the file name that errors report.
func NewReader(name string, rd io.Reader, size int64) (*Reader, error) {
	r := &Reader{name: name, r: bufio.NewReaderSize(rd, 64<<10), size: size}
	var b [FileHeaderSize]byte
	n, err := io.ReadFull(r.r, b[:8])
	if err != nil {
		if n == 0 {
			return nil, r.errf(0, "empty file, not an event stream")
		}
		return nil, r.errf(0, "truncated file header (got %d of %d bytes)", n, FileHeaderSize)
	}
	if string(b[:8]) != FileMagic {
		return nil, r.errf(0, "not a gopari event stream (magic %q, want %q)", printable(b[:8]), FileMagic)
	}
	if n, err := io.ReadFull(r.r, b[8:]); err != nil {
		return nil, r.errf(0, "truncated file header (got %d of %d bytes)", 8+n, FileHeaderSize)
	}
	h := Header{
		Version:    int(binary.LittleEndian.Uint16(b[8:])),
		HeaderSize: int(binary.LittleEndian.Uint16(b[10:])),
		OSThread:   binary.LittleEndian.Uint32(b[12:]),
		PID:        binary.LittleEndian.Uint32(b[16:]),
		Tick0:      binary.LittleEndian.Uint64(b[24:]),
	}
	if h.Version == 0 {
		return nil, r.errf(8, "format version 0")
	}
	if h.Version > Version {
		return nil, r.errf(8, "format version %d is newer than this gopari reads (%d); update gopari", h.Version, Version)
	}
	if h.HeaderSize < FileHeaderSize {
		return nil, r.errf(10, "header size %d, at least %d", h.HeaderSize, FileHeaderSize)
	}
	r.off = FileHeaderSize
	if extra := int64(h.HeaderSize - FileHeaderSize); extra > 0 {
		if size < int64(h.HeaderSize) {
			return nil, r.errf(0, "truncated file header (got %d of %d bytes)", size, h.HeaderSize)
		}
		if _, err := r.r.Discard(int(extra)); err != nil {
			return nil, r.errf(r.off, "reading the header: %v", err)
		}
		r.off += extra
	}
	r.hdr = h
	return r, nil
}

func printable(b []byte) string {
	out := make([]byte, len(b))
	for i, c := range b {
		if c < ' ' || c > '~' {
			c = '.'
		}
		out[i] = c
	}
	return string(out)
}

func (r *Reader) errf(off int64, format string, args ...any) *Error {
	return &Error{File: r.name, Offset: off, Msg: fmt.Sprintf(format, args...)}
}

// Name returns the file name the reader reports.
func (r *Reader) Name() string { return r.name }

// Header returns the file's header.
func (r *Reader) Header() Header { return r.hdr }

// Offset returns the offset of the next unread byte.
func (r *Reader) Offset() int64 { return r.off }

// Blocks returns the number of blocks begun so far.
func (r *Reader) Blocks() int { return r.blocks }

// Close closes the file that Open opened.
func (r *Reader) Close() error {
	if r.closer != nil {
		return r.closer.Close()
	}
	return nil
}

// Next returns the next record. At the end of the stream it returns
// io.EOF; on damage an *Error, after every record of the complete blocks
// before it. Records of unknown types are skipped.
func (r *Reader) Next() (Record, error) {
	if r.nleft > 0 {
		r.nleft--
		return r.pend[r.npend-r.nleft-1], nil
	}
	for {
		if r.err != nil {
			return Record{}, r.err
		}
		if !r.inBlock || r.left == 0 {
			if err := r.block(); err != nil {
				r.err = err
				return Record{}, err
			}
			continue
		}
		rec, ok, err := r.record()
		if err != nil {
			r.err = err
			return Record{}, err
		}
		if ok {
			return rec, nil
		}
	}
}

// block reads the next block header.
func (r *Reader) block() error {
	r.inBlock = false
	start := r.off
	if start == r.size {
		return io.EOF
	}
	var b [BlockHeaderSize]byte
	n, err := io.ReadFull(r.r, b[:])
	if err != nil {
		if start+int64(n) >= r.size || errors.Is(err, io.ErrUnexpectedEOF) {
			return r.errf(start, "truncated block header (got %d of %d bytes)", n, BlockHeaderSize)
		}
		return r.errf(start, "reading: %v", err)
	}
	if string(b[:4]) != BlockMagic {
		return r.errf(start, "no block here (magic %q, want %q)", printable(b[:4]), BlockMagic)
	}
	length := int64(binary.LittleEndian.Uint32(b[4:]))
	if length%WordSize != 0 {
		return r.errf(start+4, "block payload of %d bytes is not a multiple of %d", length, WordSize)
	}
	if length > MaxBlockPayload {
		return r.errf(start+4, "block payload of %d bytes is larger than any writer makes (%d)", length, MaxBlockPayload)
	}
	if length == 0 {
		return r.errf(start, "empty block")
	}
	if have := r.size - start - BlockHeaderSize; have < length {
		return r.errf(start, "truncated block (got %d of %d bytes)", have, length)
	}
	r.off += BlockHeaderSize
	r.left = length
	r.now = binary.LittleEndian.Uint64(b[8:])
	r.inBlock = true
	r.first = true
	r.blocks++
	r.created, r.begun, r.parent = 0, 0, 0
	return nil
}

// record decodes one record of the current block; ok is false for a
// record of an unknown type, which is skipped.
func (r *Reader) record() (rec Record, ok bool, err error) {
	at := r.off
	var w [WordSize]byte
	if _, err := io.ReadFull(r.r, w[:]); err != nil {
		return rec, false, r.errf(at, "file shrank while being read: %v", err)
	}
	r.off += WordSize
	r.left -= WordSize
	h := binary.LittleEndian.Uint64(w[:])
	typ := Type(h & MaxType)
	n := int(h>>6) & 3
	region := uint32(h>>8) & 0xffffff
	delta := h >> 32
	var steps uint64 // what TINY_TASK, CREATE_QUEUED and TASK_END_BEFORE hold in their header above the delta
	switch typ {
	case TinyTask:
		delta, steps = h>>32&0x3ff, h>>42&0x3ff|h>>52<<32
	case CreateQueued, TaskEndBefore:
		delta, steps = h>>32&0xfffff, h>>52
	}
	if typ == 0 {
		return rec, false, r.errf(at, "record of type 0 (zeroed or damaged block)")
	}
	if int64(n)*WordSize > r.left {
		return rec, false, r.errf(at, "%v record with %d payload words runs past the end of its block", typ, n)
	}
	first := r.first
	r.first = false
	if first && typ != Loc {
		return rec, false, r.errf(at, "block starts with a %v record, not LOC", typ)
	}
	rec = Record{Type: typ, Region: region, N: n, Args: [3]uint64{steps}}
	for i := 0; i < n; i++ {
		if _, err := io.ReadFull(r.r, w[:]); err != nil {
			return rec, false, r.errf(r.off, "file shrank while being read: %v", err)
		}
		rec.Args[i] = binary.LittleEndian.Uint64(w[:])
		r.off += WordSize
		r.left -= WordSize
	}
	r.now += delta
	if typ == Time {
		if n < 1 {
			return rec, false, r.errf(at, "TIME record without its timestamp")
		}
		r.now = rec.Args[0]
	}
	rec.Time = r.now
	if !typ.Known() {
		return rec, false, nil
	}
	if s := specs[typ]; n < s.words {
		return rec, false, r.errf(at, "%v record with %d payload words, want %d", typ, n, s.words)
	}
	switch {
	case typ >= ChunkNext && typ <= ChunkNextDynamic:
		return r.split(rec), true, nil
	case typ.short():
		if r.hdr.Version < typ.since() {
			return rec, false, nil // a type that format did not know
		}
		return r.expand(rec), true, nil
	case typ == CreateBegin:
		r.created = rec.Args[0]
	case typ == TaskBegin:
		r.begun, r.parent = rec.Args[0], rec.Args[1]
	}
	return rec, true, nil
}

// expand returns the task record that a short one of version 6 stands
// for, its IDs taken from the block's earlier records; a
// TASK_END_CREATED's CREATE_END is kept for the next call of Next.
func (r *Reader) expand(rec Record) Record {
	switch rec.Type {
	case CreateBeginNext:
		r.created++
		return withIDs(rec, CreateBegin, r.created)
	case CreateQueued: // the running timestamp moves to the end
		r.created++
		r.now = rec.Time + rec.Args[0]
		r.later(Record{Type: CreateEnd, Region: rec.Region, Time: r.now, N: 1, Args: [3]uint64{r.created}})
		return Record{Type: CreateBegin, Region: rec.Region, Time: rec.Time, N: 1, Args: [3]uint64{r.created}}
	case CreateEndLast:
		return withIDs(rec, CreateEnd, r.created)
	case TaskBeginLast:
		r.begun = r.created
		return withIDs(rec, TaskBegin, r.created, r.parent)
	case TaskBeginParent: // the ID is its payload's first word
		r.begun = rec.Args[0]
		return Record{Type: TaskBegin, Region: rec.Region, Time: rec.Time, N: min(rec.N+1, len(rec.Args)), Args: [3]uint64{rec.Args[0], r.parent, rec.Args[1]}}
	case TaskBeginOwn:
		w := rec.Args[0]
		r.begun = r.created&^0xffffffff | w&0xffffffff
		r.parent = r.begun - w>>32
		return Record{Type: TaskBegin, Region: rec.Region, Time: rec.Time, N: 2, Args: [3]uint64{r.begun, r.parent}}
	case TaskEndCreated:
		r.later(Record{Type: CreateEnd, Region: rec.Region, Time: rec.Time, N: 1, Args: [3]uint64{r.created}})
	case UndeferredBegin, UndeferredEnd, UndeferredTask, TinyTask:
		return r.undeferred(rec)
	case TaskEndBefore:
		return Record{Type: TaskEnd, Region: rec.Region, Time: rec.Time, N: 1, Args: [3]uint64{r.begun - rec.Args[0]}}
	}
	return withIDs(rec, TaskEnd, r.begun)
}

// undeferred returns the CREATE_BEGIN of a task run as it was created,
// and keeps its TASK_BEGIN and what else the record says for the next
// calls of Next; the running timestamp moves to the record's last time.
func (r *Reader) undeferred(rec Record) Record {
	r.created++
	r.begun = r.created
	w := rec.Args[0]
	create := Record{Type: CreateBegin, Region: rec.Region, Time: rec.Time, N: 1, Args: [3]uint64{r.created}}
	begin := Record{Type: TaskBegin, Region: rec.Region, Time: rec.Time + w&0xffffffff, N: 2, Args: [3]uint64{r.created, r.parent}}
	r.now = begin.Time
	if rec.Type == UndeferredBegin {
		r.later(begin)
		return create
	}
	end := Record{Type: TaskEnd, Region: rec.Region, Time: begin.Time + w>>32, N: 1, Args: [3]uint64{r.created}}
	r.now = end.Time
	if rec.Type == UndeferredEnd {
		r.later(begin, end)
	} else {
		r.later(begin, end, Record{Type: CreateEnd, Region: rec.Region, Time: end.Time, N: 1, Args: [3]uint64{r.created}})
	}
	return create
}

// withIDs returns rec as a record of type typ whose payload is ids, then
// rec's own payload (its first three words in all).
func withIDs(rec Record, typ Type, ids ...uint64) Record {
	out := Record{Type: typ, Region: rec.Region, Time: rec.Time, N: min(len(ids)+rec.N, len(rec.Args))}
	copy(out.Args[copy(out.Args[:], ids):], rec.Args[:])
	return out
}

// split returns the CHUNK_END that a CHUNK_NEXT record stands for, and
// keeps its CHUNK_BEGIN for the next call of Next.
func (r *Reader) split(rec Record) Record {
	end := Record{Type: ChunkEnd, Region: rec.Region, Time: rec.Time, N: 2, Args: [3]uint64{rec.Args[0] & 0xffffffff, rec.Args[1]}}
	begin := Record{Type: ChunkBegin, Region: rec.Region, Time: rec.Time, N: 2, Args: [3]uint64{rec.Args[0] >> 32, rec.Args[2]}}
	if flag := uint64(rec.Type - ChunkNext); flag > 0 {
		begin.N, begin.Args[2] = 3, flag
	}
	r.later(begin)
	return end
}

// later keeps recs to be returned by the next calls of Next, in order.
func (r *Reader) later(recs ...Record) {
	r.npend = copy(r.pend[:], recs)
	r.nleft = r.npend
}
