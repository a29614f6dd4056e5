//go:build otf2

package otf2

/*
#include <stdlib.h>
#include <otf2/otf2.h>
*/
import "C"

import (
	"os"
	"sort"
	"strings"
	"unsafe"

	"gopari/internal/profile"
	"gopari/internal/timeline"
)

// attrDropped is the attribute that a MEASUREMENT_ON_OFF record which
// opens a gap carries: the number of records the runtime dropped there.
const attrDropped = C.OTF2_AttributeRef(0)

type regionDef struct {
	name, file string
	role       C.OTF2_RegionRole
	paradigm   C.OTF2_Paradigm
	begin, end int
}

// roles, the roles of the region kinds, are generated from
// internal/constructs's list (roles_gen.go).

// mpiRoles are the roles of the MPI calls that are not plain functions,
// as Score-P gives them.
var mpiRoles = map[string]C.OTF2_RegionRole{
	"Barrier": C.OTF2_REGION_ROLE_BARRIER, "Bcast": C.OTF2_REGION_ROLE_COLL_ONE2ALL, "Scatter": C.OTF2_REGION_ROLE_COLL_ONE2ALL,
	"Scatterv": C.OTF2_REGION_ROLE_COLL_ONE2ALL, "Reduce": C.OTF2_REGION_ROLE_COLL_ALL2ONE, "Gather": C.OTF2_REGION_ROLE_COLL_ALL2ONE,
	"Gatherv": C.OTF2_REGION_ROLE_COLL_ALL2ONE, "Allreduce": C.OTF2_REGION_ROLE_COLL_ALL2ALL, "Allgather": C.OTF2_REGION_ROLE_COLL_ALL2ALL,
	"Allgatherv": C.OTF2_REGION_ROLE_COLL_ALL2ALL, "Alltoall": C.OTF2_REGION_ROLE_COLL_ALL2ALL, "Alltoallv": C.OTF2_REGION_ROLE_COLL_ALL2ALL,
	"Reduce_scatter": C.OTF2_REGION_ROLE_COLL_ALL2ALL, "Reduce_scatter_block": C.OTF2_REGION_ROLE_COLL_ALL2ALL,
	"Scan": C.OTF2_REGION_ROLE_COLL_OTHER, "Exscan": C.OTF2_REGION_ROLE_COLL_OTHER,
}

// mpiRole is the role of an MPI call: a collective's, point to point for
// sends, receives and probes, else a function.
func mpiRole(name string) C.OTF2_RegionRole {
	call := strings.TrimPrefix(name, "MPI_")
	if r, ok := mpiRoles[call]; ok {
		return r
	}
	for _, p := range []string{"Send", "Ssend", "Bsend", "Rsend", "Isend", "Issend", "Ibsend", "Irsend", "Recv", "Irecv", "Sendrecv", "Probe", "Iprobe"} {
		if call == p || strings.HasPrefix(call, p+"_") {
			return C.OTF2_REGION_ROLE_POINT2POINT
		}
	}
	return C.OTF2_REGION_ROLE_FUNCTION
}

// define describes region r seen as kind, named as every view names a
// frame (profile.Region.FrameName).
func define(r *profile.Region, kind uint8) regionDef {
	if r.Kind == "mpi" {
		return regionDef{name: r.Name, role: mpiRole(r.Name), paradigm: C.OTF2_PARADIGM_MPI}
	}
	d := regionDef{name: r.FrameName(frameName(kind)), file: r.File, role: roles[r.Kind], paradigm: C.OTF2_PARADIGM_OPENMP, begin: r.BeginLine, end: r.EndLine}
	if r.Kind == "task" && r.HasFlag("untied") {
		d.role = C.OTF2_REGION_ROLE_TASK_UNTIED
	}
	switch kind {
	case kindTask:
		if r.Kind == "taskloop" {
			d.role = C.OTF2_REGION_ROLE_TASK
		}
	case kindClosing, uint8(timeline.FrameBarrier):
		d.role = C.OTF2_REGION_ROLE_IMPLICIT_BARRIER
	case uint8(timeline.FrameBody):
		switch r.Kind {
		case "sections":
			d.role = C.OTF2_REGION_ROLE_SECTION
		case "single":
			d.role = C.OTF2_REGION_ROLE_SINGLE_SBLOCK
		case "critical":
			d.role = C.OTF2_REGION_ROLE_CRITICAL_SBLOCK
		case "ordered":
			d.role = C.OTF2_REGION_ROLE_ORDERED_SBLOCK
		default:
			d.role = C.OTF2_REGION_ROLE_CODE
		}
	case uint8(timeline.FrameWait):
		d.role = C.OTF2_REGION_ROLE_TASK_WAIT
	case uint8(timeline.FrameCreate):
		d.role = C.OTF2_REGION_ROLE_TASK_CREATE
	case uint8(timeline.FrameChunk):
		d.role = C.OTF2_REGION_ROLE_LOOP
	}
	return d
}

