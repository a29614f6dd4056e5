package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"gopari/internal/events/evtest"
)

// exports measures the offline side of traces and grains: gopari trace
// (Chrome JSON, Perfetto and OTF2) and gopari grains on synthetic
// tiny-task streams of 10^6 and 10^7 records, for throughput, output size
// and peak memory. Each command runs three times per size, sizes
// alternating; figures are medians.
func (b *bench) exports(w io.Writer) {
	tasks := []int{250_000, 2_500_000} // about 4 records per task
	if *quick {
		tasks = []int{25_000, 250_000}
	}
	dirs := make([]string, len(tasks))
	records := make([]int64, len(tasks))
	for i, n := range tasks {
		dirs[i] = filepath.Join(b.work, fmt.Sprintf("stream-%d", n))
		s, err := evtest.Tiny(dirs[i], n, 2, 20)
		if err != nil {
			fatalf("making a stream: %v", err)
		}
		records[i] = s.Records()
	}
	type cmd struct {
		name string
		args func(out string) []string
		only bool // needs libotf2
	}
	cmds := []cmd{
		{"trace --chrome", func(out string) []string { return []string{"trace", "--force", "--chrome", out + ".json"} }, false},
		{"trace --perfetto", func(out string) []string { return []string{"trace", "--perfetto", out + ".pftrace"} }, false},
		{"trace --otf2", func(out string) []string { return []string{"trace", "--otf2", out + ".otf2"} }, true},
		{"grains --csv", func(out string) []string { return []string{"grains", "--csv", out + ".csv"} }, false},
	}
	fmt.Fprintf(w, "## Exports: gopari trace and gopari grains on synthetic tiny-task streams\n\n")
	fmt.Fprintf(w, "| command | records | time (median of 3) | records/s | output | peak RSS |\n|---|---:|---:|---:|---:|---:|\n")
	for _, c := range cmds {
		secs := make([][]float64, len(tasks))
		kib := make([][]float64, len(tasks))
		size := make([]int64, len(tasks))
		skipped := false
		for r := 0; r < 3 && !skipped; r++ {
			for i, dir := range dirs {
				out := filepath.Join(b.work, "export")
				os.RemoveAll(out + ".json")
				os.RemoveAll(out + ".otf2")
				os.RemoveAll(out + ".csv")
				os.RemoveAll(out + ".pftrace")
				x := b.peakCommand(append([]string{b.gopari}, append(c.args(out), dir)...)...)
				var stderr bytes.Buffer
				x.Stderr = &stderr
				t0 := time.Now()
				if err := x.Run(); err != nil {
					if c.only && bytes.Contains(stderr.Bytes(), []byte("without OTF2 support")) {
						skipped = true
						break
					}
					fatalf("gopari %v: %v\n%s", c.args(out), err, stderr.Bytes())
				}
				secs[i] = append(secs[i], time.Since(t0).Seconds())
				kib[i] = append(kib[i], peakRSS(stderr.Bytes())*1024)
				size[i] = outputSize(out)
			}
		}
		if skipped {
			fmt.Fprintf(w, "| %s | | (gopari built without libotf2) | | | |\n", c.name)
			continue
		}
		for i := range tasks {
			s := median(secs[i])
			fmt.Fprintf(w, "| %s | %d | %.2f s | %.2fM | %.1f MB | %.1f MiB |\n", c.name, records[i], s, float64(records[i])/s/1e6,
				float64(size[i])/1e6, median(kib[i])/1024)
		}
		small, large := median(kib[0]), median(kib[len(kib)-1])
		b.check(fmt.Sprintf("gopari %s, peak memory, %d vs %d records", c.name, records[len(records)-1], records[0]),
			"flat (within 20 MiB)", fmt.Sprintf("%+.1f MiB", (large-small)/1024), large-small <= 20*1024, "")
	}
	fmt.Fprintln(w)
}

// outputSize returns the bytes of the export written at out: the file
// or the directory out.EXT.
func outputSize(out string) int64 {
	var n int64
	for _, ext := range []string{".json", ".pftrace", ".otf2", ".csv"} {
		filepath.Walk(out+ext, func(_ string, fi os.FileInfo, err error) error {
			if err == nil && !fi.IsDir() {
				n += fi.Size()
			}
			return nil
		})
	}
	return n
}
