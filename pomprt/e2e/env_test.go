package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gopari/internal/profile"
)

// envCases are the GOPARI_* variables that the runtime validates
// (pomprt/env.c), each with a bad value and the one line a run with it
// says on stderr, and a good value other than the default that says
// nothing.
var envCases = []struct {
	name, bad, warning, good string
}{
	{"GOPARI_MODE", "sometimes", "gopari: GOPARI_MODE=sometimes is not profile, trace, ids or off; using profile", "profile"},
	{"GOPARI_GRAINS", "yes", "gopari: GOPARI_GRAINS=yes is not 0 or 1; no grains are recorded", "0"},
	{"GOPARI_TRACE_MAX_BYTES", "lots", "gopari: GOPARI_TRACE_MAX_BYTES=lots is not a byte count (such as 500M); the trace has no limit", "2G"},
	{"GOPARI_CLOCK", "foo", "gopari: GOPARI_CLOCK=foo is not tsc or monotonic; using tsc", "monotonic"},
	{"GOPARI_SAMPLING", "maybe", "gopari: GOPARI_SAMPLING=maybe is not on or off; using on", "off"},
	{"GOPARI_ORDERED", "never", "gopari: GOPARI_ORDERED=never is not time or count; using time", "count"},
	{"GOPARI_SUMMARY", "yes", "gopari: GOPARI_SUMMARY=yes is not 0 or 1; no summary is printed", "0"},
	{"GOPARI_RECORD_IDS", "all", "gopari: GOPARI_RECORD_IDS=all is not 0 or 1; task IDs are not recorded", "0"},
	{"GOPARI_CALLPATHS", "some", "gopari: GOPARI_CALLPATHS=some is not on or off; using on", "off"},
	{"GOPARI_CALLPATH_NODES", "1e5", "gopari: GOPARI_CALLPATH_NODES=1e5 is not a count from 1 to 2147483647 (such as 100000); using 100000", "5000"},
	{"GOPARI_SAMPLE_HZ", "fast", "gopari: GOPARI_SAMPLE_HZ=fast is not a count from 1 to 100000 (such as 1000); nothing is sampled", "200"},
	{"GOPARI_SAMPLE_CLOCK", "gpu", "gopari: GOPARI_SAMPLE_CLOCK=gpu is not cpu or wall; using cpu", "wall"},
	{"GOPARI_SAMPLE_SIGNAL", "SIGPROF", "gopari: GOPARI_SAMPLE_SIGNAL=SIGPROF is not a count from 1 to 64 (such as 40); using SIGRTMIN+3", "40"},
}

// TestEnvWarnings checks that every GOPARI_* variable is validated alike:
// a run with a bad value of each says one line per variable on stderr,
// naming it, its accepted values and what holds instead, and runs as
// with the defaults (a profile in profile mode, no stream); a run with
// good values says nothing. gcc and clang.
func TestEnvWarnings(t *testing.T) {
	needTools(t)
	for _, c := range compilers {
		c := c
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := build(t, c, "fib.c")
			var bad, good, want []string
			for _, e := range envCases {
				bad = append(bad, e.name+"="+e.bad)
				good = append(good, e.name+"="+e.good)
				want = append(want, e.warning)
			}
			r := run(t, p.inst, append([]string{"OMP_NUM_THREADS=2"}, bad...), "12")
			if r.code != 0 {
				t.Fatalf("bad values: exit %d\n%s", r.code, r.stderr)
			}
			if got := strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n"); !slices.Equal(got, want) {
				t.Errorf("bad values: stderr\n%s\nwant one line per variable:\n%s", r.stderr, strings.Join(want, "\n"))
			}
			if prof := readProfile(t, r); prof.Mode != "profile" {
				t.Errorf("bad values: mode %q, want the default, profile", prof.Mode)
			} else if got := prof.TaskSamplingRule(); got != (profile.TaskSampling{Exact: 1000, Every: 64}) {
				t.Errorf("bad values: task_sampling %+v, want the default, 1,000 then one in 64", got)
			}
			if _, err := os.Stat(filepath.Join(r.dir, "events")); err == nil {
				t.Errorf("bad values: an event stream, though GOPARI_GRAINS=yes records none")
			}
			r = run(t, p.inst, append([]string{"OMP_NUM_THREADS=2"}, good...), "12")
			if r.code != 0 || r.stderr != "" {
				t.Errorf("good values %v: exit %d, stderr %q", good, r.code, r.stderr)
			}
			if prof := readProfile(t, r); prof.Mode != "profile" {
				t.Errorf("good values: mode %q, want profile", prof.Mode)
			} else if got := prof.TaskSamplingRule(); got != (profile.TaskSampling{Every: 1}) {
				t.Errorf("GOPARI_SAMPLING=off: task_sampling %+v, want every instance timed", got)
			}
		})
	}
}
