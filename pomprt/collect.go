package main

/*
#include "rt.h"
*/
import "C"

import (
	"sort"
	"time"
	"unsafe"

	"gopari/internal/profile"
)

// kindNames and flagNames, the JSON names of the region kinds and
// flags, are generated from internal/constructs's list (kinds_gen.go).

// clock converts ticks to nanoseconds.
type clock struct {
	nsPerTick float64
	name      string
}

// calibrate measures the tick rate over the whole run, between the pairs
// of readings of both clocks at its start and now (pomp_clock_pair, each
// within some tens of nanoseconds even on a loaded machine), so 2 ms give
// the rate to about 2e-5; a shorter run waits for the rest.
func calibrate() clock {
	if C.pomp_g.use_tsc == 0 {
		return clock{1, "monotonic"}
	}
	t0, n0 := uint64(C.pomp_g.tick0), uint64(C.pomp_g.ns0)
	if d := time.Duration(uint64(C.pomp_ns()) - n0); d < 2*time.Millisecond {
		time.Sleep(2*time.Millisecond - d)
	}
	var tick, ns C.uint64_t
	C.pomp_clock_pair(&tick, &ns)
	t1, n1 := uint64(tick), uint64(ns)
	if t1 <= t0 || n1 <= n0 {
		return clock{1, "tsc"}
	}
	return clock{float64(n1-n0) / float64(t1-t0), "tsc"}
}

func (c clock) ns(ticks C.uint64_t) uint64 { return uint64(float64(ticks)*c.nsPerTick + 0.5) }

// collect reads the runtime's C state g — this process's pomp_g, or a
// forked child's read from its snapshot — into a profile of wallNs
// nanoseconds. The program's other threads may still run; what they
// change meanwhile is not seen.
func collect(g *C.pomp_rt, ck clock, wallNs uint64) *profile.Profile {
	p := &profile.Profile{
		Format:  profile.Format,
		Version: profile.Version,
		Clock: profile.Clock{Name: ck.name, NsPerTick: ck.nsPerTick, Tick0: uint64(g.tick0), Ns0: uint64(g.ns0),
			Realtime0Ns: uint64(g.realtime0)},
		WallNs: wallNs,
	}
	p.TaskSampling = &profile.TaskSampling{Exact: C.SAMPLE_EXACT, Every: C.SAMPLE_EVERY}
	if g.sampling == 0 {
		p.TaskSampling = &profile.TaskSampling{Every: 1} // GOPARI_SAMPLING=off, or call paths by instrumentation
	}
	C.pthread_mutex_lock(&g.mu)
	defer C.pthread_mutex_unlock(&g.mu)

	p.Regions = collectRegions(g)
	C.pomp_settle_closes(g.locs, g.nlocs)
	locs := unsafe.Slice(g.locs, int(g.nlocs))
	p.Threads = collectThreads(locs, ck)
	edges := collectStats(p, locs, ck)
	for k, c := range edges {
		p.Tree.Edges = append(p.Tree.Edges, profile.Edge{Parent: k[0], Child: k[1], Count: c})
	}
	sort.Slice(p.Tree.Edges, func(i, j int) bool {
		a, b := p.Tree.Edges[i], p.Tree.Edges[j]
		if a.Parent != b.Parent {
			return a.Parent < b.Parent
		}
		return a.Child < b.Child
	})
	for _, t := range p.Tasks {
		if t.MaxDepth > p.Tree.MaxDepth {
			p.Tree.MaxDepth = t.MaxDepth
		}
	}
	for t := g.threads; t != nil; t = t.next {
		p.OSThreads++
		p.UnmatchedEvents += uint64(t.unmatched)
	}
	return p
}

// collectRegions reads the region table.
func collectRegions(g *C.pomp_rt) []profile.Region {
	n := int(g.nregions)
	regions := unsafe.Slice(g.regions, n+1)
	out := make([]profile.Region, 0, n)
	for id := 1; id <= n; id++ {
		r := regions[id]
		reg := profile.Region{
			ID:        id,
			Kind:      kindNames[int(r.kind)],
			Name:      C.GoString(r.name),
			File:      C.GoString(r.file),
			BeginLine: int(r.begin_line),
			EndLine:   int(r.end_line),
			Clauses:   C.GoString(r.clauses),
		}
		if r.sub_name != nil {
			reg.SubName = C.GoString(r.sub_name)
		}
		for i, f := range flagNames {
			if r.flags&(1<<i) != 0 {
				reg.Flags = append(reg.Flags, f)
			}
		}
		out = append(out, reg)
	}
	return out
}

// collectThreads reads the locations of the team tree, with their paths.
func collectThreads(locs []*C.pomp_loc, ck clock) []profile.Thread {
	paths := make([]string, len(locs))
	var pathOf func(i int) string
	pathOf = func(i int) string {
		if paths[i] != "" {
			return paths[i]
		}
		l := locs[i]
		if l.level == 0 {
			paths[i] = itoa(int(l.num))
		} else {
			paths[i] = pathOf(int(l.parent)) + "." + itoa(int(l.num))
		}
		return paths[i]
	}
	out := make([]profile.Thread, 0, len(locs))
	for i, l := range locs {
		out = append(out, profile.Thread{
			Index:         i,
			Path:          pathOf(i),
			Level:         int(l.level),
			OSThread:      int(l.os_thread),
			ImplicitTasks: uint64(l.implicit_tasks),
			InitialNs:     ck.ns(l.initial_own),
		})
	}
	return out
}

