package evtest

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"

	"gopari/internal/experiment"
)

// Job writes the directory of an MPI job of len(ranks) ranks as libpomp
// writes one: the marker job.json, and a directory rank-NNNNN per rank,
// which ranks[r] fills (a scenario such as Mixed); rank r's profile then
// says it is rank r of the job, with process ID 4242 + r, and that its
// clock started r · skewNs nanoseconds of wall-clock time after rank 0's.
func Job(dir, key string, skewNs uint64, ranks []func(dir string) (*Sim, error)) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	marker := map[string]any{"format": experiment.JobMarkerFormat, "version": experiment.JobMarkerVersion, "job": key, "launcher": "openmpi", "size": len(ranks), "program": "./synthetic"}
	b, _ := json.Marshal(marker)
	if err := os.WriteFile(filepath.Join(dir, experiment.JobMarkerFile), b, 0o644); err != nil {
		return err
	}
	for r, scenario := range ranks {
		rd := filepath.Join(dir, experiment.RankDir(r))
		if _, err := scenario(rd); err != nil {
			return err
		}
		err := patchProfile(experiment.Profile(rd), func(p map[string]any) {
			p["pid"] = 4242 + r
			p["mpi"] = map[string]any{"rank": r, "size": len(ranks), "job": key, "launcher": "openmpi"}
			clock := p["clock"].(map[string]any)
			clock["realtime0_ns"] = Realtime0Ns + uint64(r)*skewNs
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// Realtime0Ns is the wall-clock time, in ns since 1970, at which every
// scenario's clock starts (its tick0).
const Realtime0Ns = 1795000000000000000

// patchProfile rewrites the profile at path after edit.
func patchProfile(path string, edit func(map[string]any)) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var p map[string]any
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(&p); err != nil {
		return err
	}
	edit(p)
	if b, err = json.MarshalIndent(p, "", " "); err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}
