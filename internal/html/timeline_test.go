package html

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gopari/internal/events"
	"gopari/internal/runtest"
)

// TestTimelineClosingBarrier checks the timeline of tasks that the team
// runs in a parallel region's closing barrier (issue 23): on each
// thread's track the time coloured as the task region is the time the
// program measured its tasks running there, and its wait in the barrier
// is the rest of the region.
func TestTimelineClosingBarrier(t *testing.T) {
	runtest.Tools(t)
	work := t.TempDir()
	src := filepath.Join("..", "..", "pomprt", "e2e", "testdata", "closetasks.c")
	exe := runtest.Build(t, work, "gcc", "closetasks", src)
	exp := filepath.Join(work, "exp")
	cmd := exec.Command(exe, "nowait")
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "GOPARI_EXPERIMENT_DIRECTORY="+exp, "GOPARI_MODE=trace", "OMP_NUM_THREADS=2", "OMP_WAIT_POLICY=passive")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v\n%s", err, out.Bytes())
	}
	busy := map[string]float64{}
	var region float64
	for _, l := range strings.Split(out.String(), "\n") {
		var k, ran int
		var b float64
		if n, _ := fmt.Sscanf(l, "thread %d busy %f ran %d", &k, &b, &ran); n == 3 {
			busy[fmt.Sprintf("0.%d", k)] = b * 1e9
		}
		fmt.Sscanf(l, "region %f", &region)
	}
	region *= 1e9
	e, err := events.OpenExperiment(exp)
	if err != nil {
		t.Fatal(err)
	}
	p := readProfile(t, exp)
	opts := Options{}
	opts.defaults()
	d, err := buildTimeline(e, p.WallNs, opts)
	if err != nil {
		t.Fatal(err)
	}
	taskCat := -1
	for i, c := range d.Cats {
		if strings.HasPrefix(c.Name, "task ") && strings.Contains(c.Name, "closetasks.c:") && taskCat < 0 {
			taskCat = i // the first task region: the nowait one
		}
	}
	if d.Mode != "exact" || taskCat < 0 {
		t.Fatalf("timeline %s, categories %v", d.Mode, d.Cats)
	}
	for _, tr := range d.Tracks {
		want, ok := busy[tr.Path]
		if !ok {
			continue
		}
		var tasks, wait float64
		for i, c := range tr.C {
			switch c {
			case taskCat:
				tasks += float64(tr.D[i])
			case catWait:
				wait += float64(tr.D[i])
			}
		}
		if math.Abs(tasks-want) > 0.02*want+1e6 {
			t.Errorf("thread %s: the timeline shows tasks for %.3f ms, the program ran them for %.3f ms", tr.Path, tasks/1e6, want/1e6)
		}
		if tasks+wait > region+1e6 {
			t.Errorf("thread %s: tasks %.3f ms and waiting %.3f ms, more than the region's %.3f ms", tr.Path, tasks/1e6, wait/1e6, region/1e6)
		}
		delete(busy, tr.Path)
	}
	if len(busy) > 0 {
		t.Errorf("no track for threads %v", busy)
	}
}
