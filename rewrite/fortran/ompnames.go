package fortran

import (
	"regexp"
	"sort"
	"strings"
	"sync"
)

// gfortran takes a function that a procedure declares only by its type
// (INTEGER OMP_GET_THREAD_NUM, without EXTERNAL or use omp_lib) for a
// variable when the procedure calls it only inside a BLOCK construct,
// which is where gopari puts a construct's body: "is not a function".
// Older OpenMP codes declare the runtime's functions that way (CloverLeaf
// does), so the block around a body that calls one of them uses omp_lib
// for it, which names the same function. Other functions declared so
// need EXTERNAL (docs/fortran.md).

// ompFunctions are the functions of omp_lib that a body may call.
var ompFunctions = words("omp_get_thread_num omp_get_num_threads omp_get_max_threads omp_get_num_procs " +
	"omp_in_parallel omp_get_dynamic omp_get_nested omp_get_wtime omp_get_wtick omp_get_level " +
	"omp_get_active_level omp_get_ancestor_thread_num omp_get_team_size omp_get_thread_limit " +
	"omp_get_max_active_levels omp_in_final omp_get_cancellation omp_get_proc_bind omp_get_num_places " +
	"omp_get_place_num omp_get_default_device omp_get_num_devices omp_get_num_teams omp_get_team_num " +
	"omp_is_initial_device omp_get_initial_device omp_get_max_task_priority omp_test_lock omp_test_nest_lock")

var ompCallRx = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?:^|[^A-Z0-9_%])(OMP_[A-Z0-9_]+)\(`) })

// ompUse returns the use statement of omp_lib for the runtime functions
// that the items after k up to e call, or nil.
func (r *rw) ompUse(k, e int) []string {
	seen := map[string]bool{}
	for j := k + 1; j <= e && j < len(r.its); j++ {
		for _, m := range ompCallRx().FindAllStringSubmatch(r.its[j].norm, -1) {
			if n := strings.ToLower(m[1]); ompFunctions[n] {
				seen[n] = true
			}
		}
	}
	if len(seen) == 0 {
		return nil
	}
	var names []string
	for n := range seen {
		names = append(names, n)
	}
	sort.Strings(names)
	return []string{"use omp_lib, only: " + strings.Join(names, ", ")}
}
