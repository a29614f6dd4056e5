package par

import (
	"strings"
	"sync/atomic"
	"testing"
)

// TestDo: every chunk runs once, whichever goroutine runs it.
func TestDo(t *testing.T) {
	t.Parallel()
	for _, n := range []int{0, 1, 2, 7, 100} {
		counts := make([]atomic.Int32, n)
		Do(n, func(i int) { counts[i].Add(1) })
		for i := range counts {
			if c := counts[i].Load(); c != 1 {
				t.Fatalf("n=%d: chunk %d ran %d times", n, i, c)
			}
		}
	}
}

// TestPanic: a chunk's panic reaches the caller of Wait, after every
// other chunk is done.
func TestPanic(t *testing.T) {
	t.Parallel()
	for _, bad := range []int{0, 5, 9} {
		var ran atomic.Int32
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(r.(string), "chunk") {
					t.Fatalf("bad chunk %d: recovered %v", bad, r)
				}
				if ran.Load() != 9 {
					t.Fatalf("bad chunk %d: %d other chunks ran, want 9", bad, ran.Load())
				}
			}()
			Do(10, func(i int) {
				if i == bad {
					panic("chunk")
				}
				ran.Add(1)
			})
		}()
	}
}

// TestStartWait: the caller works on something else while the helper
// starts, then joins in.
func TestStartWait(t *testing.T) {
	t.Parallel()
	var sum atomic.Int64
	g := Start(50, func(i int) { sum.Add(int64(i)) })
	other := 0
	for i := 0; i < 1000; i++ {
		other += i
	}
	g.Wait()
	if sum.Load() != 49*50/2 || other != 999*1000/2 {
		t.Fatalf("sum %d", sum.Load())
	}
}

// TestUseful: SetUseful decides what Useful answers.
func TestUseful(t *testing.T) {
	SetUseful(false)
	if Useful() {
		t.Fatal("Useful after SetUseful(false)")
	}
	SetUseful(true)
	if !Useful() {
		t.Fatal("not Useful after SetUseful(true)")
	}
}
