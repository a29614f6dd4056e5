//go:build !linux

package mem

// HugePages does nothing here.
func HugePages[T any](b []T) {}
