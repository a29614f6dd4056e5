// Package mem asks the kernel for huge pages for large fresh buffers.
//
// gopari reads a file, scans it into tokens and writes the result in a
// fraction of a second, and on virtual machines taking a page fault costs
// several microseconds: for a 200,000-line file, 15,000 faults of 4 KiB
// pages took as long as the rest of the work. Where transparent huge
// pages are available on request (/sys/kernel/mm/transparent_hugepage/
// enabled says madvise or always), one fault brings in 2 MiB.
package mem

import (
	"syscall"
	"unsafe"
)

const huge = 2 << 20

// HugePages advises the kernel to back the 2 MiB-aligned part of b's
// capacity with huge pages. b should be fresh: memory already written is
// not moved. It does nothing for buffers smaller than 4 MiB, and nothing
// where the kernel declines.
func HugePages[T any](b []T) {
	var zero T
	n := uintptr(cap(b)) * unsafe.Sizeof(zero)
	if n < 2*huge {
		return
	}
	start := uintptr(unsafe.Pointer(unsafe.SliceData(b[:cap(b)])))
	a := (start + huge - 1) &^ (huge - 1)
	e := (start + n) &^ (huge - 1)
	if e <= a {
		return
	}
	// The range lies inside b's memory: the conversion back to a pointer
	// stays within one allocation.
	p := unsafe.Add(unsafe.Pointer(unsafe.SliceData(b[:cap(b)])), a-start)
	syscall.Madvise(unsafe.Slice((*byte)(p), e-a), syscall.MADV_HUGEPAGE)
}

// hugeMin is the size from which Huge asks for huge pages: a fault of
// a 4 KiB page costs this guest microseconds, so that 256 of them cost
// more than clearing the part of a huge page the buffer leaves unused.
const hugeMin = 1 << 20

// Huge returns make([]T, 0, n) for a large buffer about to be filled,
// and from hugeMin bytes advises the kernel to back it with huge pages:
// all of it, the 2 MiB pages its ends lie in included, not only the
// 2 MiB-aligned middle that HugePages advises. The part of those two
// pages outside the buffer is other memory of the Go heap, which huge
// pages serve as well as small ones; where the heap already wrote to
// such a page, the kernel keeps its small pages.
func Huge[T any](n int) []T {
	b := make([]T, 0, n)
	var zero T
	size := uintptr(n) * unsafe.Sizeof(zero)
	if size < hugeMin {
		return b
	}
	start := uintptr(unsafe.Pointer(unsafe.SliceData(b[:1])))
	a := start &^ (huge - 1)
	e := (start + size + huge - 1) &^ (huge - 1)
	// Only the kernel reads this range, which may reach past the
	// allocation; Go code never converts it back to a pointer.
	syscall.Syscall(syscall.SYS_MADVISE, a, e-a, syscall.MADV_HUGEPAGE)
	return b
}

// madvPopulateWrite is MADV_POPULATE_WRITE (Linux 5.14): fault the
// range in, writable, now.
const madvPopulateWrite = 23

// prefaultChunk is how much Prefault faults in at a time.
const prefaultChunk = 4 << 20

// Prefault faults in the pages of the first n elements of b's capacity
// on another thread, ahead of the code that fills b: the kernel's work
// of finding and clearing fresh pages, a large part of gopari's time on
// virtual machines, then runs on a second core. It does nothing where
// the kernel cannot.
func Prefault[T any](b []T, n int) {
	var zero T
	size := uintptr(min(n, cap(b))) * unsafe.Sizeof(zero)
	if size < 256<<10 {
		return // a few faults: not worth a goroutine
	}
	p := unsafe.Pointer(unsafe.SliceData(b[:cap(b)]))
	go func() {
		for off := uintptr(0); off < size; off += prefaultChunk {
			n := min(prefaultChunk, size-off)
			// The range lies inside b's memory: the conversion back to a
			// pointer stays within one allocation.
			if syscall.Madvise(unsafe.Slice((*byte)(unsafe.Add(p, off)), n), madvPopulateWrite) != nil {
				return
			}
		}
	}()
}
