package profile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRead checks the versions Read accepts, and that a version 1
// profile, which timed every visit, reads as such.
func TestRead(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	v1 := write("v1.json", `{"format": "gopari-profile", "version": 1,
		"stats": [{"region": 1, "thread": 0, "construct": {"visits": 4, "incl_ns": 40, "excl_ns": 20}}]}`)
	p, err := Read(v1)
	if err != nil {
		t.Fatal(err)
	}
	if ph := p.Stats[0].Construct; ph.Timed != 4 || ph.Sampled() || ph.ExclEstimateNs() != 20 {
		t.Errorf("version 1 phase read as %+v", ph)
	}
	v2 := write("v2.json", `{"format": "gopari-profile", "version": 2,
		"stats": [{"region": 1, "thread": 0, "construct": {"visits": 4, "timed": 1, "incl_ns": 40, "excl_ns": 5}}]}`)
	if p, err = Read(v2); err != nil {
		t.Fatal(err)
	}
	if ph := p.Stats[0].Construct; !ph.Sampled() || ph.ExclEstimateNs() != 20 {
		t.Errorf("sampled phase %+v: estimate %v, want 20", ph, ph.ExclEstimateNs())
	}
	_, err = Read(write("v5.json", `{"format": "gopari-profile", "version": 5}`))
	if err == nil || !strings.Contains(err.Error(), "profile version 5 is newer than this gopari reads (4)") {
		t.Errorf("version 5: %v", err)
	}
	_, err = Read(write("other.json", `{"format": "something", "version": 1}`))
	if err == nil || !strings.Contains(err.Error(), "not a gopari profile") {
		t.Errorf("other format: %v", err)
	}
}
