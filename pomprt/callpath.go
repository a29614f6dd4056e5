package main

/*
#include <stdlib.h>
#include "rt.h"
void pomp_cp_totals(uint64_t *unmatched, uint64_t *lost);
int pomp_cp_go_ready(void);
const char *pomp_cp_embedded_filter(const char **name);
*/
import "C"

import (
	"bufio"
	"debug/dwarf"
	"debug/elf"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"unsafe"

	"gopari/internal/filter"
	"gopari/internal/profile"
)

// Call paths (callpath.c records them): at exit, the tree and each
// location's counters become profile.CallPaths, and the memory map
// profile.Mappings; at the first hook call, the filter decides which
// functions are left out.

// frameNames name a region node's frame by its FR_* kind (rt.h).
var frameNames = map[int]string{
	C.FR_PHASE: "phase", C.FR_FORK: "fork", C.FR_IMPLICIT: "implicit", C.FR_TASK: "task", C.FR_TASKLOOP: "taskloop",
}

var phaseNames = [...]string{C.PH_CONSTRUCT: "construct", C.PH_BODY: "body", C.PH_BARRIER: "barrier", C.PH_WAIT: "wait"}

// addCallPaths adds the call paths of this process's run g, if they were
// on, and the run's mappings to p.
func addCallPaths(p *profile.Profile, g *C.pomp_rt, ck clock) {
	if C.pomp_cp.on != 1 {
		return
	}
	cp := &profile.CallPaths{MaxNodes: int(C.pomp_cp.max) - 1}
	C.pthread_mutex_lock(&C.pomp_cp.mu)
	n := int(C.pomp_cp.n)
	parents := unsafe.Slice(C.pomp_cp.parent, n)
	keys := unsafe.Slice(C.pomp_cp.key, n)
	cp.Nodes = make([]profile.CallNode, n)
	for i := 0; i < n; i++ {
		cp.Nodes[i] = callNode(i, int(parents[i]), uint64(keys[i]))
	}
	C.pthread_mutex_unlock(&C.pomp_cp.mu)
	var unmatched, lost C.uint64_t
	C.pomp_cp_totals(&unmatched, &lost)
	cp.UnmatchedCalls, cp.LostCreations = uint64(unmatched), uint64(lost)

	C.pthread_mutex_lock(&g.mu)
	locs := unsafe.Slice(g.locs, int(g.nlocs))
	for li, l := range locs {
		if l.ncp == 0 {
			continue
		}
		counts := unsafe.Slice(l.cp, int(l.ncp))
		th := profile.CallThread{Thread: li}
		for id := 0; id < len(counts) && id < n; id++ {
			c := counts[id]
			if c.visits == 0 && c.excl == 0 {
				continue
			}
			th.Nodes = append(th.Nodes, [3]uint64{uint64(id), uint64(c.visits), ck.ns(c.excl)})
			if id == C.CP_OVERFLOW {
				cp.OverflowVisits += uint64(c.visits)
			}
		}
		if len(th.Nodes) > 0 {
			cp.Threads = append(cp.Threads, th)
		}
	}
	C.pthread_mutex_unlock(&g.mu)
	p.CallPaths = cp
	p.Mappings = readMappings("/proc/self/maps")
}

// callNode is node i of the tree, with its parent and key as callpath.c
// keeps them.
func callNode(i, parent int, key uint64) profile.CallNode {
	switch {
	case i == C.CP_ROOT:
		return profile.CallNode{Parent: -1, Kind: "root"}
	case i == C.CP_OVERFLOW:
		return profile.CallNode{Parent: parent, Kind: "overflow"}
	case key&C.CP_REGION == 0:
		return profile.CallNode{Parent: parent, Kind: "function", Addr: key}
	}
	kind, phase := int(key>>4&15), int(key&15)
	nd := profile.CallNode{Parent: parent, Kind: "region", Region: int(key >> 8 & 0xffffffff), Frame: frameNames[kind]}
	if kind == C.FR_PHASE && phase < len(phaseNames) {
		nd.Phase = phaseNames[phase]
	}
	return nd
}

// readMappings returns the file mappings of a /proc/PID/maps file that
// hold code, each with its file's build ID.
func readMappings(path string) []profile.Mapping {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	ids := map[string]string{}
	var out []profile.Mapping
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		m, ok := parseMapsLine(sc.Text())
		if !ok {
			continue
		}
		id, seen := ids[m.File]
		if !seen {
			id = buildID(m.File)
			ids[m.File] = id
		}
		m.BuildID = id
		out = append(out, m)
	}
	return out
}

