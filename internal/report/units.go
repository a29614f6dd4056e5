package report

import "fmt"

// ms and us print nanoseconds as milliseconds and microseconds.
func ms(ns uint64) string { return fmt.Sprintf("%.3f", float64(ns)/1e6) }

func us(ns float64) string { return fmt.Sprintf("%.2f", ns/1e3) }