// collectStats reads the statistics of every region at every location
// into p's stats and tasks, and returns the creation tree's edges.
func collectStats(p *profile.Profile, locs []*C.pomp_loc, ck clock) map[[2]int]uint64 {
	n := len(p.Regions)
	tasks := make(map[int]*profile.TaskStats)
	edges := make(map[[2]int]uint64)
	for li, l := range locs {
		stats := unsafe.Slice(l.stat, int(l.nstat))
		for id := 1; id <= n && id < len(stats); id++ {
			s := &stats[id]
			if !used(s) {
				continue
			}
			e := profile.Stat{Region: id, Thread: li}
			e.Construct = phase(ck, s.ph[C.PH_CONSTRUCT])
			e.Body = phase(ck, s.ph[C.PH_BODY])
			e.Barrier = phase(ck, s.ph[C.PH_BARRIER])
			e.Wait = phase(ck, s.ph[C.PH_WAIT])
			if s.lock_acquired > 0 {
				e.LockAcquired = uint64(s.lock_acquired)
				e.LockWaitNs = ck.ns(s.lock_wait)
			}
			e.Messages, e.Bytes = uint64(s.mpi_messages), uint64(s.mpi_bytes)
			// A location may only end tasks that began elsewhere: an
			// untied task that moved at a scheduling point ends where it
			// finished, with its execution timed there.
			if s.created > 0 || s.executed > 0 || s.exec_timed > 0 || s.create_timed > 0 {
				e.TasksCreated, e.TasksExecuted, e.Suspensions = uint64(s.created), uint64(s.executed), uint64(s.suspensions)
				t := tasks[id]
				if t == nil {
					t = &profile.TaskStats{Region: id}
					tasks[id] = t
				}
				addTask(ck, t, s)
				if s.nedges > 0 {
					for _, e := range unsafe.Slice(s.edges, int(s.nedges)) {
						edges[[2]int{int(e.parent), id}] += uint64(e.count)
					}
				}
			} else if s.suspensions > 0 {
				e.Suspensions = uint64(s.suspensions)
			}
			p.Stats = append(p.Stats, e)
		}
	}
	for _, t := range tasks {
		p.Tasks = append(p.Tasks, *t)
	}
	sort.Slice(p.Tasks, func(i, j int) bool { return p.Tasks[i].Region < p.Tasks[j].Region })
	return edges
}

func used(s *C.pomp_stat) bool {
	for i := 0; i < C.PH_COUNT; i++ {
		if s.ph[i].visits > 0 {
			return true
		}
	}
	return s.created > 0 || s.executed > 0 || s.lock_acquired > 0 || s.suspensions > 0
}

func phase(ck clock, ph C.pomp_phase) *profile.Phase {
	if ph.visits == 0 {
		return nil
	}
	return &profile.Phase{Visits: uint64(ph.visits), Timed: uint64(ph.timed), InclNs: ck.ns(ph.incl), ExclNs: ck.ns(ph.excl),
		TimedSampled: uint64(ph.timed_p), InclSampledNs: ck.ns(ph.incl_p), ExclSampledNs: ck.ns(ph.excl_p)}
}

func addTask(ck clock, t *profile.TaskStats, s *C.pomp_stat) {
	t.Created += uint64(s.created)
	t.Executed += uint64(s.executed)
	t.Undeferred += uint64(s.undeferred)
	t.Suspensions += uint64(s.suspensions)
	if s.create_timed > 0 {
		t.Create.Merge(uint64(s.create_timed), ck.ns(s.create_sum), ck.ns(s.create_min), ck.ns(s.create_max))
		t.Create.MergeSampled(uint64(s.create_timed_p), ck.ns(s.create_sum_p))
	}
	if s.exec_timed > 0 {
		t.Exec.Merge(uint64(s.exec_timed), ck.ns(s.exec_sum), ck.ns(s.exec_min), ck.ns(s.exec_max))
		t.Exec.MergeSampled(uint64(s.exec_timed_p), ck.ns(s.exec_sum_p))
	}
	t.Iterations += uint64(s.iterations)
	if int(s.max_depth) > t.MaxDepth {
		t.MaxDepth = int(s.max_depth)
	}
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b [20]byte
	n := len(b)
	for i > 0 {
		n--
		b[n] = byte('0' + i%10)
		i /= 10
	}
	return string(b[n:])
}

// recordedIDs returns the task IDs kept in POMP_MODE_RECORD.
func recordedIDs(g *C.pomp_rt) [][]uint64 {
	var out [][]uint64
	for t := g.threads; t != nil; t = t.next {
		if t.nids > 0 {
			out = append(out, unsafe.Slice((*uint64)(unsafe.Pointer(t.ids)), int(t.nids)))
		}
	}
	return out
}