// parseMapsLine reads one line of /proc/PID/maps: an executable mapping
// of a file, or ok false.
func parseMapsLine(line string) (m profile.Mapping, ok bool) {
	fields := strings.Fields(line)
	if len(fields) < 6 || !strings.HasPrefix(fields[5], "/") || !strings.Contains(fields[1], "x") {
		return m, false
	}
	lo, hi, found := strings.Cut(fields[0], "-")
	if !found {
		return m, false
	}
	start, err1 := strconv.ParseUint(lo, 16, 64)
	limit, err2 := strconv.ParseUint(hi, 16, 64)
	off, err3 := strconv.ParseUint(fields[2], 16, 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return m, false
	}
	file := strings.Join(fields[5:], " ")
	if strings.HasPrefix(file, "/dev/") || strings.HasSuffix(file, " (deleted)") {
		return m, false
	}
	return profile.Mapping{Start: start, Limit: limit, Offset: off, File: file}, true
}

// buildID returns the GNU build ID of ELF file name, in hex, or "".
func buildID(name string) string {
	f, err := elf.Open(name)
	if err != nil {
		return ""
	}
	defer f.Close()
	for _, s := range f.Sections {
		if s.Type != elf.SHT_NOTE {
			continue
		}
		data, err := s.Data()
		if err != nil {
			continue
		}
		if id := noteBuildID(data, f.ByteOrder); id != "" {
			return id
		}
	}
	return ""
}

// noteBuildID finds the NT_GNU_BUILD_ID note in a note section's data.
func noteBuildID(data []byte, bo binary.ByteOrder) string {
	for len(data) >= 12 {
		namesz, descsz, typ := bo.Uint32(data), bo.Uint32(data[4:]), bo.Uint32(data[8:])
		nameEnd := 12 + (uint64(namesz)+3)&^3
		descEnd := nameEnd + (uint64(descsz)+3)&^3
		if descEnd > uint64(len(data)) {
			return ""
		}
		if typ == 3 && namesz == 4 && string(data[12:15]) == "GNU" {
			return hex.EncodeToString(data[nameEnd : nameEnd+uint64(descsz)])
		}
		data = data[descEnd:]
	}
	return ""
}

// ---------------------------------------------------------------------
// The run-time filter.

//export pompGoCallpathExcluded
func pompGoCallpathExcluded(out **C.uint64_t) C.int {
	f := runtimeFilter()
	addrs := excludedFunctions("/proc/self/exe", "/proc/self/maps", f)
	if len(addrs) == 0 {
		return 0
	}
	a := (*C.uint64_t)(C.malloc(C.size_t(len(addrs)) * 8))
	if a == nil {
		return 0
	}
	copy(unsafe.Slice((*uint64)(unsafe.Pointer(a)), len(addrs)), addrs)
	*out = a
	return C.int(len(addrs))
}

// runtimeFilter returns the filter in force: GOPARI_FILTER's file, else
// the one gopari cc --filter embedded (pomp_callpath_filter), else none.
// A file that cannot be read or parsed is said once, and no filter holds.
func runtimeFilter() *filter.Filter {
	if name := os.Getenv("GOPARI_FILTER"); name != "" {
		f, _, err := filter.ReadFile(name)
		if err != nil {
			fmt.Fprintf(os.Stderr, "gopari: GOPARI_FILTER: %v; no filter is applied\n", err)
			return nil
		}
		return f
	}
	var cname *C.char
	src := C.pomp_cp_embedded_filter(&cname)
	if src == nil {
		return nil
	}
	name := "the program's filter"
	if cname != nil {
		name = C.GoString(cname)
	}
	f, err := filter.Parse(name, []byte(C.GoString(src)))
	if err != nil {
		fmt.Fprintf(os.Stderr, "gopari: %v; no filter is applied\n", err)
		return nil
	}
	return f
}

