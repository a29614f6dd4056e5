package parser

import "sort"

// spans is a set of open intervals (from, to) of offsets or token
// indices, kept as the sorted, disjoint union of the intervals added, so
// that whether a point lies in any of them takes a binary search instead
// of a scan of them all.
type spans [][2]int

// newSpans returns the union of the open intervals rs, which it sorts.
func newSpans(rs [][2]int) spans {
	sort.Slice(rs, func(i, j int) bool { return rs[i][0] < rs[j][0] })
	out := spans(rs[:0]) // merged in place: out never passes the interval read
	for _, r := range rs {
		if r[1] <= r[0]+1 {
			continue // holds no point
		}
		if n := len(out); n > 0 && r[0] < out[n-1][1] {
			out[n-1][1] = max(out[n-1][1], r[1])
			continue
		}
		out = append(out, r)
	}
	return out
}

// contains reports whether x lies strictly inside one of the intervals.
// It adds the intervals it looked at to *work, for the test that the
// passes take linear time.
func (s spans) contains(x int, work *int) bool {
	i := sort.Search(len(s), func(i int) bool { *work++; return s[i][0] >= x }) - 1
	return i >= 0 && x < s[i][1]
}
