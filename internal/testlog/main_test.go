package main

import (
	"bufio"
	"bytes"
	"os"
	"strings"
	"testing"
	"time"
)

// The recordings in testdata are go test -json -timeout 3s (Go 1.26) of
// the tests in testdata/src: a test that times out while two parallel
// tests wait their turn, two parallel tests that time out, a test that
// panics, and a test file that does not compile.

// summarize runs a recording through testlog and returns what it prints
// and its exit status.
func summarize(t *testing.T, file string) (string, int) {
	t.Helper()
	f, err := os.Open("testdata/" + file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out bytes.Buffer
	l := newSummary(&out, time.Hour)
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		l.event(decode(sc.Bytes()))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	code := l.finish()
	return out.String(), code
}

func TestFailureReasons(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		file string
		want []string // lines that must be printed, in this order
		not  []string // strings that must not be
	}{
		// The timeout's message, filed by go test under the test that ran,
		// which never ends: the reason, the running test, where it was.
		{"timeout.json", []string{
			"--- UNFINISHED: timeout TestSlow",
			"    t_test.go:23: working",
			"panic: test timed out after 3s",
			"\trunning tests:",
			"\t\tTestSlow (3s)",
			"rec/timeout.TestSlow(0x14ad99ae6c8?)",
			"\t/tmp/cliconv-rec/timeout/t_test.go:24 +0x49",
			"(2 more goroutine stacks left out: none in a test file)",
			"FAIL  rec/timeout 3.1s",
			"FAILED: rec/timeout (panic: test timed out after 3s)",
		}, []string{
			"startAlarm",                      // the timer's own stack
			"main.main()",                     // the test runner's
			"--- UNFINISHED: timeout TestPar", // paused, never started
		}},
		// Parallel tests: the output of each, the panic under the last.
		{"timeout_parallel.json", []string{
			"--- UNFINISHED: partimeout TestParallelA",
			"    t_test.go:12: A working",
			"--- UNFINISHED: partimeout TestParallelB",
			"    t_test.go:18: B working",
			"panic: test timed out after 3s",
			"\t\tTestParallelA (3s)",
			"\t\tTestParallelB (3s)",
			"rec/partimeout.TestParallelA(0x2fba86c9c6c8)",
			"rec/partimeout.TestParallelB(0x2fba86c9c908)",
			"FAILED: rec/partimeout (panic: test timed out after 3s)",
		}, []string{"startAlarm", "--- UNFINISHED: partimeout TestQuick"}},
		// A panic ends its test: the test's output, the panic, its stack.
		{"panic.json", []string{
			"--- FAIL: panic TestBoom (0.0s)",
			"    p_test.go:8: about to fail",
			"panic: assignment to entry in nil map [recovered, repanicked]",
			"rec/panic.TestBoom(0x5d8e6f9c6c8?)",
			"\t/tmp/cliconv-rec/panic/p_test.go:10 +0x54",
			"FAILED: rec/panic TestBoom, rec/panic",
		}, []string{"UNFINISHED"}},
		// A build failure: the compiler's message.
		{"buildfail.json", []string{
			"buildfail/b_test.go:5:28: undefined: undefinedThing",
			"FAIL  rec/buildfail 0.0s",
			"FAILED: rec/buildfail [rec/buildfail.test] (build), rec/buildfail",
		}, nil},
	} {
		t.Run(tc.file, func(t *testing.T) {
			t.Parallel()
			out, code := summarize(t, tc.file)
			if code != 1 {
				t.Errorf("exit status %d, want 1", code)
			}
			lines := strings.Split(out, "\n")
			i := 0
			for _, w := range tc.want {
				for i < len(lines) && lines[i] != w {
					i++
				}
				if i == len(lines) {
					t.Errorf("missing line (or out of order): %q", w)
					i = 0
				}
			}
			for _, n := range tc.not {
				if strings.Contains(out, n) {
					t.Errorf("printed %q", n)
				}
			}
			if t.Failed() {
				t.Logf("testlog printed:\n%s", out)
			}
		})
	}
}

// TestCondenseKeepsPlainOutput: output without a goroutine dump passes
// unchanged.
func TestCondenseKeepsPlainOutput(t *testing.T) {
	t.Parallel()
	in := []string{"=== RUN   TestX\n", "    x_test.go:3: got 1, want 2\n", "--- FAIL: TestX (0.00s)\n"}
	got := condense(in)
	if strings.Join(got, "") != strings.Join(in, "") {
		t.Errorf("condense changed plain output:\n%q", got)
	}
}
