package wrapper

// Where gopari finds its runtime: used by gopari cc and gopari config.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// RuntimePaths finds pomp.h's directory and libpomp.a: below
// GOPARI_PREFIX, or relative to the gopari executable, installed
// (PREFIX/bin, PREFIX/include, PREFIX/lib) or in its source tree (bin,
// build/include, build/lib).
func RuntimePaths() (string, string, error) {
	var roots []string
	if pre := os.Getenv("GOPARI_PREFIX"); pre != "" {
		roots = append(roots, pre)
	} else if exe, err := os.Executable(); err == nil {
		if exe, err = filepath.EvalSymlinks(exe); err == nil {
			top := filepath.Dir(filepath.Dir(exe))
			roots = append(roots, top, filepath.Join(top, "build"))
		}
	}
	for _, r := range roots {
		inc, lib := filepath.Join(r, "include"), filepath.Join(r, "lib", "libpomp.a")
		if _, err := os.Stat(filepath.Join(inc, "pomp.h")); err != nil {
			continue
		}
		if _, err := os.Stat(lib); err != nil {
			continue
		}
		return inc, lib, nil
	}
	return "", "", fmt.Errorf("cannot find libpomp.a and pomp.h (looked in %s); build them with make, or set GOPARI_PREFIX", strings.Join(roots, ", "))
}
