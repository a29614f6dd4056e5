package wrapper

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// MPI (issue 16). When gopari cc links with an MPI compiler wrapper
// (mpicc, mpicxx, mpic++, ...), or the link line names an MPI library (as
// CMake's find_package(MPI) writes it), MPI calls are measured too:
// libpomp_mpi.a, from beside libpomp.a, goes on the link line before the
// first MPI library, so that the program's MPI calls resolve to its
// wrappers, which call PMPI.

var mpiWrapper = regexp.MustCompile(`^mpi(cc|cxx|c\+\+|CC|gcc|g\+\+|icc|icpc|icx|icpx|clang|clang\+\+|f90|f77|fort|ifort|ifx)([-.][^/]*)?$`)

// isMPILib reports whether a link argument names an MPI library.
func isMPILib(a string) bool {
	base := filepath.Base(a)
	return strings.HasPrefix(a, "-lmpi") || strings.HasPrefix(base, "libmpi.") || strings.HasPrefix(base, "libmpi_") ||
		strings.HasPrefix(base, "libmpich")
}

// withMPILib returns the link command argv with libpomp_mpi.a in it, when
// the link is an MPI program's.
func (p *plan) withMPILib(argv []string) []string {
	at := -1
	for i, a := range argv[len(p.compiler):] {
		if isMPILib(a) {
			at = len(p.compiler) + i
			break
		}
	}
	if at < 0 && !mpiWrapper.MatchString(filepath.Base(p.compiler[len(p.compiler)-1])) {
		return argv
	}
	lib := filepath.Join(filepath.Dir(p.lib), "libpomp_mpi.a")
	if _, err := os.Stat(lib); err != nil {
		fmt.Fprintf(p.stderr, "gopari: warning: %s is missing: MPI calls are not measured (make builds it where mpicc is installed)\n", lib)
		return argv
	}
	if at < 0 {
		return append(argv, lib)
	}
	return append(append(append([]string(nil), argv[:at]...), lib), argv[at:]...)
}
