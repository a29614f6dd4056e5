package mem

import "testing"

// TestHuge checks that Huge's buffers are those make returns, whatever
// the kernel does with its advice: length 0, the capacity asked, zeroed
// and writable to the end.
func TestHuge(t *testing.T) {
	for _, n := range []int{0, 1, 4096, hugeMin / 12, hugeMin/12 + 1, 3 * huge / 12} {
		b := Huge[[12]byte](n)
		if len(b) != 0 || cap(b) != n {
			t.Fatalf("Huge(%d): len %d cap %d", n, len(b), cap(b))
		}
		b = b[:n]
		for i := range b {
			if b[i] != ([12]byte{}) {
				t.Fatalf("Huge(%d): element %d not zero", n, i)
			}
			b[i][11] = 1
		}
	}
}
