// Package codeshape holds no code: its test checks the shape of the
// repository's Go code, the limits STYLE.md and issue 11 set.
package codeshape
