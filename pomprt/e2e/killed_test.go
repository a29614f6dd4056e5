package e2e

// Runs killed by SIGKILL (issue 23): what they leave, and what gopari
// report, trace and grains make of it. The truth is what the program
// did, which it prints before it kills itself, and what the stream files
// hold, read here block by block as docs/events.md describes them,
// without gopari's reader.

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gopari/internal/chrome"
	"gopari/internal/events"
	"gopari/internal/experiment"
	"gopari/internal/profile"
	"gopari/internal/salvage"
	"gopari/rewrite"
)

// rawStream is what a run's stream files hold in their complete blocks.
type rawStream struct {
	n      map[events.Type]map[uint32]int64 // records by type and region
	blocks int
	cut    int64 // bytes after each file's last complete block, in all
}

func (s rawStream) count(typ events.Type, region uint32) int64 { return s.n[typ][region] }

func (s rawStream) total(typ events.Type) int64 {
	var n int64
	for _, v := range s.n[typ] {
		n += v
	}
	return n
}

// readRaw reads the stream files of the run in dir: their headers, and
// the records of every block that is whole, by type and region, a
// CHUNK_NEXT record as the CHUNK_END and CHUNK_BEGIN it stands for.
func readRaw(t *testing.T, dir string) rawStream {
	t.Helper()
	s := rawStream{n: map[events.Type]map[uint32]int64{}}
	add := func(typ events.Type, region uint32) {
		if s.n[typ] == nil {
			s.n[typ] = map[uint32]int64{}
		}
		s.n[typ][region]++
	}
	files, _ := filepath.Glob(filepath.Join(dir, "events", "thread-*.evt"))
	if len(files) == 0 {
		t.Fatalf("%s: no stream files", dir)
	}
	le := binary.LittleEndian
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if len(b) < 32 {
			s.cut += int64(len(b))
			continue
		}
		if string(b[:8]) != "GOPARIEV" {
			t.Fatalf("%s: magic %q", f, b[:8])
		}
		off := int(le.Uint16(b[10:]))
		for off+16 <= len(b) {
			if string(b[off:off+4]) != "BLK1" {
				t.Fatalf("%s: offset %d: no block", f, off)
			}
			n := int(le.Uint32(b[off+4:]))
			if off+16+n > len(b) {
				break
			}
			for p := off + 16; p < off+16+n; {
				h := le.Uint64(b[p:])
				typ, words, region := events.Type(h&63), int(h>>6)&3, uint32(h>>8)&0xffffff
				if s := typ.Stands(); s != nil {
					for _, typ := range s {
						add(typ, region)
					}
				} else {
					add(typ, region)
				}
				p += 8 * (1 + words)
			}
			s.blocks++
			off += 16 + n
		}
		s.cut += int64(len(b) - off)
	}
	return s
}

// TestKilled kills programs with SIGKILL in trace mode and with
// GOPARI_GRAINS=1, at 1, 2 and 4 threads, with every compiler: the
// program (killed.c) creates and runs a known number of tasks and loop
// chunks, prints what it did, and raises SIGKILL. No profile is written;
// the directory keeps the stream's complete blocks, stream.json and the
// space held back for the profile. gopari report, gopari trace (OTF2
// and Chrome JSON) and gopari grains --csv read it, end with exit
// status 3, say that the run was killed and what is missing, and show
// exactly what the complete blocks hold: the tasks created, begun and
// completed, the loop chunks, the region visits; which is what the
// program did, less at most the block each thread still held in memory;
// and their times, by the clock stream.json gives, lie between the
// wall-clock times the program printed, its tick rate within 0.1% of a
// whole run's.
// Then a file is cut in the middle of its last block, as a kill during
// its write(2) leaves it: the readers read the blocks before the cut,
// and say so.
func TestKilled(t *testing.T) {
	needTools(t)
	gopari := gopariCommand(t)
	for _, c := range compilers {
		c := c
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := buildOpts(t, c, "killed.c", rewrite.Options{Chunks: true})
			// The tick rate of a run that is not killed, measured over
			// all of it, for the killed runs' stream.json.
			whole := run(t, p.inst, []string{"OMP_NUM_THREADS=2", "GOPARI_MODE=trace"}, "20000", "exit")
			rate := readProfile(t, whole).Clock.NsPerTick
			for _, threads := range threadCounts {
				for _, mode := range []string{"GOPARI_MODE=trace", "GOPARI_GRAINS=1"} {
					what := fmt.Sprintf("%s, %s threads", mode, threads)
					r := run(t, p.inst, []string{"OMP_NUM_THREADS=" + threads, mode}, "40000")
					checkKilled(t, gopari, what, r, mode == "GOPARI_MODE=trace", rate)
				}
			}
		})
	}
}

