// Package verify parses instrumented C with modernc.org/cc/v4, an
// independent C front end, against the real pomp.h.
package verify

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"modernc.org/cc/v4"

	"gopari/pomprt/include"
)

var verifier struct {
	mu   sync.Mutex // cc.Parse is not known to be safe for concurrent use
	once sync.Once
	cfg  *cc.Config
	dir  string
	err  error
}

// Setup asks the host C compiler for its configuration once, and places
// pomp.h where the verifier finds it.
func Setup() error {
	verifier.once.Do(func() {
		cfg, err := cc.NewConfig("", "", "-fopenmp")
		if err != nil {
			verifier.err = fmt.Errorf("--verify: cannot configure the C front end: %v", err)
			return
		}
		dir, err := os.MkdirTemp("", "gopari-verify-")
		if err != nil {
			verifier.err = err
			return
		}
		if err := os.WriteFile(filepath.Join(dir, "pomp.h"), include.PompH, 0o644); err != nil {
			verifier.err = err
			return
		}
		cfg.IncludePaths = append([]string{dir}, cfg.IncludePaths...)
		cfg.ExpansionLimit = 1 << 26
		verifier.cfg, verifier.dir = cfg, dir
	})
	return verifier.err
}

// C parses an instrumented C file with modernc.org/cc/v4 and returns its
// complaints.
func C(name string, src []byte) []string {
	if Setup() != nil {
		return []string{verifier.err.Error()}
	}
	verifier.mu.Lock()
	defer verifier.mu.Unlock()
	cfg := *verifier.cfg
	srcs := []cc.Source{
		{Name: "<predefined>", Value: cfg.Predefined},
		{Name: "<builtin>", Value: cc.Builtin},
		{Name: name, Value: src},
	}
	if _, err := cc.Parse(&cfg, srcs); err != nil {
		var out []string
		for _, line := range strings.Split(strings.TrimSpace(err.Error()), "\n") {
			out = append(out, "verify: "+line)
		}
		return out
	}
	return nil
}

// Cleanup deletes the temporary pomp.h.
func Cleanup() {
	if verifier.dir != "" {
		os.RemoveAll(verifier.dir)
	}
}
