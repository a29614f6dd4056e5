package profile

import "testing"

func TestFrameName(t *testing.T) {
	par := &Region{Kind: "parallel", Name: "parallel for", File: "a.c", BeginLine: 3, Flags: []string{"combined"}}
	loop := &Region{Kind: "for", Name: "parallel for", File: "a.c", BeginLine: 3, Flags: []string{"combined"}}
	tl := &Region{Kind: "taskloop", Name: "taskloop", File: "a.c", BeginLine: 9}
	crit := &Region{Kind: "critical", Name: "critical", SubName: "io", File: "a.c", BeginLine: 5}
	for _, c := range []struct {
		r     *Region
		frame string
		want  string
	}{
		{par, "fork", "!$omp parallel @a.c:3"},
		{par, "implicit", "!$omp parallel @a.c:3"},
		{par, "barrier", "!$omp implicit barrier @a.c:3"},
		{loop, "construct", "!$omp for @a.c:3"},
		{tl, "task", "!$omp taskloop task @a.c:9"},
		{&Region{Kind: "task", Name: "task", File: "a.c", BeginLine: 15}, "task", "!$omp task @a.c:15"},
		{&Region{Kind: "taskgroup", Name: "taskgroup", File: "a.c", BeginLine: 2}, "wait", "!$omp taskgroup @a.c:2 (wait)"},
		{crit, "body", "!$omp critical (io) @a.c:5 (body)"},
		{&Region{Kind: "user", Name: "user", SubName: "solve", File: "a.c", BeginLine: 1}, "construct", "solve"},
		{&Region{Kind: "mpi", Name: "MPI_Send", File: "MPI"}, "construct", "MPI_Send"},
	} {
		if got := c.r.FrameName(c.frame); got != c.want {
			t.Errorf("%s %s: got %q, want %q", c.r.Kind, c.frame, got, c.want)
		}
	}
}