// checkKilled checks the directory of one killed run and what gopari
// makes of it.
func checkKilled(t *testing.T, gopari, what string, r result, trace bool, rate float64) {
	t.Helper()
	var tasks, chunks, sum, loopEnd, kill int64
	if _, err := fmt.Sscanf(r.stdout, "%d tasks, %d chunks, sum %d, loop end %d, kill %d", &tasks, &chunks, &sum, &loopEnd, &kill); err != nil || r.code != -1 {
		t.Fatalf("%s: exit %d, printed %q (%v)\n%s", what, r.code, r.stdout, err, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(r.dir, "profile.json")); err == nil {
		t.Fatalf("%s: a run killed by SIGKILL wrote a profile", what)
	}
	ri, err := events.ReadRunInfo(filepath.Join(r.dir, "events", experiment.StreamFile))
	if err != nil || ri.Ended != "" || len(ri.Regions) == 0 {
		t.Fatalf("%s: stream.json: %v, %+v", what, err, ri)
	}
	if d := ri.Clock.NsPerTick/rate - 1; d > 1e-3 || d < -1e-3 {
		t.Errorf("%s: stream.json's clock has %.6g ns per tick (over %d ns), a whole run's profile %.6g", what, ri.Clock.NsPerTick, ri.CalibratedNs, rate)
	}
	if st, err := os.Stat(filepath.Join(r.dir, "events", experiment.ReserveFile)); err != nil || st.Size() != 4<<20 {
		t.Errorf("%s: the space held back for the profile: %v", what, err)
	}
	raw := readRaw(t, r.dir)
	// The task, the loop, and the atomic in the task, the second one.
	var task, loop, atomic profile.Region
	for _, r := range ri.Regions {
		switch {
		case r.Kind == "task":
			task = r
		case r.Kind == "for":
			loop = r
		case r.Kind == "atomic" && r.BeginLine > atomic.BeginLine:
			atomic = r
		}
	}
	if task.ID == 0 || loop.ID == 0 || atomic.ID == 0 {
		t.Fatalf("%s: regions %+v", what, ri.Regions)
	}
	// What the program did, less the block each thread held in memory:
	// a task takes at least 1 word on the thread that runs it (a
	// TINY_TASK, docs/events.md), a chunk 4 (CHUNK_NEXT), and a block
	// is 32768 words.
	nt := int64(len(ri.Threads))
	tk, lp := uint32(task.ID), uint32(loop.ID)
	done, seen := raw.count(events.TaskEnd, tk), raw.count(events.ChunkEnd, lp)
	if done > tasks || done < tasks-nt*(32768+1) || raw.count(events.CreateBegin, tk) > tasks {
		t.Errorf("%s: the program ran %d tasks; the complete blocks hold %d ends and %d creations", what, tasks, done, raw.count(events.CreateBegin, tk))
	}
	if seen > chunks || raw.count(events.ChunkBegin, lp) > chunks {
		t.Errorf("%s: the program began %d chunks; the complete blocks hold %d ends and %d beginnings", what, chunks, seen, raw.count(events.ChunkBegin, lp))
	}
	if raw.blocks == 0 || done == 0 {
		t.Fatalf("%s: %d blocks, %d task ends: the test needs more work per thread", what, raw.blocks, done)
	}
	checkKilledClock(t, what, r.dir, loopEnd, kill)
	checkKilledReport(t, gopari, what, r.dir, raw, task, loop, atomic, trace)
	checkKilledGrains(t, gopari, what, r.dir, raw, task, loop)
	if trace {
		checkKilledTrace(t, gopari, what, r.dir, raw)
	}

	// A kill during a block's write(2) leaves the block cut short: cut
	// the largest file in the middle of its last block.
	files, _ := filepath.Glob(filepath.Join(r.dir, "events", "thread-*.evt"))
	var big string
	var size int64
	for _, f := range files {
		if st, _ := os.Stat(f); st.Size() > size {
			big, size = f, st.Size()
		}
	}
	if size < 32+2*16 {
		return
	}
	if err := os.Truncate(big, size-1000); err != nil {
		t.Fatal(err)
	}
	cut := readRaw(t, r.dir)
	if cut.blocks != raw.blocks-1 || cut.cut == 0 {
		t.Fatalf("%s: cutting %s left %d blocks of %d", what, big, cut.blocks, raw.blocks)
	}
	out := checkKilledReport(t, gopari, what+", a block cut", r.dir, cut, task, loop, atomic, trace)
	if !strings.Contains(out, filepath.Base(big)+": its last ") || !strings.Contains(out, "whose write the kill cut short") {
		t.Errorf("%s: the report does not say that %s was cut:\n%s", what, filepath.Base(big), out)
	}
	checkKilledGrains(t, gopari, what+", a block cut", r.dir, cut, task, loop)
}

// checkKilledClock checks the clock stream.json gives a killed run, by
// the wall-clock times the program printed: its last record, a task's
// end or later, lies after the end of the loop and before the kill. A
// tick rate measured wrong by more than 1% (the TSC's is 2.6 ns per
// tick here, not 1) would put it outside.
func checkKilledClock(t *testing.T, what, dir string, loopEnd, kill int64) {
	t.Helper()
	exp, err := events.OpenExperiment(dir)
	if err != nil {
		t.Fatal(err)
	}
	s, err := salvage.Read(exp)
	if err != nil {
		t.Fatal(err)
	}
	start := int64(exp.Clock.Realtime0Ns)
	lo, hi := float64(loopEnd-start), float64(kill-start)
	const slack = 200e3 // ns: the real-time and the runtime's clock are read apart
	if s.EndNs < lo*0.99-slack || s.EndNs > hi*1.01+slack {
		t.Errorf("%s: the stream's last record is %.0f ns into the run (clock %s, %.4g ns per tick over %d ns), the loop ended at %.0f and the kill came at %.0f",
			what, s.EndNs, exp.Clock.Name, exp.Clock.NsPerTick, exp.Killed.Info.CalibratedNs, lo, hi)
	}
}

// runGopari runs gopari with args and returns its exit status, stdout
// and stderr.
func runGopari(t *testing.T, gopari string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	cmd := exec.Command(gopari, args...)
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, out.String(), errb.String()
}

// checkKilledReport checks gopari report on a killed run against the
// records of its complete blocks, and returns what it printed.
func checkKilledReport(t *testing.T, gopari, what, dir string, raw rawStream, task, loop, atomic profile.Region, trace bool) string {
	t.Helper()
	code, out, stderr := runGopari(t, gopari, "report", "--top", "100", dir)
	if code != 3 || stderr != "" {
		t.Fatalf("%s: gopari report: exit %d (want 3), stderr %q\n%s", what, code, stderr, out)
	}
	for _, want := range []string{"NO PROFILE", "was killed before it wrote its profile", "PARTIAL", "missing:",
		experiment.ReserveFile + ": 4194304 bytes"} {
		if !strings.Contains(out, want) {
			t.Errorf("%s: gopari report does not say %q:\n%s", what, want, out)
		}
	}
	line := func(section, region string, n int64) []string {
		_, rest, _ := strings.Cut(out, section)
		for _, l := range strings.Split(rest, "\n") {
			if strings.Contains(l, "killed.c:"+region) {
				return strings.Fields(l)
			}
			if l == "" {
				break
			}
		}
		if n > 0 {
			t.Errorf("%s: no line for killed.c:%s in %q:\n%s", what, region, section, out)
		}
		return nil
	}
	tk, lp, at := uint32(task.ID), uint32(loop.ID), uint32(atomic.ID)
	if f := line("\nTasks in the stream", fmt.Sprintf("%d-", task.BeginLine), raw.count(events.CreateBegin, tk)); len(f) > 3 {
		got := strings.Join(f[:3], " ")
		want := fmt.Sprint(raw.count(events.CreateBegin, tk), raw.count(events.TaskBegin, tk), raw.count(events.TaskEnd, tk))
		if got != want {
			t.Errorf("%s: tasks created, begun, completed %s; the complete blocks hold %s", what, got, want)
		}
	}
	if f := line("\nLoop chunks in the stream", fmt.Sprintf("%d-", loop.BeginLine), raw.count(events.ChunkEnd, lp)); len(f) > 1 && f[0] != strconv.FormatInt(raw.count(events.ChunkEnd, lp), 10) {
		t.Errorf("%s: %s chunks; the complete blocks hold %d", what, f[0], raw.count(events.ChunkEnd, lp))
	}
	if trace {
		if f := line("\nRegions in the stream", fmt.Sprintf("%d-", atomic.BeginLine), raw.count(events.ExitConstruct, at)); len(f) > 1 && f[1] != strconv.FormatInt(raw.count(events.ExitConstruct, at), 10) {
			t.Errorf("%s: %s visits of the atomic region; the complete blocks hold %d", what, f[1], raw.count(events.ExitConstruct, at))
		}
	}
	return out
}

// checkKilledGrains checks gopari grains --csv on a killed run: a grain
// per task and per chunk that the complete blocks end.
func checkKilledGrains(t *testing.T, gopari, what, dir string, raw rawStream, task, loop profile.Region) {
	t.Helper()
	csv := filepath.Join(t.TempDir(), "grains.csv")
	code, _, stderr := runGopari(t, gopari, "grains", "--csv", csv, dir)
	if code != 3 || !strings.Contains(stderr, "the run was killed before it wrote its profile") {
		t.Fatalf("%s: gopari grains: exit %d (want 3), stderr %q", what, code, stderr)
	}
	b, err := os.ReadFile(csv)
	if err != nil {
		t.Fatal(err)
	}
	byKind := map[string]int64{}
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n")[1:] {
		k, _, _ := strings.Cut(l, ",")
		byKind[k]++
	}
	want := map[string]int64{"task": raw.count(events.TaskEnd, uint32(task.ID)), "chunk": raw.count(events.ChunkEnd, uint32(loop.ID))}
	for k, v := range want {
		if byKind[k] != v {
			t.Errorf("%s: gopari grains --csv has %d %s grains; the complete blocks end %d", what, byKind[k], k, v)
		}
	}
}

// checkKilledTrace checks gopari trace's Chrome JSON of a killed run:
// one flow per task creation in the complete blocks, the JSON whole; and
// its OTF2 archive where gopari has OTF2.
func checkKilledTrace(t *testing.T, gopari, what, dir string, raw rawStream) {
	t.Helper()
	js := filepath.Join(t.TempDir(), "trace.json")
	code, _, stderr := runGopari(t, gopari, "trace", "--chrome", js, dir)
	if code != 3 || !strings.Contains(stderr, "the run was killed before it wrote its profile") {
		t.Fatalf("%s: gopari trace: exit %d (want 3), stderr %q", what, code, stderr)
	}
	f, err := os.Open(js)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := chrome.Check(f); err != nil {
		t.Errorf("%s: Chrome JSON: %v", what, err)
	}
	f.Seek(0, 0)
	var flows int64
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	starts := regexp.MustCompile(`^\{"ph":"s"`)
	for sc.Scan() {
		if starts.Match(sc.Bytes()) {
			flows++
		}
	}
	if want := raw.total(events.CreateBegin); flows != want {
		t.Errorf("%s: %d flows in the Chrome JSON, %d creations in the complete blocks", what, flows, want)
	}
	killedOTF2(t, what, dir, raw)
}
