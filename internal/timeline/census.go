package timeline

import (
	"io"

	"gopari/internal/events"
)

// A Key is what a Census counts records by: their type and region, and
// for a function's records the function's address.
type Key struct {
	Type   events.Type
	Region uint32
	Addr   uint64
}

// A Census counts the records of a run's stream that a cut keeps, by
// Key, without replaying them: what an export's size is estimated from.
// Times are the records' own (the replay may raise a few to keep a
// location's time monotonic).
type Census struct {
	Records int64 // every record of the stream, TIME records excepted
	Kept    int64 // the records kept
	// Through counts the records up to the cut's end, on every
	// location: what a replay that stops there reads.
	Through int64
	ByKey   map[Key]int64
	// Locs counts the locations with records kept.
	Locs        int
	First, Last uint64 // the first and last time kept, in ticks
	End         uint64 // the time of the last record read
	// Stopped says the census stopped reading at the cut's end: Records
	// and End are then those of the records up to there.
	Stopped bool
}

// Count reads exp's stream file by file and counts the records that keep
// accepts (at location loc, at tick t), and the records up to tick end.
// It reads a file up to its first record past end: a file's times go
// forward (its rare TIME records that set the clock back aside).
func Count(exp *events.Experiment, keep func(loc int, t uint64) bool, end uint64) (*Census, error) {
	rs, err := exp.Open()
	if err != nil {
		return nil, err
	}
	defer func() {
		for _, x := range rs {
			x.Close()
		}
	}()
	c := &Census{ByKey: map[Key]int64{}}
	locs := map[int]bool{}
	// Counts by type and region, for regions below 1<<16; ByKey for the
	// rest (functions by address).
	var byType [events.MaxType + 1][]int64
	for _, x := range rs {
		loc := -1
		for {
			rec, err := x.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, err
			}
			if rec.Type == events.Time {
				continue
			}
			if rec.Time > end {
				c.Stopped = true
				break
			}
			c.Records++
			c.End = max(c.End, rec.Time)
			c.Through++
			if rec.Type == events.Loc {
				loc = int(rec.Args[0])
				continue
			}
			if loc < 0 || !keep(loc, rec.Time) {
				continue
			}
			if f := rec.Type == events.FuncEnter || rec.Type == events.FuncExit; f || rec.Region >= 1<<16 {
				k := Key{Type: rec.Type, Region: rec.Region}
				if f {
					k.Addr = rec.Args[0]
				}
				c.ByKey[k]++
			} else {
				n := byType[rec.Type]
				if int(rec.Region) >= len(n) {
					n = append(n, make([]int64, int(rec.Region)+1-len(n))...)
					byType[rec.Type] = n
				}
				n[rec.Region]++
			}
			if c.Kept == 0 || rec.Time < c.First {
				c.First = rec.Time
			}
			c.Last = max(c.Last, rec.Time)
			c.Kept++
			if !locs[loc] {
				locs[loc] = true
			}
		}
	}
	for typ, n := range byType {
		for region, k := range n {
			if k > 0 {
				c.ByKey[Key{Type: events.Type(typ), Region: uint32(region)}] = k
			}
		}
	}
	c.Locs = len(locs)
	return c, nil
}
