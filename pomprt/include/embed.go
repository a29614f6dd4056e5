// Package include embeds pomp.h, the interface between instrumented code
// and the runtime, so that the gopari command can install and check it.
package include

import _ "embed"

//go:generate sh -c "gcc -E -P -x c pomp.h > pomp_c.i && g++ -E -P -x c++ pomp.h > pomp_cxx.ii"

// PompH is the text of pomp.h.
//
//go:embed pomp.h
var PompH []byte

// PompC and PompCXX are pomp.h preprocessed for C and for C++: the
// interface that files compiled as preprocessed input (.i, .ii) carry
// instead of #include "pomp.h". They depend only on __GNUC__ and
// __cplusplus; go generate remakes them, and a test keeps them in sync.
var (
	//go:embed pomp_c.i
	PompC []byte
	//go:embed pomp_cxx.ii
	PompCXX []byte
)
