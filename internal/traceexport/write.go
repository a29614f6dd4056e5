package traceexport

import (
	"fmt"
	"io"
	"path/filepath"
	"time"

	"gopari/internal/atomicfile"
	"gopari/internal/chrome"
	"gopari/internal/otf2"
	"gopari/internal/perfetto"
)

// Every is how often a long export reports its progress. Tests lower it.
var Every = 5 * time.Second

// A progress prints, on stderr, how far an export has read the stream:
// a line every Every, from the first Every on, as gopari scale does.
type progress struct {
	w           io.Writer
	what        string
	total       int64
	start, last time.Time
}

func (p *Plan) progress(stderr io.Writer, what string) *progress {
	now := time.Now()
	return &progress{w: stderr, what: what, total: max(p.Through, 1), start: now, last: now}
}

func (pr *progress) update(records int64) {
	now := time.Now()
	if now.Sub(pr.last) < Every {
		return
	}
	pr.last = now
	done := min(float64(records)/float64(pr.total), 1)
	el := now.Sub(pr.start)
	left := ""
	if done > 0 {
		left = fmt.Sprintf(", about %s left", (time.Duration(float64(el)/done) - el).Round(time.Second))
	}
	fmt.Fprintf(pr.w, "gopari trace: %s: %.0f%% of %d records read (elapsed %s%s)\n", pr.what, 100*done, pr.total, el.Round(time.Second), left)
}

// announce prints an output's estimated size before it is written, when
// that is large.
func (p *Plan) announce(stderr io.Writer, what, path string, est int64) {
	if est >= Announce {
		fmt.Fprintf(stderr, "gopari trace: writing %s to %s: about %s from %d of %d records\n", what, path, Size(est), p.Kept, p.Records)
	}
}

// WriteChrome writes the Chrome JSON to out, whole or not at all, unless
// it would be larger than ChromeLimit and force is false. It returns
// what it wrote, in a line for stdout, and the records the runtime
// dropped.
func (p *Plan) WriteChrome(stderr io.Writer, out string, force bool) (string, int64, error) {
	est := p.Estimate("chrome")
	if err := p.Refuse(est); err != nil && !force {
		return "", 0, err
	}
	p.announce(stderr, "the Chrome JSON", out, est)
	start := time.Now()
	opt := p.Opt
	opt.Progress = p.progress(stderr, "chrome").update
	var st chrome.Stats
	err := atomicfile.Write(out, func(w io.Writer) error {
		var err error
		if p.src.Exp != nil {
			st, err = chrome.WriteCut(w, p.src.Exp, opt)
		} else {
			st, err = chrome.WriteJobCut(w, p.src.Job, p.src.Ranks, opt)
		}
		return err
	})
	if err != nil {
		return "", 0, err
	}
	return fmt.Sprintf("wrote %s: %d trace events (%d slices, %d flows%s) from %d stream records in %.2f s",
		out, st.Events, st.Slices, st.Flows, samples(st), st.Records, time.Since(start).Seconds()), st.Timeline.Dropped, nil
}

// samples says how many samples an export wrote, if any.
func samples(st chrome.Stats) string {
	if st.Samples == 0 {
		return ""
	}
	return fmt.Sprintf(", %d samples", st.Samples)
}

// WritePerfetto writes the Perfetto trace to out, whole or not at all.
func (p *Plan) WritePerfetto(stderr io.Writer, out string) (string, int64, error) {
	p.announce(stderr, "the Perfetto trace", out, p.Estimate("perfetto"))
	start := time.Now()
	opt := p.Opt
	opt.Progress = p.progress(stderr, "perfetto").update
	var st chrome.Stats
	err := atomicfile.Write(out, func(w io.Writer) error {
		var err error
		if p.src.Exp != nil {
			st, err = perfetto.Write(w, p.src.Exp, opt)
		} else {
			st, err = perfetto.WriteJob(w, p.src.Ranks, opt)
		}
		return err
	})
	if err != nil {
		return "", 0, err
	}
	return fmt.Sprintf("wrote %s: %d track events (%d slices, %d flows%s) from %d stream records in %.2f s",
		out, st.Events, st.Slices, st.Flows, samples(st), st.Records, time.Since(start).Seconds()), st.Timeline.Dropped, nil
}

// WriteOTF2 writes the OTF2 archive into the new directory dir.
func (p *Plan) WriteOTF2(stderr io.Writer, dir string) (string, int64, error) {
	p.announce(stderr, "the OTF2 archive", dir, p.Estimate("otf2"))
	start := time.Now()
	opt := otf2.Options{Window: p.Opt.Window, From: p.Opt.From, To: p.Opt.To, Threads: p.Opt.Threads,
		Progress: p.progress(stderr, "otf2").update}
	var st otf2.Stats
	var err error
	where := ""
	if p.src.Exp != nil {
		st, err = otf2.WriteWith(dir, p.src.Exp, opt)
	} else {
		st, err = otf2.WriteJobWith(dir, p.src.Job, p.src.Ranks, opt)
		where = fmt.Sprintf(" of %d ranks", len(p.src.Ranks))
	}
	if err != nil {
		return "", 0, err
	}
	var n int64
	for _, v := range st.Records {
		n += v
	}
	if k := st.Records["CALLING_CONTEXT_SAMPLE"]; k > 0 {
		where += fmt.Sprintf(" (%d samples)", k)
	}
	return fmt.Sprintf("wrote %s: %d records on %d locations%s from %d stream records in %.2f s",
		filepath.Join(dir, "traces.otf2"), n, st.Locations, where, st.Timeline.Records, time.Since(start).Seconds()), st.Timeline.Dropped, nil
}