// frameName is the frame of profile.Region.FrameName that kind is.
func frameName(kind uint8) string {
	switch kind {
	case kindTask:
		return "task"
	case kindClosing, uint8(timeline.FrameBarrier):
		return "barrier"
	case uint8(timeline.FrameBody):
		return "body"
	case uint8(timeline.FrameWait):
		return "wait"
	case uint8(timeline.FrameCreate):
		return "create"
	case uint8(timeline.FrameChunk):
		return "chunk"
	}
	return "construct"
}

// definitions writes the global definitions: strings, the clock, the
// paradigms, the system tree, a location group per source, the
// locations, regions, groups and thread teams.
func (x *exporter) definitions(g *C.OTF2_GlobalDefWriter) error {
	var err error
	do := func(what string, e C.OTF2_ErrorCode) {
		if err == nil {
			err = check("defining "+what, e)
		}
	}
	// Name every string first: definitions refer to them.
	node, class := x.nodeName()
	x.str(node)
	x.str(class)
	for _, s := range append([]string{"OpenMP", "MPI", "OpenMP threads", "", "dropped records",
		"records the runtime dropped in this gap (GOPARI_TRACE_MAX_BYTES, a full disk)"}, x.groups...) {
		x.str(s)
	}
	for _, l := range x.locs {
		x.str(l.name)
	}
	for _, d := range x.regDefs {
		x.str(d.name)
		x.str(d.file)
	}
	for _, o := range x.osGroups {
		x.str(o.name)
	}
	for _, c := range x.comms {
		x.str(c.name)
	}
	x.sampleStrings()
	for i, s := range x.strList {
		cs := C.CString(s)
		do("a string", C.OTF2_GlobalDefWriter_WriteString(g, C.OTF2_StringRef(i), cs))
		C.free(unsafe.Pointer(cs))
	}
	realtime := C.uint64_t(C.OTF2_UNDEFINED_TIMESTAMP)
	if x.realtimeOf != nil {
		realtime = C.uint64_t(x.realtimeOf(x.min))
	}
	res := C.uint64_t(1e9) // a job's nanoseconds
	if x.job == "" {
		res = C.uint64_t(x.ticksPerSecond)
	}
	do("the clock", C.OTF2_GlobalDefWriter_WriteClockProperties(g, res, C.uint64_t(x.min), C.uint64_t(x.max-x.min), realtime))
	do("the paradigm", C.OTF2_GlobalDefWriter_WriteParadigm(g, C.OTF2_PARADIGM_OPENMP, x.strings["OpenMP"], C.OTF2_PARADIGM_CLASS_THREAD_FORK_JOIN))
	if x.mpi {
		do("the paradigm", C.OTF2_GlobalDefWriter_WriteParadigm(g, C.OTF2_PARADIGM_MPI, x.strings["MPI"], C.OTF2_PARADIGM_CLASS_PROCESS))
	}
	if x.dropAttr {
		do("an attribute", C.OTF2_GlobalDefWriter_WriteAttribute(g, attrDropped, x.strings["dropped records"],
			x.strings["records the runtime dropped in this gap (GOPARI_TRACE_MAX_BYTES, a full disk)"], C.OTF2_TYPE_UINT64))
	}
	do("the machine", C.OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, x.strings[node], x.strings[class], C.OTF2_UNDEFINED_SYSTEM_TREE_NODE))
	for i, name := range x.groups {
		do("a process", C.OTF2_GlobalDefWriter_WriteLocationGroup(g, C.OTF2_LocationGroupRef(i), x.strings[name],
			C.OTF2_LOCATION_GROUP_TYPE_PROCESS, 0, C.OTF2_UNDEFINED_LOCATION_GROUP))
	}
	for i, l := range x.locs {
		do("a location", C.OTF2_GlobalDefWriter_WriteLocation(g, C.OTF2_LocationRef(i), x.strings[l.name], C.OTF2_LOCATION_TYPE_CPU_THREAD,
			C.uint64_t(l.events), C.OTF2_LocationGroupRef(l.group)))
	}
	for i, d := range x.regDefs {
		file := x.strings[d.file]
		if d.file == "" {
			file = C.OTF2_UNDEFINED_STRING
		}
		do("a region", C.OTF2_GlobalDefWriter_WriteRegion(g, C.OTF2_RegionRef(i), x.strings[d.name], x.strings[d.name], x.strings[""],
			d.role, d.paradigm, C.OTF2_REGION_FLAG_NONE, file, C.uint32_t(d.begin), C.uint32_t(d.end)))
	}
	do("the groups", x.groupDefs(g))
	do("the samples' calling contexts", x.sampleDefinitions(g))
	return err
}

