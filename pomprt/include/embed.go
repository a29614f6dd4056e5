// Package include embeds pomp.h, the interface between instrumented code
// and the runtime, so that the gopari command can install and check it.
package include

import _ "embed"

// PompH is the text of pomp.h.
//
//go:embed pomp.h
var PompH []byte
