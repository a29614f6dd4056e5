package rewrite

import (
	"bytes"
	"io"
	"runtime"
	"runtime/debug"
	"testing"

	generate "gopari/internal/gen"
	"gopari/parser"
)

// dense caches generated inputs: generating one leaves garbage that
// would otherwise be collected while the next measurement runs.
var dense = map[int][]byte{}

// mixed caches Mixed inputs as dense does Dense's.
var mixed = map[int][]byte{}

func benchmarkInstrument(b *testing.B, lines int) {
	src := dense[lines]
	if src == nil {
		src = generate.Dense(lines)
		dense[lines] = src
	}
	benchmarkSource(b, src)
}

func benchmarkMixed(b *testing.B, lines int) {
	src := mixed[lines]
	if src == nil {
		src = generate.Mixed(lines, 7)
		mixed[lines] = src
	}
	benchmarkSource(b, src)
}

func benchmarkSource(b *testing.B, src []byte) {
	// The gopari command collects garbage at 200% (cmd/gopari/main.go);
	// measure with the same setting.
	defer debug.SetGCPercent(debug.SetGCPercent(200))
	n := bytes.Count(src, []byte{'\n'})
	b.SetBytes(int64(len(src)))
	runtime.GC()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, diags := Source("dense.c", src, parser.Config{}, Options{})
		if res == nil {
			b.Fatal(diags)
		}
		res.WriteTo(io.Discard)
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
}

// BenchmarkInstrument200k and BenchmarkInstrument1M measure throughput on
// a dense file (one directive per 8 lines); the ratio of the two shows
// whether time grows linearly. Run them on one core: go test -cpu 1.
func BenchmarkInstrument200k(b *testing.B) { benchmarkInstrument(b, 200_000) }
func BenchmarkInstrument1M(b *testing.B)   { benchmarkInstrument(b, 1_000_000) }

// BenchmarkMixed200k and BenchmarkMixed1M: the same on generate.Mixed,
// varied functions the instrumenter was not tuned on.
func BenchmarkMixed200k(b *testing.B) { benchmarkMixed(b, 200_000) }
func BenchmarkMixed1M(b *testing.B)   { benchmarkMixed(b, 1_000_000) }
