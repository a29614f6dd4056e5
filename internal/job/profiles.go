package job

import (
	"errors"
	"fmt"

	"gopari/internal/experiment"
	"gopari/internal/profile"
)

// Profiles reads the profile of the run in dir or, for a job's
// directory, those of its ranks that can be read; a warning per rank
// that cannot, with explain's account of why.
func Profiles(dir string, explain func(path string, err error) string) ([]*profile.Profile, []string, error) {
	if !experiment.IsJob(dir) {
		p, err := profile.Read(experiment.Profile(dir))
		if err != nil {
			return nil, nil, errors.New(explain(experiment.Profile(dir), err))
		}
		return []*profile.Profile{p}, nil, nil
	}
	j, err := Read(dir, explain)
	if err != nil {
		return nil, nil, err
	}
	ps := make([]*profile.Profile, len(j.Ranks))
	for i, r := range j.Ranks {
		ps[i] = r.Profile
	}
	var warnings []string
	for _, d := range j.Damaged {
		warnings = append(warnings, fmt.Sprintf("rank %d left out: %s", d.Rank, d.Error))
	}
	return ps, warnings, nil
}
