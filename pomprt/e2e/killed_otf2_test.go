//go:build otf2

package e2e

import (
	"bufio"
	"bytes"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gopari/internal/events"
)

// killedOTF2 exports a killed run's stream with gopari trace --otf2 and
// counts otf2-print's records: a THREAD_TASK_CREATE per creation and a
// THREAD_TASK_COMPLETE per task end in the complete blocks, a
// THREAD_TEAM_BEGIN per implicit task, and a LEAVE for every ENTER (what
// was open when the stream ends is closed there).
func killedOTF2(t *testing.T, what, dir string, raw rawStream) {
	t.Helper()
	if _, err := exec.LookPath("otf2-print"); err != nil {
		t.Fatalf("otf2-print not installed (Debian otf2-tools), though gopari was built with OTF2")
	}
	archive := filepath.Join(t.TempDir(), "otf2")
	code, _, stderr := runGopari(t, gopariOTF2(t), "trace", "--otf2", archive, dir)
	if code != 3 || !strings.Contains(stderr, "the run was killed before it wrote its profile") {
		t.Fatalf("%s: gopari trace --otf2: exit %d (want 3), stderr %q", what, code, stderr)
	}
	var out, errb bytes.Buffer
	cmd := exec.Command("otf2-print", filepath.Join(archive, "traces.otf2"))
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil || errb.Len() > 0 {
		t.Fatalf("%s: otf2-print: %v\n%s", what, err, errb.Bytes())
	}
	counts := map[string]int64{}
	line := regexp.MustCompile(`^([A-Z_]+)\s+\d+\s+\d+`)
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		if m := line.FindStringSubmatch(sc.Text()); m != nil {
			counts[m[1]]++
		}
	}
	for k, want := range map[string]int64{"THREAD_TASK_CREATE": raw.total(events.CreateBegin), "THREAD_TASK_COMPLETE": raw.total(events.TaskEnd),
		"THREAD_TEAM_BEGIN": raw.total(events.ImplicitBegin), "LEAVE": counts["ENTER"]} {
		if counts[k] != want {
			t.Errorf("%s: otf2-print reads %d %s records, want %d", what, counts[k], k, want)
		}
	}
	if counts["ENTER"] < raw.total(events.EnterConstruct) {
		t.Errorf("%s: %d ENTER records, the complete blocks hold %d ENTER_CONSTRUCT", what, counts["ENTER"], raw.total(events.EnterConstruct))
	}
}
