package e2e

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gopari/internal/events"
)

// TestTraceTaskRecords checks the runtime's task records (events.h,
// ev_task: the short forms of formats 6 and 7, a task run as it is
// created grown into one record) against the reader, in blocks of every size
// from a few words up: testdata/evtasks.c makes random steps of tasks
// with the runtime's inline code and says what a reader must return.
// A record that starts a block must name nothing of the block before.
func TestTraceTaskRecords(t *testing.T) {
	t.Parallel()
	exe := filepath.Join(t.TempDir(), "evtasks")
	if out, err := exec.Command("gcc", "-O2", "-Wall", "-I", "..", "testdata/evtasks.c", "-o", exe).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	for _, words := range []int{8, 9, 10, 13, 16, 31, 64, 1000, 32768} {
		for seed := 1; seed <= 3; seed++ {
			what := fmt.Sprintf("blocks of %d words, seed %d", words, seed)
			cmd := exec.Command(exe, fmt.Sprint(words), fmt.Sprint(seed), "3000")
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			want := strings.Split(strings.TrimSpace(stderr.String()), "\n")
			r, err := events.NewReader(what, bytes.NewReader(stdout.Bytes()), int64(stdout.Len()))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for {
				rec, err := r.Next()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				if rec.Type == events.Loc || rec.Type == events.Time {
					continue
				}
				name := strings.TrimSuffix(rec.Type.String(), "_CONSTRUCT")
				b := uint64(0)
				if rec.N > 1 {
					b = rec.Args[1]
				}
				got = append(got, fmt.Sprintf("%s %d %d %d", name, rec.Args[0], b, rec.Time))
			}
			if len(got) != len(want) {
				t.Errorf("%s: %d records, want %d", what, len(got), len(want))
			}
			for i := 0; i < min(len(got), len(want)); i++ {
				if got[i] != want[i] {
					t.Errorf("%s: record %d is %s, want %s", what, i, got[i], want[i])
					break
				}
			}
			if words == 32768 && seed == 1 {
				t.Logf("%d records in %d bytes", len(want), stdout.Len())
				// Both forms of a task run as created: a TINY_TASK where
				// its steps fit, an UNDEFERRED_TASK where they do not; and
				// the begins of queued tasks in one word and in two,
				// their creations in one record and in two, and the ends
				// of tasks begun before the last in one word and in two.
				n := rawTypes(t, stdout.Bytes())
				for _, typ := range []events.Type{events.TinyTask, events.UndeferredTask, events.TaskBeginOwn, events.TaskBegin,
					events.CreateQueued, events.CreateEndLast, events.TaskEndBefore, events.TaskEnd} {
					if n[typ] == 0 {
						t.Errorf("%s: no %v record, want some (%v)", what, typ, n)
					}
				}
			}
		}
	}
}

// rawTypes counts the records of a stream by their type as written, the
// short forms as themselves.
func rawTypes(t *testing.T, b []byte) map[events.Type]int {
	n := map[events.Type]int{}
	le := binary.LittleEndian
	for off := events.FileHeaderSize; off+events.BlockHeaderSize <= len(b); {
		end := off + events.BlockHeaderSize + int(le.Uint32(b[off+4:]))
		if end > len(b) {
			t.Fatalf("offset %d: truncated block", off)
		}
		for p := off + events.BlockHeaderSize; p < end; {
			h := le.Uint64(b[p:])
			n[events.Type(h&events.MaxType)]++
			p += events.WordSize * (1 + int(h>>6&3))
		}
		off = end
	}
	return n
}
