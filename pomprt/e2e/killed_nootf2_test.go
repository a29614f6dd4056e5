//go:build !otf2

package e2e

import "testing"

// killedOTF2 checks the OTF2 export of a killed run where gopari has
// OTF2 (killed_otf2_test.go); this build has none.
func killedOTF2(t *testing.T, what, dir string, raw rawStream) {}
