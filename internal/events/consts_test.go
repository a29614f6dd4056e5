package events

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gopari/internal/experiment"
)

// TestCConstants checks the Go constants against the C writer's in
// pomprt: every record type whose name the C sources define (as
// SOMETHING_TASK_BEGIN = 23 or #define SOMETHING_TASK_BEGIN 23), and the
// magic strings, version and the names of the reserve and stream files.
func TestCConstants(t *testing.T) {
	files, _ := filepath.Glob("../../pomprt/*.[ch]")
	var src strings.Builder
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), FileMagic) || strings.Contains(string(b), "TASKLOOP_BEGIN") {
			src.Write(b)
		}
	}
	c := src.String()
	if c == "" {
		t.Skip("pomprt has no event-stream writer yet")
	}
	if !strings.Contains(c, `"`+FileMagic+`"`) || !strings.Contains(c, `"`+BlockMagic+`"`) {
		t.Errorf("the C sources do not spell the magic strings %q and %q", FileMagic, BlockMagic)
	}
	if !strings.Contains(c, `EV_RESERVE_FILE "`+experiment.ReserveFile+`"`) {
		t.Errorf("the C sources do not name the reserve file %q", experiment.ReserveFile)
	}
	// The C writer names each thread's stream file as ThreadFile does.
	if b, _ := os.ReadFile("../../pomprt/events.c"); !strings.Contains(string(b), `/thread-%06u.evt"`) || experiment.ThreadFile(7) != "thread-000007.evt" {
		t.Errorf("the C sources and experiment.ThreadFile name the stream files differently (%s)", experiment.ThreadFile(7))
	}
	value := func(name string) (int, bool) {
		re := regexp.MustCompile(`\b[A-Z0-9_]*_` + name + `\s*(?:=\s*)?(\d+)\b`)
		m := re.FindStringSubmatch(c)
		if m == nil {
			return 0, false
		}
		v, _ := strconv.Atoi(m[1])
		return v, true
	}
	found := 0
	for _, typ := range KnownTypes() {
		name := typ.String()
		alts := []string{name}
		switch {
		case typ == EnterConstruct:
			alts = append(alts, "ENTER")
		case typ == ExitConstruct:
			alts = append(alts, "EXIT")
		}
		for _, n := range alts {
			if v, ok := value(n); ok {
				found++
				if v != int(typ) {
					t.Errorf("C defines %s as %d, Go as %d", n, v, typ)
				}
				break
			}
		}
	}
	if found < 20 {
		t.Errorf("found only %d of the %d record types in the C sources", found, len(KnownTypes()))
	}
}
