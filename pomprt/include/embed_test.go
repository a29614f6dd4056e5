package include

import (
	"bytes"
	"os/exec"
	"testing"
)

// TestPreprocessedInSync checks that pomp_c.i and pomp_cxx.ii are pomp.h
// preprocessed, as go generate makes them.
func TestPreprocessedInSync(t *testing.T) {
	for _, c := range []struct {
		cc, lang string
		have     []byte
	}{{"gcc", "c", PompC}, {"g++", "c++", PompCXX}} {
		if _, err := exec.LookPath(c.cc); err != nil {
			t.Skip(c.cc + " not installed")
		}
		want, err := exec.Command(c.cc, "-E", "-P", "-x", c.lang, "pomp.h").Output()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(want, c.have) {
			t.Errorf("the preprocessed %s interface is out of date: run go generate ./pomprt/include", c.lang)
		}
	}
}
