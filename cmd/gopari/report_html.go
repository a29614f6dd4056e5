package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"gopari/internal/atomicfile"
	"gopari/internal/experiment"
	"gopari/internal/html"
	"gopari/internal/job"
	"gopari/internal/model"
	"gopari/internal/profile"
	"gopari/internal/report"
)

// reportHTMLFlags are report's flags for the HTML page.
func reportHTMLFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "html", Usage: "write the report as one self-contained HTML page to `FILE`"},
		&cli.StringFlag{Name: "model", Usage: "with --html: add the scaling models of gopari model --json in `FILE`"},
	}
}

// runReportHTML writes the page for the run or job at path (a directory
// or a profile.json).
func runReportHTML(c *cli.Context, path string) error {
	if c.Bool("json") {
		return usageErr("report: --html and --json exclude each other")
	}
	out := c.String("html")
	in := html.Input{Options: html.Options{AllRanks: c.String("ranks") == "all"}}
	if f := c.String("model"); f != "" {
		ms, err := model.ReadJSON(f)
		if err != nil {
			return failure(err)
		}
		in.Models, in.ModelFile = ms, f
	}
	switch {
	case experiment.IsJob(path) && !c.IsSet("rank"):
		j, err := job.Read(path, experiment.Explain)
		if err != nil {
			return failure(err)
		}
		if len(j.Ranks) == 0 {
			return failure(fmt.Errorf("%s: no rank wrote a profile%s", path, report.JobGaps(j)))
		}
		in.Job, in.Merged = j, job.Merge(j)
	case experiment.IsJob(path):
		j, err := job.Read(path, experiment.Explain)
		if err != nil {
			return failure(err)
		}
		r, err := j.Rank(c.Int("rank"))
		if err != nil {
			return failure(err)
		}
		in.Profile, in.Dir = r.Profile, filepath.Join(path, r.Dir)
	default:
		if c.IsSet("rank") {
			return usageErr("report: --rank needs an MPI job's directory, and %s is not one", path)
		}
		file := path
		if st, err := os.Stat(path); err == nil && st.IsDir() {
			file = experiment.Profile(path)
		}
		p, err := profile.Read(file)
		if err != nil {
			return failure(fmt.Errorf("%s", experiment.Explain(file, err)))
		}
		in.Profile = p
		if p.Events != nil {
			in.Dir = filepath.Dir(file)
		}
	}
	in.StreamDamaged = func(err error) {
		fmt.Fprintf(c.App.ErrWriter, "gopari: warning: %v; the page has no timeline and no grain graph, the rest comes from the profile, which is whole\n", err)
	}
	if err := atomicfile.Write(out, func(w io.Writer) error { return html.Write(w, in) }); err != nil {
		return failure(err)
	}
	size := ""
	if st, err := os.Stat(out); err == nil && st.Mode().IsRegular() {
		size = " (" + sizeText(st.Size()) + ")"
	}
	fmt.Fprintf(c.App.Writer, "wrote %s%s; open it in a browser: file://%s\n", out, size, absPath(out))
	return nil
}

func sizeText(n int64) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.0f KiB", float64(n)/(1<<10))
}

func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}
