package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopari/internal/job/jobtest"
)

// TestJobAtScale is part of issue 28's acceptance: a synthetic job of
// 4,096 ranks, alike but three planted outliers (a slow rank, one that
// waits in MPI, a fast one), merged by gopari report. The text report
// stays under 100 lines and names the three; --ranks all lists every
// rank; the HTML page stays under 1 MB and names them too.
func TestJobAtScale(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "job")
	planted := map[int]jobtest.Rank{17: {Scale: 3}, 2048: {MPINs: 5_000_000}, 4095: {Scale: 0.25}}
	if err := jobtest.Write(dir, 4096, planted); err != nil {
		t.Fatal(err)
	}
	gopari := func(args ...string) string {
		t.Helper()
		var stdout, stderr bytes.Buffer
		if code := run(append([]string{"gopari"}, args...), strings.NewReader(""), &stdout, &stderr); code != 0 {
			t.Fatalf("gopari %s: exit %d\n%s", strings.Join(args, " "), code, stderr.String())
		}
		return stdout.String()
	}
	names := []string{"rank 17 (rank-00017): wall 6.100 ms", "rank 2048 (rank-02048): wall 7.000 ms (median 2.100), MPI 5.000 ms",
		"rank 4095 (rank-04095): wall 0.600 ms"}
	out := gopari("report", dir)
	if n := strings.Count(out, "\n"); n >= 100 {
		t.Errorf("the report of 4,096 ranks has %d lines, want under 100:\n%s", n, out)
	}
	for _, want := range names {
		if !strings.Contains(out, want) {
			t.Errorf("the report does not name %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "rank 100 ") || !strings.Contains(out, "  wall ms  0.600  2.100   2.100  2.100  7.000         3") {
		t.Errorf("the report lists ranks, or not the distribution of wall times:\n%s", out)
	}
	if all := gopari("report", "--ranks", "all", dir); strings.Count(all, "\n") < 4096 {
		t.Errorf("--ranks all: %d lines, want a row per rank", strings.Count(all, "\n"))
	}

	page := filepath.Join(t.TempDir(), "job.html")
	gopari("report", "--html", page, dir)
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) >= 1<<20 {
		t.Errorf("the page of 4,096 ranks is %d bytes, want under 1 MB", len(b))
	}
	t.Logf("page: %d bytes", len(b))
	for _, want := range []string{"<b>rank 17</b> (rank-00017): wall 6.1 ms", "<b>rank 2048</b> (rank-02048)", "<b>rank 4095</b> (rank-04095)", `id="rank-dists"`} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("the page does not hold %q", want)
		}
	}
	if bytes.Contains(b, []byte(`id="rank-table"`)) {
		t.Error("the page lists the ranks one by one")
	}
}
