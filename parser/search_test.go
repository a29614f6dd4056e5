package parser

import (
	"math/rand/v2"
	"sort"
	"testing"
)

func TestSearchGallop(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for iter := 0; iter < 2000; iter++ {
		n := r.IntN(40)
		p := &parser{}
		tok := 0
		for i := 0; i < n; i++ {
			tok += 1 + r.IntN(3)
			p.list = append(p.list, &Directive{Tok: tok})
		}
		p.finger = r.IntN(n + 2)
		for q := 0; q < 30; q++ {
			j := r.IntN(tok + 3)
			want := sort.Search(n, func(i int) bool { return p.list[i].Tok >= j })
			if got := p.search(j); got != want {
				t.Fatalf("n %d finger %d j %d: got %d want %d", n, p.finger, j, got, want)
			}
		}
	}
}
