package fortran

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"gopari/internal/atomicfile"
)

// TablePath names the region table written beside an instrumented
// Fortran file out: x.pomp.f90 -> x.pomp_regions.c.
func TablePath(out string) string {
	return strings.TrimSuffix(out, filepath.Ext(out)) + "_regions.c"
}

// InstrumentFile instruments the Fortran file file into out, and its
// region table into TablePath(out), both atomically, nothing when the
// file has errors. form is "free", "fixed" or "" (by the suffix). It
// returns the file's warnings.
func InstrumentFile(file, out, form string, o Options) ([]Diag, error) {
	src, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	switch form {
	case "free":
		o.Form = Free
	case "fixed":
		o.Form = Fixed
	default:
		o.Form, _, _ = FormOf(file)
	}
	if o.Name == "" {
		o.Name = file
	}
	if abs, err := filepath.Abs(out); err == nil {
		o.Salt = abs
	}
	res, err := Instrument(src, o)
	if err != nil {
		return nil, err
	}
	if err := atomicfile.WriteFile(out, res.Fortran); err != nil {
		return res.Warnings, err
	}
	table := TablePath(out)
	if res.Table == nil {
		if err := os.Remove(table); err != nil && !os.IsNotExist(err) {
			return res.Warnings, fmt.Errorf("cannot remove the stale %s: %v", table, err)
		}
		return res.Warnings, nil
	}
	return res.Warnings, atomicfile.WriteFile(table, res.Table)
}
