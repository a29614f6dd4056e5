package atomicfile

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
)

// TempPrefix is the start of the name of the temporary file or directory
// in which an output named target is made, beside it, before it is
// renamed: ".NAME.gopari-", then random hex and ".tmp".
func TempPrefix(target string) string { return "." + filepath.Base(target) + ".gopari-" }

// CleanupOnSignal watches for SIGINT, SIGTERM and SIGHUP while command
// cmd writes its outputs (files or directories made as Write makes them): on one, it removes the temporary file or
// directory each output was being made in (".NAME.gopari-*.tmp" beside
// it, those that were not there before), and exits with 128 + the
// signal's number. It returns the function that stops watching.
func CleanupOnSignal(stderr io.Writer, cmd string, outputs ...string) func() {
	var patterns []string
	before := map[string]bool{}
	for _, o := range outputs {
		if o == "" {
			continue
		}
		p := filepath.Join(filepath.Dir(o), TempPrefix(o)+"*.tmp")
		patterns = append(patterns, p)
		old, _ := filepath.Glob(p)
		for _, m := range old {
			before[m] = true
		}
	}
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			for _, p := range patterns {
				now, _ := filepath.Glob(p)
				for _, m := range now {
					if !before[m] {
						os.RemoveAll(m)
					}
				}
			}
			fmt.Fprintf(stderr, "gopari: %s: stopped by %v; no output written\n", cmd, sig)
			os.Exit(128 + int(sig.(syscall.Signal)))
		case <-done:
		}
	}()
	return func() {
		signal.Stop(ch)
		close(done)
	}
}
