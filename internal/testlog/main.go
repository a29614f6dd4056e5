// Command testlog turns the JSON events of "go test -json" into what make
// test prints: a line per package as it finishes, a line per top-level
// test that took a while (so that the long end-to-end package shows
// progress), the output of every failed test, a note every half minute
// naming the tests still running, and at the end the list of what was
// skipped and why. It exits 1 if a test or a build failed.
//
// Every failure comes with its reason: a failed test with its output, a
// build with the compiler's, and a package whose test binary died (a
// panic, go test's -timeout) with the output of the tests it was running
// — where go test -json puts "panic: test timed out after ..." and the
// list of running tests — its goroutine dump cut to the stacks that pass
// through test files.
//
// Usage:
//
//	go test -json ./... | go run ./internal/testlog [-note 'what: why']...
//
// A -note adds a skip that happened before the tests ran, such as a
// package not compiled for lack of a library.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strings"
	"time"
)

// event is one line of go test -json (cmd/test2json).
type event struct {
	Time       time.Time
	Action     string
	Package    string
	ImportPath string // build-output and build-fail events
	Test       string
	Elapsed    float64
	Output     string
}

type notes []string

func (n *notes) String() string     { return strings.Join(*n, "; ") }
func (n *notes) Set(v string) error { *n = append(*n, v); return nil }

func main() {
	var extra notes
	flag.Var(&extra, "note", "a skip that happened before the tests ran, as 'what: why' (repeatable)")
	slow := flag.Duration("slow", time.Second, "print top-level tests that take at least this long")
	quiet := flag.Duration("quiet", 30*time.Second, "after this long without output, name the tests still running")
	flag.Parse()
	l := newSummary(os.Stdout, *slow)
	for _, n := range extra {
		l.skips = append(l.skips, skip{what: n})
	}
	events := make(chan event)
	go read(os.Stdin, events)
	tick := time.NewTicker(*quiet / 3)
	defer tick.Stop()
	for {
		select {
		case e, ok := <-events:
			if !ok {
				os.Exit(l.finish())
			}
			l.event(e)
		case now := <-tick.C:
			if now.Sub(l.lastPrint) >= *quiet {
				l.running(now)
			}
		}
	}
}

// read decodes events; a line that is not an event is passed on as
// output (go test prints some failures that way).
func read(r io.Reader, out chan<- event) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		out <- decode(sc.Bytes())
	}
	close(out)
}

// decode decodes a line of go test -json.
func decode(line []byte) event {
	var e event
	if err := json.Unmarshal(line, &e); err != nil || e.Action == "" {
		e = event{Action: "raw", Output: string(line) + "\n"}
	}
	return e
}

type skip struct {
	pkg, test string
	what      string // the reason, or for a note the whole line
}

type summary struct {
	w         io.Writer
	slow      time.Duration
	lastPrint time.Time
	output    map[string][]string  // "pkg test" -> output lines so far
	runs      map[string][]string  // pkg -> "pkg test" of the tests run, in order
	started   map[string]time.Time // "pkg test" -> start, for top-level tests running
	paused    map[string]bool      // parallel tests waiting for their turn
	skips     []skip
	failed    []string // "pkg test" or "pkg" of failures
	buildOut  map[string][]string
	sawEvents bool
}

func newSummary(w io.Writer, slow time.Duration) *summary {
	return &summary{w: w, slow: slow, lastPrint: time.Now(), output: map[string][]string{}, runs: map[string][]string{},
		started: map[string]time.Time{}, paused: map[string]bool{}, buildOut: map[string][]string{}}
}

func (l *summary) printf(format string, args ...any) {
	fmt.Fprintf(l.w, format, args...)
	l.lastPrint = time.Now()
}

func key(pkg, test string) string { return pkg + " " + test }