// excludedFunctions returns the sorted entry addresses, in this process,
// of the executable's functions that are not measured: those the filter
// excludes, and the default exclusions (ownFunction).
func excludedFunctions(exe, maps string, flt *filter.Filter) []uint64 {
	syms, bias, err := functionSymbols(exe, maps, flt != nil && len(flt.Files) > 0)
	if err != nil {
		return nil
	}
	var out []uint64
	for _, s := range syms {
		if ownFunction(s.name) || !flt.Function(s.name, s.mangled, s.file) {
			out = append(out, s.addr+bias)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// ownFunction reports the functions left out by default: gopari's own
// (pomp_register, pomp_r: gopari owns the pomp_ prefix), and the C++
// standard library's (std::, __gnu_cxx::), which clang, unlike gcc, does
// not leave out at compile time.
func ownFunction(name string) bool {
	for _, p := range []string{"pomp_", "POMP_", "std::", "__gnu_cxx::", "_ZSt", "_ZNSt", "_ZNKSt", "_ZN9__gnu_cxx", "_ZNK9__gnu_cxx"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// A funcSym is a function of the executable: its entry address in the
// file, its name as the user reads it and its mangled name, and its
// source file where DWARF says (read only for a filter with file rules:
// it takes tens of milliseconds).
type funcSym struct {
	addr                uint64
	name, mangled, file string
}

// functionSymbols reads the function symbols of ELF file exe and the
// load bias of the executable mapped as maps shows. This is the one
// place that resolves names at run time; demangledName is where C++
// names get their demangled form.
func functionSymbols(exe, maps string, withFiles bool) ([]funcSym, uint64, error) {
	f, err := elf.Open(exe)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	syms, err := f.Symbols()
	if err != nil || len(syms) == 0 {
		if syms, err = f.DynamicSymbols(); err != nil {
			return nil, 0, err
		}
	}
	var files map[uint64]string
	if withFiles {
		files = dwarfFiles(f)
	}
	var out []funcSym
	for _, s := range syms {
		if elf.ST_TYPE(s.Info) != elf.STT_FUNC || s.Value == 0 {
			continue
		}
		out = append(out, funcSym{addr: s.Value, name: demangledName(s.Name), mangled: s.Name, file: files[s.Value]})
	}
	return out, loadBias(f, exe, maps), nil
}

// demangledName returns the name of a function as the user reads it.
// github.com/ianlancetaylor/demangle is not a dependency of this module
// yet: a mangled C++ name stays mangled (filter rules with MANGLED
// match it; the lead points this at internal/symbols once merged).
func demangledName(mangled string) string { return mangled }

// dwarfFiles maps the entry addresses of the functions that DWARF
// describes to their source files; empty without DWARF.
func dwarfFiles(f *elf.File) map[uint64]string {
	out := map[uint64]string{}
	d, err := f.DWARF()
	if err != nil {
		return out
	}
	r := d.Reader()
	var lines []*dwarf.LineFile
	for {
		e, err := r.Next()
		if err != nil || e == nil {
			return out
		}
		switch e.Tag {
		case dwarf.TagCompileUnit:
			lines = nil
			if lr, err := d.LineReader(e); err == nil && lr != nil {
				lines = lr.Files()
			}
		case dwarf.TagSubprogram:
			lo, ok := e.Val(dwarf.AttrLowpc).(uint64)
			fi, ok2 := e.Val(dwarf.AttrDeclFile).(int64)
			if ok && ok2 && fi >= 0 && int(fi) < len(lines) && lines[fi] != nil {
				out[lo] = lines[fi].Name
			}
		}
	}
}

// loadBias returns where the executable f was loaded relative to its
// link addresses: 0 unless it is position-independent.
func loadBias(f *elf.File, exe, maps string) uint64 {
	if f.Type != elf.ET_DYN {
		return 0
	}
	target, err := os.Readlink(exe)
	if err != nil {
		target = exe
	}
	var low uint64 = ^uint64(0)
	for _, p := range f.Progs {
		if p.Type == elf.PT_LOAD && p.Off == 0 && p.Vaddr < low {
			low = p.Vaddr
		}
	}
	if low == ^uint64(0) {
		low = 0
	}
	mf, err := os.Open(maps)
	if err != nil {
		return 0
	}
	defer mf.Close()
	sc := bufio.NewScanner(mf)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 6 || strings.Join(fields[5:], " ") != target || fields[2] != "00000000" {
			continue
		}
		lo, _, _ := strings.Cut(fields[0], "-")
		start, err := strconv.ParseUint(lo, 16, 64)
		if err == nil {
			return start - low&^0xfff
		}
	}
	return 0
}
