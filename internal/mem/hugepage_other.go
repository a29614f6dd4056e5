//go:build !linux

package mem

// HugePages does nothing here.
func HugePages[T any](b []T) {}

// Prefault does nothing here.
func Prefault[T any](b []T, n int) {}

// Huge returns make([]T, 0, n) here.
func Huge[T any](n int) []T { return make([]T, 0, n) }
