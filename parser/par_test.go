package parser

import "gopari/internal/par"

// The passes in chunks are tested whatever the machine's load.
func init() { par.SetUseful(true) }
