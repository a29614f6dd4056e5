package main

/*
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
*/
import "C"

import (
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"unsafe"

	"gopari/internal/experiment"
	"gopari/internal/profile"
)

// An MPI job, as the launcher describes it to each process in its
// environment: the rank, the number of ranks and a key that every rank
// of the job sees alike and no other running job has.
type mpiJob struct {
	profile.MPIRank
	// token tells this job from an earlier one with the same key (a
	// launcher's process ID recurs); it is kept in the job's marker.
	token string
}

// detectMPI reads the launcher's environment; it returns nil outside an
// MPI job. Open MPI's own variables come first: under mpirun inside a
// Slurm allocation, SLURM_PROCID numbers Open MPI's daemons, not ranks.
func detectMPI() *mpiJob {
	get := os.Getenv
	atoi := func(s string) int {
		n, err := strconv.Atoi(s)
		if err != nil {
			return -1
		}
		return n
	}
	var m mpiJob
	switch {
	case get("OMPI_COMM_WORLD_RANK") != "":
		m.Launcher = "Open MPI"
		m.Rank, m.Size = atoi(get("OMPI_COMM_WORLD_RANK")), atoi(get("OMPI_COMM_WORLD_SIZE"))
		m.Job = firstOf(get("OMPI_MCA_ess_base_jobid"), get("PMIX_NAMESPACE"), get("OMPI_MCA_orte_ess_jobid"))
		if m.Job != "" {
			m.Job = "ompi-" + m.Job
		}
		if t := get("OMPI_MCA_orte_precondition_transports"); t != "" {
			// A key of Open MPI's transports, random per job: keep only
			// a hash of it.
			h := fnv.New64a()
			h.Write([]byte(t))
			m.token = fmt.Sprintf("%016x", h.Sum64())
		}
	case get("PMIX_RANK") != "" && get("PMIX_NAMESPACE") != "":
		m.Launcher = "PMIx"
		m.Rank, m.Size = atoi(get("PMIX_RANK")), atoi(firstOf(get("OMPI_COMM_WORLD_SIZE"), get("PMI_SIZE"), get("SLURM_NTASKS")))
		m.Job = "pmix-" + get("PMIX_NAMESPACE")
	case get("PMI_RANK") != "":
		m.Launcher = "MPICH"
		m.Rank, m.Size = atoi(get("PMI_RANK")), atoi(get("PMI_SIZE"))
		switch {
		case get("SLURM_JOB_ID") != "":
			m.Job = "slurm-" + get("SLURM_JOB_ID") + "." + firstOf(get("SLURM_STEP_ID"), "0")
		case get("PMI_KVSNAME") != "":
			m.Job = "pmi-" + get("PMI_KVSNAME")
		default:
			// Hydra names its job only through the PMI protocol. The ranks
			// on one node share their parent, Hydra's proxy: a key for
			// the node's ranks.
			host, _ := os.Hostname()
			h := fnv.New32a()
			fmt.Fprintf(h, "%s %d %s", host, os.Getppid(), get("PMI_PORT"))
			m.Job = fmt.Sprintf("pmi-%08x", h.Sum32())
		}
	case get("SLURM_PROCID") != "" && get("SLURM_JOB_ID") != "":
		m.Launcher = "Slurm"
		m.Rank, m.Size = atoi(get("SLURM_PROCID")), atoi(firstOf(get("SLURM_NTASKS"), get("SLURM_NPROCS")))
		m.Job = "slurm-" + get("SLURM_JOB_ID") + "." + firstOf(get("SLURM_STEP_ID"), "0")
	default:
		return nil
	}
	if m.Rank < 0 || m.Job == "" {
		return nil
	}
	if m.Size < 0 {
		m.Size = 0 // not told
	}
	m.Job = strings.Map(func(r rune) rune {
		if r == '/' || r < ' ' || r == 0x7f {
			return '_'
		}
		return r
	}, m.Job)
	return &m
}