func (l *summary) event(e event) {
	l.sawEvents = true
	k := key(e.Package, e.Test)
	switch e.Action {
	case "raw":
		l.printf("%s", e.Output)
	case "build-output":
		l.buildOut[e.ImportPath] = append(l.buildOut[e.ImportPath], e.Output)
	case "build-fail":
		l.printf("%s", strings.Join(l.buildOut[e.ImportPath], ""))
		l.failed = append(l.failed, e.ImportPath+" (build)")
	case "run":
		l.runs[e.Package] = append(l.runs[e.Package], k)
		if !strings.Contains(e.Test, "/") {
			l.started[k] = e.Time
		}
	case "pause":
		l.paused[k] = true
	case "cont":
		delete(l.paused, k)
	case "output":
		l.output[k] = append(l.output[k], e.Output)
	case "pass", "fail", "skip":
		if e.Test == "" {
			l.pkgDone(e)
		} else {
			l.testDone(e, k)
		}
	}
}

// testDone reports a finished test: failures with their output, slow
// top-level tests as progress, skips for the summary.
func (l *summary) testDone(e event, k string) {
	top := !strings.Contains(e.Test, "/")
	delete(l.started, k)
	delete(l.paused, k)
	switch e.Action {
	case "fail":
		l.failed = append(l.failed, k)
		l.printf("--- FAIL: %s %s (%.1fs)\n%s", short(e.Package), e.Test, e.Elapsed, strings.Join(condense(l.output[k]), ""))
	case "skip":
		l.skips = append(l.skips, skip{pkg: e.Package, test: e.Test, what: skipReason(l.output[k])})
	case "pass":
		if top && time.Duration(e.Elapsed*float64(time.Second)) >= l.slow {
			l.printf("      %-24s %-32s ok %6.1fs\n", short(e.Package), e.Test, e.Elapsed)
		}
	}
	delete(l.output, k)
}

// pkgDone prints a package's line as go test does.
func (l *summary) pkgDone(e event) {
	k := key(e.Package, "")
	out := l.output[k]
	delete(l.output, k)
	switch {
	case e.Action == "fail":
		reason := l.unfinished(e.Package)
		if reason == "" {
			reason = panicLine(out)
		}
		if reason != "" {
			l.failed = append(l.failed, e.Package+" ("+reason+")")
		} else {
			l.failed = append(l.failed, e.Package)
		}
		// Output outside any test: a panic in TestMain, a build failure.
		l.printf("%sFAIL  %s %.1fs\n", strings.Join(condense(out), ""), e.Package, e.Elapsed)
	case e.Action == "skip":
		l.printf("?     %s [no test files]\n", e.Package)
	default:
		l.printf("ok    %s %.1fs\n", e.Package, e.Elapsed)
	}
	for _, k := range l.runs[e.Package] {
		delete(l.output, k)
		delete(l.started, k)
		delete(l.paused, k)
	}
	delete(l.runs, e.Package)
}

// unfinished prints the output of the tests of pkg that were still
// running when its test binary ended, and returns the panic that ended
// it, if any. A binary that panics or times out ends without a result
// for the tests it was running, and go test -json files the panic's
// message under one of them.
func (l *summary) unfinished(pkg string) string {
	reason := ""
	for _, k := range l.runs[pkg] {
		out, ok := l.output[k]
		if !ok || l.paused[k] {
			continue // finished, or never started after t.Parallel
		}
		_, test, _ := strings.Cut(k, " ")
		l.printf("--- UNFINISHED: %s %s\n%s", short(pkg), test, strings.Join(condense(out), ""))
		if reason == "" {
			reason = panicLine(out)
		}
	}
	return reason
}

// panicLine returns the line of a test binary's output that says why
// it died, without its newline, or "".
func panicLine(out []string) string {
	for _, line := range out {
		if strings.HasPrefix(line, "panic: ") || strings.HasPrefix(line, "fatal error: ") {
			return strings.TrimRight(line, "\n")
		}
	}
	return ""
}

// maxStacks caps the goroutine stacks that condense keeps.
const maxStacks = 10

