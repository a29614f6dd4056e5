package events

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"gopari/internal/experiment"
)

// Killed describes what a run left that ended without writing its
// profile: killed by SIGKILL or by the system (the out-of-memory killer)
// while it ran, or while it wrote its profile. What it keeps is its event
// stream up to each thread's last complete block, and the stream.json
// that describes it; what it lost is each thread's block still in
// memory, everything after, and the profile's exact counts.
type Killed struct {
	Info *RunInfo
	// ProfileTmp is the size of the profile.json.tmp the run left when
	// it was killed while writing its profile; -1 when there is none.
	ProfileTmp int64
	// Reserve is the size of the experiment.ReserveFile the run left; 0 when there
	// is none.
	Reserve int64
	// Files say what the kill left of each stream file, in name order.
	Files []KilledFile
}

// A KilledFile is one stream file of a killed run.
type KilledFile struct {
	Name     string
	OSThread int   // -1 when its header is missing
	Size     int64 // bytes in the file
	Used     int64 // bytes of its header and complete blocks
	Blocks   int   // complete blocks
	// Cut says what follows the complete blocks: "" when the file ends
	// with one, else why the rest is not read (a block whose write the
	// kill interrupted; a header never written).
	Cut string
}

// openKilled reads the directory of a run that has no profile.json but
// the runtime's stream.json. Its error wraps fs.ErrNotExist when there is
// no stream.json either.
func openKilled(dir string) (*Experiment, error) {
	info, err := ReadRunInfo(experiment.Stream(dir))
	if err != nil {
		return nil, err
	}
	k := &Killed{Info: info, ProfileTmp: -1}
	if st, err := os.Stat(filepath.Join(dir, experiment.ProfileTmpFile)); err == nil {
		k.ProfileTmp = st.Size()
	}
	if st, err := os.Stat(filepath.Join(dir, experiment.EventsDir, experiment.ReserveFile)); err == nil {
		k.Reserve = st.Size()
	}
	c := info.Clock
	e := &Experiment{Dir: dir, Program: info.Program, PID: info.PID, Regions: info.Regions, Threads: info.Threads, Killed: k,
		Clock:  Clock{Name: c.Name, NsPerTick: c.NsPerTick, Tick0: c.Tick0, Ns0: c.Ns0, Realtime0Ns: c.Realtime0Ns},
		Events: Meta{Version: info.StreamVersion, Dir: experiment.EventsDir, Kinds: info.Kinds}}
	if err := e.checkTables(experiment.Stream(dir)); err != nil {
		return nil, err
	}
	names, err := filepath.Glob(filepath.Join(dir, experiment.EventsDir, experiment.ThreadFilePattern))
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	for _, name := range names {
		kf, err := scanKilled(name)
		if err != nil {
			return nil, err
		}
		kf.Name = filepath.Base(name)
		k.Files = append(k.Files, kf)
		if kf.OSThread >= 0 {
			e.Events.Files = append(e.Events.Files, FileInfo{Name: kf.Name, OSThread: kf.OSThread, Bytes: kf.Used})
			e.Events.Bytes += kf.Used
		}
	}
	return e, nil
}

