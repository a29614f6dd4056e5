package profile

// A ThreadCount counts a run's threads, the one way every view counts them
// (gopari report's header, the HTML page, the ranks of an MPI job).
//
//   - Members: the team members, the places of the team tree that ran
//     a parallel region's implicit tasks (0.0, 0.1, and in nested teams
//     0.0.1, ...). At OMP_NUM_THREADS=2 with one team there are 2; with
//     teams of 2 nested in a team of 2, 6.
//   - Initial: the initial threads (level 0, such as 0), which run the
//     program's code outside every parallel region. An initial thread
//     that forks a team is also its member 0 (0 and 0.0 are one OS
//     thread), so places of the team tree, Members + Initial, count it
//     twice: they are no count of threads.
//   - OS: the OS threads all of these ran on; one may act as several
//     places.
//
// POP's metrics count yet another set, their workers: the members of
// the teams the main initial thread forked (internal/pop).
type ThreadCount struct {
	Members int
	Initial int
	OS      int
}

// ThreadCount counts the run's threads.
func (p *Profile) ThreadCount() ThreadCount {
	c := ThreadCount{OS: p.OSThreads}
	for _, t := range p.Threads {
		if t.Level > 0 {
			c.Members++
		} else {
			c.Initial++
		}
	}
	return c
}

// Threads is what a view shows as the threads of a run: its team
// members, or, in a run that forked no team, its initial threads, which
// then ran everything.
func (c ThreadCount) Threads() int {
	if c.Members > 0 {
		return c.Members
	}
	return c.Initial
}
