package events_test

import (
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopari/internal/events"
	"gopari/internal/events/evtest"
	"gopari/internal/experiment"
)

// killedRun writes a killed run of two OS threads in small blocks: a
// team in which each thread runs tasks tasks it created itself. It
// returns the directory and the records each file holds.
func killedRun(t *testing.T, tasks int) (string, map[string]int64) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "exp")
	s, err := evtest.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	s.Killed, s.BlockSize = true, 256
	par := s.Region("parallel", "k.c", 3)
	task := s.Region("task", "k.c", 5)
	a, b := s.Thread(), s.Thread()
	a.Put(events.Loc, 0, s.Loc("0", 0))
	a.Put(events.Fork, par, 0)
	for i, th := range []*evtest.Thread{a, b} {
		th.T = a.T
		th.Put(events.Loc, 0, s.Loc("0."+evtest.Itoa(i), i))
		imp := th.NewID()
		th.Put(events.ImplicitBegin, par, imp, 0)
		for j := 0; j < tasks; j++ {
			id := th.NewID()
			th.Put(events.CreateBegin, task, id)
			th.Put(events.CreateEnd, task, id)
			th.Put(events.TaskBegin, task, id, imp)
			th.Wait(100)
			th.Put(events.TaskEnd, task, id)
		}
	}
	recs := map[string]int64{"thread-000000.evt": a.Records(), "thread-000001.evt": b.Records()}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return dir, recs
}

// readAll reads every record of an experiment's files, by file.
func readAll(exp *events.Experiment) (map[string]int64, error) {
	rs, err := exp.Open()
	if err != nil {
		return nil, err
	}
	out := map[string]int64{}
	for _, r := range rs {
		for {
			_, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				r.Close()
				return out, err
			}
			out[filepath.Base(r.Name())]++
		}
		r.Close()
	}
	return out, nil
}

// lastBlock returns the records of a file's last block and the offset
// it starts at.
func lastBlock(t *testing.T, path string) (int64, int64) {
	t.Helper()
	r, err := events.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var n, start, off int64
	blocks := 0
	for {
		off = r.Offset()
		_, err := r.Next()
		if errors.Is(err, io.EOF) {
			return n, start
		}
		if err != nil {
			t.Fatal(err)
		}
		if r.Blocks() != blocks {
			blocks, n, start = r.Blocks(), 0, off
		}
		n++
	}
}

// TestKilledExperiment reads the directory of a run killed before it
// wrote its profile: stream.json's tables, every complete block, and
// nothing of a block or a header that the kill cut short.
func TestKilledExperiment(t *testing.T) {
	t.Parallel()
	dir, recs := killedRun(t, 40)
	exp, err := events.OpenExperiment(dir)
	if err != nil {
		t.Fatal(err)
	}
	if exp.Killed == nil || exp.Profile != nil || len(exp.Regions) != 2 || len(exp.Threads) != 3 || exp.Events.Complete || !exp.Events.Has("trace") {
		t.Fatalf("killed %v, profile %v, %d regions, %d threads, events %+v", exp.Killed, exp.Profile, len(exp.Regions), len(exp.Threads), exp.Events)
	}
	if !strings.Contains(exp.KilledSummary(), "killed before it wrote its profile") || len(exp.KilledNotes()) != 1 ||
		!strings.Contains(exp.KilledNotes()[0], experiment.ReserveFile+": 4096 bytes") {
		t.Errorf("summary %q, notes %q", exp.KilledSummary(), exp.KilledNotes())
	}
	got, err := readAll(exp)
	if err != nil || got["thread-000000.evt"] != recs["thread-000000.evt"] || got["thread-000001.evt"] != recs["thread-000001.evt"] {
		t.Fatalf("read %v (%v), written %v", got, err, recs)
	}

	// The kill cut thread 1's last block, and thread 0's header.
	f1 := filepath.Join(dir, "events", "thread-000001.evt")
	inLast, start := lastBlock(t, f1)
	st, _ := os.Stat(f1)
	if err := os.Truncate(f1, st.Size()-8); err != nil {
		t.Fatal(err)
	}
	f0 := filepath.Join(dir, "events", "thread-000000.evt")
	if err := os.Truncate(f0, 20); err != nil {
		t.Fatal(err)
	}
	exp, err = events.OpenExperiment(dir)
	if err != nil {
		t.Fatal(err)
	}
	got, err = readAll(exp)
	if err != nil || len(got) != 1 || got["thread-000001.evt"] != recs["thread-000001.evt"]-inLast {
		t.Errorf("after the cut: read %v (%v), want %d records of thread 1", got, err, recs["thread-000001.evt"]-inLast)
	}
	if len(exp.Events.Files) != 1 || exp.Events.Files[0].Bytes != start {
		t.Errorf("files %+v, want thread 1's first %d bytes", exp.Events.Files, start)
	}
	notes := strings.Join(exp.KilledNotes(), "\n")
	for _, want := range []string{"thread-000000.evt: its header was cut after 20 bytes: no block written",
		"thread-000001.evt: its last " + evtest.Itoa(int(st.Size()-8-start)) + " bytes are the first of a block of " + evtest.Itoa(int(st.Size()-start))} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes do not say %q:\n%s", want, notes)
		}
	}
}

// TestKilledDamage: damage that a kill does not make is reported, with
// the file and offset; a stream.json newer than this gopari, or another
// file's, is refused; a directory without profile.json or stream.json
// is no experiment.
func TestKilledDamage(t *testing.T) {
	t.Parallel()
	dir, _ := killedRun(t, 40)
	f := filepath.Join(dir, "events", "thread-000001.evt")
	_, start := lastBlock(t, f)
	b, _ := os.ReadFile(f)
	copy(b[start:], "XXXX") // the last block's magic
	os.WriteFile(f, b, 0o644)
	exp, err := events.OpenExperiment(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := readAll(exp); err == nil || !strings.Contains(err.Error(), "thread-000001.evt: offset "+evtest.Itoa(int(start))+`: no block here (magic "XXXX"`) {
		t.Errorf("damaged block: %v", err)
	}

	info := filepath.Join(dir, "events", experiment.StreamFile)
	orig, _ := os.ReadFile(info)
	for _, tc := range []struct {
		name, key string
		value     any
		want      string
	}{
		{"newer", "version", 2, "version 2 is newer than this gopari reads (1); update gopari"},
		{"newer stream", "stream_version", 9, "event stream version 9 is newer than this gopari reads"},
		{"format", "format", "gopari-profile", `not a gopari stream description (format "gopari-profile")`},
		{"clock", "clock", map[string]any{"name": "tsc"}, "clock.ns_per_tick 0 is not a tick length"},
	} {
		var m map[string]any
		json.Unmarshal(orig, &m)
		m[tc.key] = tc.value
		nb, _ := json.Marshal(m)
		os.WriteFile(info, nb, 0o644)
		if _, err := events.OpenExperiment(dir); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	os.Remove(info)
	if _, err := events.OpenExperiment(dir); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "no profile.json") {
		t.Errorf("no stream.json: %v", err)
	}
}