// nodeName names the system tree's root: the machine the run ran on
// (this one: the profile does not say), or the MPI job, whose ranks may
// have run on several.
func (x *exporter) nodeName() (name, class string) {
	if x.job != "" {
		return "MPI job " + x.job, "job"
	}
	host, _ := os.Hostname()
	if host == "" {
		host = "machine"
	}
	return host, "machine"
}

// groupDefs writes the groups: the locations each OS thread acted as;
// every location, for the thread teams; each team's members, and the
// teams.
func (x *exporter) groupDefs(g *C.OTF2_GlobalDefWriter) C.OTF2_ErrorCode {
	gid := C.OTF2_GroupRef(0)
	group := func(name C.OTF2_StringRef, typ C.OTF2_GroupType, paradigm C.OTF2_Paradigm, members []uint64) (C.OTF2_GroupRef, C.OTF2_ErrorCode) {
		var p *C.uint64_t
		if len(members) > 0 {
			p = (*C.uint64_t)(unsafe.Pointer(&members[0]))
		}
		e := C.OTF2_GlobalDefWriter_WriteGroup(g, gid, name, typ, paradigm, C.OTF2_GROUP_FLAG_NONE, C.uint32_t(len(members)), p)
		gid++
		return gid - 1, e
	}
	for _, o := range x.osGroups {
		if _, e := group(x.strings[o.name], C.OTF2_GROUP_TYPE_LOCATIONS, C.OTF2_PARADIGM_UNKNOWN, o.members); e != C.OTF2_SUCCESS {
			return e
		}
	}
	all := make([]uint64, len(x.locs))
	for i := range all {
		all[i] = uint64(i)
	}
	if _, e := group(x.strings["OpenMP threads"], C.OTF2_GROUP_TYPE_COMM_LOCATIONS, C.OTF2_PARADIGM_OPENMP, all); e != C.OTF2_SUCCESS {
		return e
	}
	for i, c := range x.comms {
		gr, e := group(x.strings[""], C.OTF2_GROUP_TYPE_COMM_GROUP, C.OTF2_PARADIGM_OPENMP, c.members)
		if e == C.OTF2_SUCCESS {
			e = C.OTF2_GlobalDefWriter_WriteComm(g, C.OTF2_CommRef(i), x.strings[c.name], gr, c.parent, C.OTF2_COMM_FLAG_NONE)
		}
		if e != C.OTF2_SUCCESS {
			return e
		}
	}
	return C.OTF2_SUCCESS
}

func sortedKeys(m map[int]bool) []uint64 {
	out := make([]uint64, 0, len(m))
	for k := range m {
		out = append(out, uint64(k))
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}
