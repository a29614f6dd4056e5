package rewrite

import (
	"strconv"
	"strings"
	"testing"
)

// TestKeyOrder checks the order the edit keys promise at one offset, for
// nesting depths up to maxDepth: closing code innermost first, then
// opening code outermost first, then replacements; a wrapper between a
// construct and its children sits between their keys.
func TestKeyOrder(t *testing.T) {
	depths := []int{0, 1, 2, 3, 999, 1000, 1001, maxDepth/2 - 1, maxDepth - 1}
	for _, d := range depths {
		e := d + 1 // a child of d
		chain := []struct {
			name string
			key  int
		}{
			{"closeKey(child)", closeKey(e)},
			{"innerCloseKey(d)", innerCloseKey(d)},
			{"closeKey(d)", closeKey(d)},
			{"openKey(d)", openKey(d)},
			{"innerOpenKey(d)", innerOpenKey(d)},
			{"openKey(child)", openKey(e)},
			{"replaceKey", replaceKey},
		}
		for i := 1; i < len(chain); i++ {
			if chain[i-1].key >= chain[i].key {
				t.Errorf("depth %d: %s = %d is not below %s = %d", d, chain[i-1].name, chain[i-1].key, chain[i].name, chain[i].key)
			}
		}
	}
}

// TestKeyRange checks that keys of every allowed depth fit the edit's
// sort word, and that a key beyond maxDepth is refused.
func TestKeyRange(t *testing.T) {
	var l editList
	for _, k := range []int{innerCloseKey(maxDepth), closeKey(0), openKey(0), innerOpenKey(maxDepth), replaceKey} {
		l.insert(7, seg{}, k)
	}
	l.sort()
	for i, e := range l.edits {
		if e.start != 7 || e.order>>(keyBits+1) != 7 {
			t.Errorf("edit %d: offset %d, sort word %#x: the key spilled into the offset", i, e.start, e.order)
		}
	}
	defer func() {
		r := recover()
		if r == nil || !strings.Contains(r.(string), "nesting deeper") {
			t.Errorf("a key for depth maxDepth+1 was accepted (recovered %v)", r)
		}
	}()
	l.insert(7, seg{}, innerCloseKey(maxDepth+1))
}

// TestItoa checks the short path of itoa against strconv.
func TestItoa(t *testing.T) {
	for _, i := range []int{0, 7, 9, 10, 11, 99, 100, 101, 999, 1000, 12345, 654321, 999_999, 1_000_000, 99_999_999, 100_000_000, 999_999_999, 1_000_000_000, -1, -120, 1 << 40} {
		if got, want := string(itoa([]byte("x"), i)), "x"+strconv.Itoa(i); got != want {
			t.Errorf("itoa(%d) = %q, want %q", i, got, want)
		}
	}
}
