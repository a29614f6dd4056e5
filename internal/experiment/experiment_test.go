package experiment

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRankDir checks that rank directories are named and parsed alike,
// and that other names are not ranks.
func TestRankDir(t *testing.T) {
	t.Parallel()
	for _, n := range []int{0, 7, 99999, 123456} {
		got, ok := ParseRankDir(RankDir(n))
		if !ok || got != n {
			t.Errorf("ParseRankDir(%q) = %d, %v; want %d", RankDir(n), got, ok, n)
		}
	}
	if RankDir(3) != "rank-00003" {
		t.Errorf("RankDir(3) = %q, want rank-00003", RankDir(3))
	}
	for _, name := range []string{"rank-0001", "rank-00000.fork-77", "rank-00001.1", "x-00001", "rank-"} {
		if n, ok := ParseRankDir(name); ok {
			t.Errorf("ParseRankDir(%q) = %d: not a rank's directory", name, n)
		}
	}
}

// TestDir checks that a profile names its run's directory.
func TestDir(t *testing.T) {
	t.Parallel()
	for arg, want := range map[string]string{
		"gopari-a-1":                    "gopari-a-1",
		"gopari-a-1/profile.json":       "gopari-a-1",
		"job/rank-00001/profile.json":   "job/rank-00001",
		"profile.json":                  ".",
		"gopari-a-1/profile.json.tmp":   "gopari-a-1/profile.json.tmp",
		"/abs/gopari-a-1/":              "/abs/gopari-a-1/",
		"gopari-a-1/events/stream.json": "gopari-a-1/events/stream.json",
	} {
		if got := Dir(arg); got != want {
			t.Errorf("Dir(%q) = %q, want %q", arg, got, want)
		}
	}
}

// TestNewest checks that the newest gopari-* directory is found by its
// time, that files and other names are not runs, and what an empty
// directory says.
func TestNewest(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if _, err := Newest(dir); err == nil || !strings.Contains(err.Error(), NoDirNote) {
		t.Errorf("Newest of an empty directory: %v; want an error with the note", err)
	}
	base := time.Now().Add(-time.Hour)
	for i, name := range []string{"gopari-b", "gopari-a", "gopari-c", "other"} {
		p := filepath.Join(dir, name)
		if err := os.Mkdir(p, 0o755); err != nil {
			t.Fatal(err)
		}
		// gopari-a is the newest; other is newer but not a run.
		at := base.Add(time.Duration(map[int]int{0: 1, 1: 3, 2: 2, 3: 4}[i]) * time.Minute)
		if err := os.Chtimes(p, at, at); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "gopari-z"), nil, 0o644); err != nil { // a file, not a run
		t.Fatal(err)
	}
	if got, err := Newest(dir); err != nil || got != filepath.Join(dir, "gopari-a") {
		t.Errorf("Newest = %q, %v; want gopari-a", got, err)
	}
}

// TestJobMarker checks the marker's checks: a job's directory is read,
// another format or a newer version is refused, and no marker is not a
// job.
func TestJobMarker(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, content, err string
	}{
		{"job", `{"format":"gopari-job","version":1,"job":"ompi-1","launcher":"Open MPI","size":2,"program":"./a"}`, ""},
		{"newer", `{"format":"gopari-job","version":2}`, "job version 2 is newer than this gopari reads (1)"},
		{"other", `{"format":"gopari-profile","version":1}`, "not a gopari job marker"},
		{"damaged", `{"format":`, "not a gopari job marker"},
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "job.json"), []byte(tc.content), 0o644); err != nil {
			t.Fatal(err)
		}
		if !IsJob(dir) {
			t.Errorf("%s: IsJob = false with a marker", tc.name)
		}
		m, err := ReadJobMarker(dir)
		switch {
		case tc.err == "" && (err != nil || m.Job != "ompi-1" || m.Size != 2):
			t.Errorf("%s: ReadJobMarker = %+v, %v", tc.name, m, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: ReadJobMarker error %v, want %q", tc.name, err, tc.err)
		}
	}
	dir := t.TempDir()
	if IsJob(dir) {
		t.Errorf("IsJob = true without a marker")
	}
	if _, err := ReadJobMarker(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadJobMarker without a marker: %v, want fs.ErrNotExist", err)
	}
}

// TestExplain checks what is said of a run whose profile cannot be read,
// for each thing a stopped run leaves.
func TestExplain(t *testing.T) {
	t.Parallel()
	read := func(dir string) string {
		_, err := os.ReadFile(Profile(dir))
		return Explain(Profile(dir), err)
	}
	root := t.TempDir()
	if got := read(filepath.Join(root, "gone")); !strings.Contains(got, "no such directory "+NoDirNote) {
		t.Errorf("no directory: %s", got)
	}
	empty := filepath.Join(root, "empty")
	os.Mkdir(empty, 0o755)
	if got := read(empty); !strings.Contains(got, "no profile: the directory is empty") {
		t.Errorf("empty directory: %s", got)
	}
	tmp := filepath.Join(root, "tmp")
	os.Mkdir(tmp, 0o755)
	os.WriteFile(filepath.Join(tmp, ProfileTmpFile), []byte("{\"for"), 0o644)
	if got := read(tmp); !strings.Contains(got, "profile.json.tmp holds the first 5 bytes") {
		t.Errorf("profile.json.tmp: %s", got)
	}
	stream := filepath.Join(root, "stream")
	os.MkdirAll(filepath.Join(stream, EventsDir), 0o755)
	os.WriteFile(Stream(stream), []byte("{}"), 0o644)
	if got := read(stream); !strings.Contains(got, "killed before it wrote one; gopari report") {
		t.Errorf("event stream: %s", got)
	}
	cut := filepath.Join(root, "cut")
	os.Mkdir(cut, 0o755)
	os.WriteFile(Profile(cut), []byte(`{"format": "gopari-pro`), 0o644)
	if got := read(cut); !strings.Contains(got, "offset 22: the profile is damaged: it ends in the middle (truncated after 22 bytes)") {
		t.Errorf("truncated profile: %s", got)
	}
}

// TestProfiles checks the profiles an argument names: a profile, a run's
// directory, a directory of runs (in name order, without the ones that
// wrote none), and a directory with no profile at any level.
func TestProfiles(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for _, d := range []string{"t2.r1", "t1.r1", "killed"} {
		os.MkdirAll(filepath.Join(root, d), 0o755)
		if d != "killed" {
			os.WriteFile(Profile(filepath.Join(root, d)), []byte("{}"), 0o644)
		}
	}
	run := filepath.Join(root, "t1.r1")
	for _, tc := range []struct {
		arg  string
		want []string
	}{
		{Profile(run), []string{Profile(run)}},
		{run, []string{Profile(run)}},
		{root, []string{Profile(run), Profile(filepath.Join(root, "t2.r1"))}},
	} {
		got, err := Profiles(tc.arg)
		if err != nil || strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("Profiles(%s) = %q, %v; want %q", tc.arg, got, err, tc.want)
		}
	}
	if _, err := Profiles(filepath.Join(root, "killed")); err == nil || !strings.Contains(err.Error(), "no profile.json in it or in its subdirectories") {
		t.Errorf("a directory without profiles: %v", err)
	}
	if _, err := Profiles(filepath.Join(root, "gone")); err == nil || !strings.Contains(err.Error(), "gone: no such file or directory") {
		t.Errorf("a missing argument: %v", err)
	}
}