func firstOf(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

var (
	jobOnce sync.Once
	job     *mpiJob
)

// thisJob returns the MPI job this process is a rank of, or nil. The
// environment is read once: the program may change it later.
func thisJob() *mpiJob {
	jobOnce.Do(func() { job = detectMPI() })
	return job
}

var (
	rankOnce sync.Once
	rankDir  string
	rankErr  error
)

// rankBase returns the base name of this rank's experiment directory:
// rank-NNNNN in the directory of its job, which it joins or creates.
func (m *mpiJob) rankBase(program string) (string, error) {
	rankOnce.Do(func() {
		var dir string
		dir, rankErr = m.jobDir(program)
		rankDir = filepath.Join(dir, experiment.RankDir(m.Rank))
	})
	return rankDir, rankErr
}

// jobDir returns the job's directory: GOPARI_EXPERIMENT_DIRECTORY, or
// gopari-PROGRAM-JOB here. Every rank computes the same name. A directory
// of that name that is not this job's (no marker, or another job's) is
// kept, and all ranks go on to the same numbered sibling.
func (m *mpiJob) jobDir(program string) (string, error) {
	base := os.Getenv("GOPARI_EXPERIMENT_DIRECTORY")
	explicit := base != ""
	if !explicit {
		base = experiment.Prefix + programName(program) + "-" + m.Job
	}
	for i := 0; i < 100; i++ {
		dir := base
		if i > 0 {
			dir = base + "." + strconv.Itoa(i)
		}
		ours, err := m.claim(dir, program)
		if err != nil {
			return "", err
		}
		if ours {
			if explicit && dir != base && m.Rank == 0 {
				fmt.Fprintf(os.Stderr, "gopari: %s exists and is kept; this job's profiles go to %s\n", base, dir)
			}
			return dir, nil
		}
	}
	return "", fmt.Errorf("%s and 99 numbered alternatives exist", base)
}

// claim reports whether dir is this job's directory, creating it if it
// does not exist. A directory appears with its marker in it, by a rename
// that does not replace, so that no rank ever sees another rank's
// directory half made.
func (m *mpiJob) claim(dir, program string) (bool, error) {
	want := experiment.JobMarker{Format: experiment.JobMarkerFormat, Version: experiment.JobMarkerVersion, Job: m.Job, Token: m.token, Launcher: m.Launcher, Size: m.Size, Program: program}
	ours := func(b []byte) bool {
		var got experiment.JobMarker
		return json.Unmarshal(b, &got) == nil && got.Format == want.Format && got.Job == want.Job && got.Token == want.Token
	}
	marker := filepath.Join(dir, experiment.JobMarkerFile)
	for attempt := 0; attempt < 10; attempt++ {
		if b, err := os.ReadFile(marker); err == nil {
			return ours(b), nil
		}
		if _, err := os.Lstat(dir); err == nil {
			// Another rank may have made it since the marker was looked
			// for: a job's directory appears with its marker in it.
			b, err := os.ReadFile(marker)
			return err == nil && ours(b), nil // else not a job's directory: kept
		}
		tmp := fmt.Sprintf("%s.tmp-%d-%d", dir, m.Rank, os.Getpid())
		if err := os.Mkdir(tmp, 0o755); err != nil {
			return false, err
		}
		err := writeJSON(filepath.Join(tmp, experiment.JobMarkerFile), want)
		if err == nil {
			err = renameNoReplace(tmp, dir)
		}
		if err == nil {
			return true, nil
		}
		os.RemoveAll(tmp)
		if !errors.Is(err, fs.ErrExist) && !errors.Is(err, syscall.ENOTEMPTY) {
			return false, err
		}
		// Another rank was first: read its marker.
	}
	return false, fmt.Errorf("%s: could not agree with the other ranks", dir)
}

// renameNoReplace renames a directory, failing if newpath exists (even
// as an empty directory, which rename would replace). Where the file
// system cannot do that, it renames when newpath does not exist.
func renameNoReplace(oldpath, newpath string) error {
	o, n := C.CString(oldpath), C.CString(newpath)
	defer C.free(unsafe.Pointer(o))
	defer C.free(unsafe.Pointer(n))
	if r, err := C.renameat2(C.AT_FDCWD, o, C.AT_FDCWD, n, C.RENAME_NOREPLACE); r == 0 {
		return nil
	} else if !errors.Is(err, syscall.EINVAL) && !errors.Is(err, syscall.ENOSYS) {
		return &os.LinkError{Op: "rename", Old: oldpath, New: newpath, Err: err}
	}
	if _, err := os.Lstat(newpath); err == nil {
		return &os.LinkError{Op: "rename", Old: oldpath, New: newpath, Err: fs.ErrExist}
	}
	return os.Rename(oldpath, newpath)
}
