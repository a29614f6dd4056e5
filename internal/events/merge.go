package events

import (
	"container/heap"
	"io"
)

// A Merger delivers the records of several streams in time order: the
// whole run as one sequence. Records of one stream keep their order;
// records at the same time come in the order of the streams given.
type Merger struct {
	h   mergeHeap
	err error // a stream's damage, returned after the records before it
}

type head struct {
	rec Record
	src int
	r   *Reader
}

type mergeHeap []head

func (h mergeHeap) Len() int { return len(h) }
func (h mergeHeap) Less(i, j int) bool {
	if h[i].rec.Time != h[j].rec.Time {
		return h[i].rec.Time < h[j].rec.Time
	}
	return h[i].src < h[j].src
}
func (h mergeHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *mergeHeap) Push(x any)   { *h = append(*h, x.(head)) }
func (h *mergeHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// NewMerger reads the first record of every stream. Stream i's records
// come back with source i.
func NewMerger(rs []*Reader) (*Merger, error) {
	m := &Merger{}
	for i, r := range rs {
		rec, err := r.Next()
		if err == io.EOF {
			continue
		}
		if err != nil {
			return nil, err
		}
		m.h = append(m.h, head{rec, i, r})
	}
	heap.Init(&m.h)
	return m, nil
}

// Next returns the earliest record left and the index of its stream, or
// io.EOF when all are read.
func (m *Merger) Next() (Record, int, error) {
	if len(m.h) == 0 {
		if m.err != nil {
			return Record{}, 0, m.err
		}
		return Record{}, 0, io.EOF
	}
	top := &m.h[0]
	rec, src := top.rec, top.src
	next, err := top.r.Next()
	switch {
	case err == io.EOF:
		heap.Pop(&m.h)
	case err != nil:
		// Stop at the first damage: the records before it are delivered,
		// then the error.
		heap.Pop(&m.h)
		if m.err == nil {
			m.err = err
		}
		m.h = m.h[:0]
	default:
		top.rec = next
		heap.Fix(&m.h, 0)
	}
	return rec, src, nil
}
