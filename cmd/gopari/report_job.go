package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"gopari/internal/experiment"
	"gopari/internal/job"
	"gopari/internal/report"
)

// runJobReport reports on the directory of an MPI job: the ranks merged,
// or with --rank one rank alone.
func runJobReport(c *cli.Context, dir string) error {
	j, err := job.Read(dir, experiment.Explain)
	if err != nil {
		return failure(err)
	}
	if c.IsSet("rank") {
		r, err := j.Rank(c.Int("rank"))
		if err != nil {
			return failure(err)
		}
		path := experiment.Profile(filepath.Join(dir, r.Dir))
		if c.Bool("json") {
			b, err := os.ReadFile(path)
			if err != nil {
				return failure(err)
			}
			return writeOut(c, func(w io.Writer) error { _, err := w.Write(b); return err })
		}
		return writeOut(c, func(w io.Writer) error {
			fmt.Fprintf(w, "rank %d of job %s (%s)\n", r.Rank, j.Job, dir)
			report.Write(w, r.Profile, c.Int("top"))
			report.StreamNote(w, filepath.Dir(path))
			return nil
		})
	}
	if len(j.Ranks) == 0 {
		return failure(fmt.Errorf("%s: no rank wrote a profile%s", dir, report.JobGaps(j)))
	}
	m := job.Merge(j)
	if c.Bool("json") {
		return writeOut(c, func(w io.Writer) error {
			enc := json.NewEncoder(w)
			enc.SetIndent("", " ")
			return enc.Encode(m)
		})
	}
	return writeOut(c, func(w io.Writer) error {
		report.WriteJob(w, j, m, c.Int("top"), c.String("ranks") == "all")
		return nil
	})
}
