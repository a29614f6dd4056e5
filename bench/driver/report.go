package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"gopari/internal/events/evtest"
	"gopari/internal/experiment"
)

// reportPage measures gopari report --html on synthetic tiny-task
// traces (evtest.Tiny: about 4 records per task) of 10^6 and 10^7
// tasks: the size of the page, which must stay under 20 MB however long
// the trace, and the time and peak memory it takes to write (one run
// each: a run replays the stream three times, for the timeline and the
// grain graph's two passes).
func (b *bench) reportPage(w io.Writer) {
	tasks := []int{1_000_000, 10_000_000}
	if *quick {
		tasks = []int{100_000, 1_000_000}
	}
	fmt.Fprintf(w, "## gopari report --html on synthetic tiny-task traces\n\n")
	fmt.Fprintf(w, "| tasks | records | stream | page | time | peak RSS |\n|---:|---:|---:|---:|---:|---:|\n")
	var last int64
	for _, n := range tasks {
		dir := filepath.Join(b.work, fmt.Sprintf("page-%d", n))
		s, err := evtest.Tiny(dir, n, 2, 20)
		if err != nil {
			fatalf("making a stream: %v", err)
		}
		stream := dirSize(filepath.Join(dir, experiment.EventsDir))
		page := filepath.Join(b.work, "page.html")
		x := b.peakCommand(b.gopari, "report", "--html", page, dir)
		var stderr bytes.Buffer
		x.Stderr = &stderr
		t0 := time.Now()
		if err := x.Run(); err != nil {
			fatalf("gopari report --html: %v\n%s", err, stderr.Bytes())
		}
		secs := time.Since(t0).Seconds()
		rss := peakRSS(stderr.Bytes())
		st, err := os.Stat(page)
		if err != nil {
			fatalf("%v", err)
		}
		last = st.Size()
		fmt.Fprintf(w, "| %d | %d | %.0f MiB | %.2f MiB | %.1f s | %.1f MiB |\n", n, s.Records(), float64(stream)/(1<<20),
			float64(last)/(1<<20), secs, rss)
		os.RemoveAll(dir)
		os.Remove(page)
	}
	fmt.Fprintln(w)
	b.check(fmt.Sprintf("gopari report --html, page of a %d-task trace", tasks[len(tasks)-1]), "<= 20 MB",
		fmt.Sprintf("%.2f MB", float64(last)/1e6), last <= 20e6, "")
}

// dirSize returns the bytes of the files in dir.
func dirSize(dir string) int64 {
	var n int64
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if info, err := e.Info(); err == nil {
			n += info.Size()
		}
	}
	return n
}
