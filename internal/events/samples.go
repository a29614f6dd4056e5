package events

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// A Sample is one sample of a traced run (GOPARI_SAMPLE_HZ with
// GOPARI_MODE=trace): the location it was taken at (an index into the
// profile's threads), when (in the run's clock, as the stream's
// records), and the call path it was charged to (an index into the
// profile's call_paths.nodes).
type Sample struct {
	Loc, Node uint32
	Tick      uint64
}

// samplesMagic starts a samples file (experiment.SamplesFile); 16-byte
// little-endian records follow: location, node (uint32), tick (uint64).
const samplesMagic = "GOPSMP01"

// WriteSamples writes samples as a samples file.
func WriteSamples(w io.Writer, samples []Sample) error {
	bw := bufio.NewWriter(w)
	bw.WriteString(samplesMagic)
	var rec [16]byte
	for _, s := range samples {
		binary.LittleEndian.PutUint32(rec[0:], s.Loc)
		binary.LittleEndian.PutUint32(rec[4:], s.Node)
		binary.LittleEndian.PutUint64(rec[8:], s.Tick)
		bw.Write(rec[:])
	}
	return bw.Flush()
}

// ReadSamples reads the samples file at path; none, and no error, if it
// does not exist. An error names the file and the offset.
func ReadSamples(path string) ([]Sample, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if len(b) < len(samplesMagic) || string(b[:len(samplesMagic)]) != samplesMagic {
		return nil, fmt.Errorf("%s: 0: not a samples file", path)
	}
	b = b[len(samplesMagic):]
	if len(b)%16 != 0 {
		return nil, fmt.Errorf("%s: %d: a truncated record", path, len(samplesMagic)+len(b)/16*16)
	}
	out := make([]Sample, 0, len(b)/16)
	for i := 0; i < len(b); i += 16 {
		out = append(out, Sample{Loc: binary.LittleEndian.Uint32(b[i:]), Node: binary.LittleEndian.Uint32(b[i+4:]), Tick: binary.LittleEndian.Uint64(b[i+8:])})
	}
	return out, nil
}