// condense cuts the goroutine dump that follows a panic to the stacks
// that tell where tests were: the panicking goroutine's (the first,
// unless it is the timeout's alarm) and those with a frame in a test
// file, at most maxStacks. It says how many it left out.
func condense(out []string) []string {
	var kept []string
	var block []string // the goroutine stack being read
	first, left := true, 0
	stacks := 0
	flush := func() {
		if block == nil {
			return
		}
		alarm := strings.Contains(strings.Join(block, ""), "testing.(*M).startAlarm")
		inTest := strings.Contains(strings.Join(block, ""), "_test.go:")
		if stacks < maxStacks && (first && !alarm || inTest) {
			kept = append(kept, block...)
			stacks++
		} else {
			left++
		}
		first, block = false, nil
	}
	for _, line := range out {
		switch {
		case strings.HasPrefix(line, "goroutine ") && strings.HasSuffix(line, ":\n"):
			flush()
			block = []string{line}
		case block != nil && line == "\n":
			block = append(block, line)
			flush()
		case block != nil:
			block = append(block, line)
		default:
			kept = append(kept, line)
		}
	}
	flush()
	if left > 0 {
		kept = append(kept, fmt.Sprintf("(%d more goroutine stacks left out: none in a test file)\n", left))
	}
	return kept
}

// running names the top-level tests still running.
func (l *summary) running(now time.Time) {
	var names []string
	for k, t := range l.started {
		if l.paused[k] {
			continue
		}
		pkg, test, _ := strings.Cut(k, " ")
		names = append(names, fmt.Sprintf("%s %s (%.0fs)", short(pkg), test, now.Sub(t).Seconds()))
	}
	if len(names) == 0 {
		l.printf("      ... compiling\n")
		return
	}
	sort.Strings(names)
	l.printf("      ... still running: %s\n", strings.Join(names, ", "))
}

// finish prints the summary and returns the exit status.
func (l *summary) finish() int {
	if !l.sawEvents {
		l.printf("testlog: no test events on standard input\n")
		return 1
	}
	l.printSkips()
	if len(l.failed) > 0 {
		l.printf("FAILED: %s\n", strings.Join(l.failed, ", "))
		return 1
	}
	return 0
}

// printSkips lists the skips, one line per reason, naming the tests.
func (l *summary) printSkips() {
	if len(l.skips) == 0 {
		l.printf("skipped: nothing\n")
		return
	}
	byReason := map[string][]string{}
	var reasons []string
	for _, s := range l.skips {
		if s.test == "" {
			reasons = append(reasons, s.what)
			byReason[s.what] = nil
			continue
		}
		if _, ok := byReason[s.what]; !ok {
			reasons = append(reasons, s.what)
		}
		byReason[s.what] = append(byReason[s.what], short(s.pkg)+" "+s.test)
	}
	for _, r := range reasons {
		tests := byReason[r]
		switch {
		case len(tests) == 0:
			l.printf("skipped: %s\n", r)
		case len(tests) <= 3:
			l.printf("skipped: %s (%s)\n", r, strings.Join(tests, ", "))
		default:
			l.printf("skipped: %s (%s and %d more)\n", r, strings.Join(tests[:3], ", "), len(tests)-3)
		}
	}
}

var logLine = regexp.MustCompile(`^\s*([\w.-]+\.go):\d+: (.*)$`)

// skipReason finds the message of t.Skip in a test's output: the last
// line logged from a test file (testscript's own dump of the script's
// environment does not count).
func skipReason(out []string) string {
	reason := ""
	for _, line := range out {
		if m := logLine.FindStringSubmatch(strings.TrimRight(line, "\n")); m != nil && m[1] != "testscript.go" {
			reason = m[2]
		}
	}
	if reason == "" {
		return "no reason given"
	}
	return reason
}

// short drops the module name from a package path.
func short(pkg string) string {
	if i := strings.IndexByte(pkg, '/'); i >= 0 {
		return pkg[i+1:]
	}
	return pkg
}
