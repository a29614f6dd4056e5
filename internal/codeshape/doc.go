// Package codeshape holds no code: its test checks the shape of the
// repository's Go code, the limits STYLE.md and issues 11 and 24 set.
package codeshape