// scanKilled walks the block headers of a killed run's stream file, to
// find where its complete blocks end: the kill may have interrupted the
// write(2) of its last block, or of its header. Damage of other kinds is
// left for the Reader to report.
func scanKilled(path string) (KilledFile, error) {
	kf := KilledFile{OSThread: -1}
	f, err := os.Open(path)
	if err != nil {
		return kf, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return kf, err
	}
	kf.Size = st.Size()
	var h [FileHeaderSize]byte
	n, err := io.ReadFull(f, h[:])
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return kf, err
	}
	if n >= len(FileMagic) && string(h[:len(FileMagic)]) != FileMagic {
		kf.OSThread, kf.Used = 0, kf.Size // not a stream: the Reader says so
		return kf, nil
	}
	size := int64(binary.LittleEndian.Uint16(h[10:]))
	if n < FileHeaderSize || kf.Size < size {
		kf.Cut = fmt.Sprintf("its header was cut after %d bytes: no block written", kf.Size)
		return kf, nil
	}
	kf.OSThread = int(binary.LittleEndian.Uint32(h[12:]))
	off := max(size, FileHeaderSize)
	for off < kf.Size {
		var b [BlockHeaderSize]byte
		n, err := f.ReadAt(b[:], off)
		if n < BlockHeaderSize {
			if err != nil && !errors.Is(err, io.EOF) {
				return kf, err
			}
			kf.Cut = fmt.Sprintf("its last %d bytes are the start of a block header that the kill cut short", kf.Size-off)
			break
		}
		length := int64(binary.LittleEndian.Uint32(b[4:]))
		if string(b[:4]) != BlockMagic || length == 0 || length%WordSize != 0 || length > MaxBlockPayload {
			off = kf.Size // damage, not a cut: the Reader reports it
			break
		}
		if off+BlockHeaderSize+length > kf.Size {
			kf.Cut = fmt.Sprintf("its last %d bytes are the first of a block of %d whose write the kill cut short", kf.Size-off, BlockHeaderSize+length)
			break
		}
		off += BlockHeaderSize + length
		kf.Blocks++
	}
	kf.Used = min(off, kf.Size)
	return kf, nil
}

// Partial reports whether the experiment is a partial one: a killed run's.
func (e *Experiment) Partial() bool { return e.Killed != nil }

// KilledSummary says in a sentence or two what a killed run is: how it
// ended, what its stream keeps and what it lost, for a warning.
func (e *Experiment) KilledSummary() string {
	k := e.Killed
	if k == nil {
		return ""
	}
	var b strings.Builder
	switch {
	case k.ProfileTmp >= 0:
		fmt.Fprintf(&b, "%s: the run was killed while it wrote its profile (profile.json.tmp holds %d bytes of it)", e.Dir, k.ProfileTmp)
	case k.Info.Ended != "":
		fmt.Fprintf(&b, "%s: the run ended (%s) but wrote no profile (its stderr said why, or it was killed while writing it)", e.Dir, k.Info.Ended)
	default:
		fmt.Fprintf(&b, "%s: the run was killed before it wrote its profile (by SIGKILL, or by the system, e.g. out of memory)", e.Dir)
	}
	b.WriteString("; its event stream is read up to each thread's last complete block: each thread's last block, still in memory then (up to 256 KiB: 8,000 to 32,000 records), and all after it are missing, and so are the profile's exact counts")
	return b.String()
}

// KilledNotes are the details of a killed run, a line each: stream files
// cut by the kill, the reserve file it left.
func (e *Experiment) KilledNotes() []string {
	k := e.Killed
	if k == nil {
		return nil
	}
	var out []string
	for _, f := range k.Files {
		if f.Cut != "" {
			out = append(out, fmt.Sprintf("%s: %s (not read)", filepath.Join(e.Dir, e.Events.Dir, f.Name), f.Cut))
		}
	}
	if k.Reserve > 0 {
		out = append(out, fmt.Sprintf("%s: %d bytes the run held back on the disk for its profile; it can be removed",
			filepath.Join(e.Dir, e.Events.Dir, experiment.ReserveFile), k.Reserve))
	}
	return out
}

// KilledRun returns the killed run in dir, given the error of reading its
// profile.json: nil when the profile failed for another reason, or when
// no stream.json says the run was killed.
func KilledRun(dir string, perr error) (*Experiment, error) {
	if !errors.Is(perr, fs.ErrNotExist) {
		return nil, nil
	}
	exp, err := OpenExperiment(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	if exp.Killed == nil {
		return nil, nil
	}
	return exp, nil
}

// WarnKilled says on w that e is a killed run's, what it keeps and what
// it lost; nothing for a run that was not killed.
func (e *Experiment) WarnKilled(w io.Writer) {
	if e.Killed == nil {
		return
	}
	fmt.Fprintf(w, "gopari: warning: %s\n", e.KilledSummary())
	for _, n := range e.KilledNotes() {
		fmt.Fprintf(w, "gopari: note: %s\n", n)
	}
}
