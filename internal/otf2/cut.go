//go:build otf2

package otf2

/*
#include <otf2/otf2.h>
*/
import "C"

import (
	"errors"
	"math"

	"gopari/internal/timeline"
)

// errDone stops a part's replay at the window's end.
var errDone = errors.New("past the window")

// cut sets up the part's cut: the locations kept, the window in ticks.
// The window's times are nanoseconds on the archive's time line (since
// the run's start; a job's since its first rank's), off the part's own.
func (p *part) cut(opt Options, offNs float64) {
	p.on = make([]bool, len(p.r.Locs))
	for i, l := range p.r.Locs {
		p.on[i] = opt.Threads == nil || opt.Threads[l.Path]
	}
	p.fromT, p.toT = 0, math.MaxUint64
	if !opt.Window {
		return
	}
	clk := p.exp.Clock
	tick := func(ns float64) uint64 {
		if math.IsInf(ns, 1) || clk.NsPerTick <= 0 {
			return math.MaxUint64
		}
		return clk.Tick0 + uint64(max(0, (ns-offNs)/clk.NsPerTick))
	}
	p.fromT, p.toT = tick(opt.From), tick(opt.To)
	if opt.From <= offNs {
		p.fromT = 0 // from the run's start: nothing is before
	}
}

// keep reports whether records of location loc are written now: it is
// kept, and the replay is inside the window.
func (p *part) keep(loc int) bool { return p.in && loc >= 0 && loc < len(p.on) && p.on[loc] }

// clip returns tick t within the window.
func (p *part) clip(t uint64) uint64 { return min(max(t, p.fromT), p.toT) }

// window opens the window at the first event inside it, writing there
// what is open on each location kept (reopen), and closes it at the
// first event past it (closeAt); it reports false past the window.
func (p *part) window(t uint64) bool {
	if !p.in && !p.done && t >= p.fromT {
		p.in = true
		p.reopen()
	}
	if t > p.toT && !p.done {
		if p.in {
			to := p.toT
			p.closeAt(&to)
		}
		p.in, p.done = false, true
	}
	return !p.done
}

// reopen writes, at the window's start, what closeOpen would end there:
// for each task on an OS thread's stack, outermost first, its team's
// begin and its region (an implicit task), or a switch to it and its
// region (an explicit task), then the regions it has open. The teams
// forked before the window get their fork at its start when they join.
func (p *part) reopen() {
	if p.fromT == 0 {
		return
	}
	stacks, _ := p.r.Unfinished()
	at := p.fromT
	for _, st := range stacks {
		for _, tk := range st {
			loc := tk.Loc
			if loc < 0 {
				continue
			}
			switch tk.Kind {
			case timeline.Explicit, timeline.Taskloop:
				p.taskSwitch(loc, at, tk)
				p.enter(loc, at, p.region(tk.Region, kindTask))
			case timeline.Implicit:
				kind := uint8(kindImplicit)
				if tk.Ended {
					kind = kindClosing
				}
				p.teamBegin(loc, at)
				p.enter(loc, at, p.region(tk.Region, kind))
			}
			for _, f := range tk.Open {
				if f.Kind != timeline.FrameFork {
					p.enter(loc, at, p.frameRegion(f))
				}
			}
		}
	}
}

// teamBegin writes that location loc begins its part in its team.
func (p *part) teamBegin(loc int, t uint64) {
	if p.keep(loc) {
		p.x.rec("THREAD_TEAM_BEGIN", C.OTF2_EvtWriter_ThreadTeamBegin(p.writer(loc), nil, p.at(loc, t), p.comm(p.teamOf(loc))))
	}
}
