package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// Counts that do not depend on the CPU or the load: what valgrind's
// callgrind sees a program execute.
type execCounts struct {
	instr float64 // instructions executed, all threads
	clock float64 // clock reads: rdtsc/rdtscp executed in the program, calls of clock_gettime
}

// callgrind runs exe with args under valgrind --tool=callgrind (one
// thread), in profile mode, and counts its instructions and clock reads.
func (b *bench) callgrind(exe string, args ...string) execCounts {
	return b.callgrindIn("profile", exe, args...)
}

// callgrindIn is callgrind in a measurement mode (modeEnv). Go's
// asynchronous preemption is off: its signals make callgrind 3.19 abort.
func (b *bench) callgrindIn(mode, exe string, args ...string) execCounts {
	dir, err := os.MkdirTemp(b.work, "cg-")
	if err != nil {
		fatalf("%v", err)
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "callgrind.out") // runs may go on at once
	argv := append([]string{"--tool=callgrind", "--dump-instr=yes", "--dump-line=no", "--compress-strings=no",
		"--compress-pos=no", "--callgrind-out-file=" + out, exe}, args...)
	cmd := exec.Command("valgrind", argv...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "OMP_NUM_THREADS=1", "GODEBUG=asyncpreemptoff=1",
		"GOPARI_EXPERIMENT_DIRECTORY="+filepath.Join(dir, "exp")), modeEnv(mode)...)
	if msg, err := cmd.CombinedOutput(); err != nil {
		fatalf("valgrind %s: %v\n%s", exe, err, msg)
	}
	return countCallgrind(out, exe)
}

// countCallgrind reads callgrind's output (uncompressed names and
// positions, one position per instruction): the total instructions, and
// the executions of the program's rdtsc and rdtscp instructions, found
// by objdump and placed where callgrind saw main's entry, plus the calls
// of clock_gettime.
func countCallgrind(out, exe string) execCounts {
	tsc, mainAt := tscAddrs(exe)
	f, err := os.Open(out)
	if err != nil {
		fatalf("%v", err)
	}
	defer f.Close()
	var c execCounts
	exeFile, _ := filepath.Abs(exe)
	at := map[uint64]float64{} // the program's instructions: executions
	var ob, fn, cfn string
	mainEntry := ^uint64(0)
	skip := false // the line after calls= is the call's inclusive cost
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "summary:"):
			c.instr, _ = strconv.ParseFloat(strings.TrimSpace(line[len("summary:"):]), 64)
		case strings.HasPrefix(line, "ob="):
			ob = line[3:]
		case strings.HasPrefix(line, "fn="):
			fn = line[3:]
		case strings.HasPrefix(line, "cfn="):
			cfn = line[4:]
		case strings.HasPrefix(line, "calls="):
			skip = true
			if strings.Contains(cfn, "clock_gettime") {
				n, _ := strconv.ParseFloat(strings.Fields(line[len("calls="):])[0], 64)
				c.clock += n
			}
		case strings.HasPrefix(line, "0x"):
			if skip {
				skip = false
				continue
			}
			fs := strings.Fields(line)
			addr, err1 := strconv.ParseUint(fs[0], 0, 64)
			if len(fs) < 2 || err1 != nil || !sameFile(ob, exeFile) {
				continue
			}
			n, _ := strconv.ParseFloat(fs[1], 64)
			at[addr] += n
			if fn == "main" && addr < mainEntry {
				mainEntry = addr
			}
		}
	}
	if err := sc.Err(); err != nil {
		fatalf("reading %s: %v", out, err)
	}
	if c.instr == 0 || mainEntry == ^uint64(0) {
		fatalf("callgrind's output for %s has no total or no main", exe)
	}
	for _, a := range tsc {
		c.clock += at[a-mainAt+mainEntry]
	}
	return c
}

func sameFile(a, b string) bool {
	if a == b {
		return true
	}
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}

// tscAddrs returns the addresses of exe's rdtsc and rdtscp instructions
// and of main, as the file has them (objdump -d).
func tscAddrs(exe string) (tsc []uint64, mainAt uint64) {
	out, err := exec.Command("objdump", "-d", "--no-show-raw-insn", exe).Output()
	if err != nil {
		fatalf("objdump %s: %v", exe, err)
	}
	for _, line := range strings.Split(string(out), "\n") {
		fs := strings.Fields(line)
		if len(fs) == 2 && fs[1] == "<main>:" {
			mainAt, _ = strconv.ParseUint(fs[0], 16, 64)
		}
		if len(fs) >= 2 && strings.HasSuffix(fs[0], ":") && (fs[1] == "rdtsc" || fs[1] == "rdtscp") {
			a, err := strconv.ParseUint(strings.TrimSuffix(fs[0], ":"), 16, 64)
			if err == nil {
				tsc = append(tsc, a)
			}
		}
	}
	if mainAt == 0 {
		fatalf("objdump finds no main in %s", exe)
	}
	return tsc, mainAt
}
