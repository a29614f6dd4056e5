# gopari — build, test and benchmark.
#
#   make            build bin/gopari, build/lib/libpomp.a and build/include/pomp.h
#   make test       vet, format check, staticcheck and every test (the fuzz corpus
#                   replayed), with progress and a list of what was skipped
#   make fuzz       run each fuzz target for a fixed number of executions (~10 s each), as CI does
#   make soak       each fuzz target 180 times as long, and 5,000 random programs
#   make grains-demo        grain graphs of examples/nqueens and examples/heat, as SVG in build/grains-demo
#   make bench-instrument   instrumenter throughput in process on dense 200k- and 1M-line files
#                           (make bench measures it through the command line)

GO      ?= go
BIN     := bin
BUILD   := build
GOBUILD := $(GO) build -trimpath
comma   := ,
# gopari trace --otf2 links Debian's libotf2 (libotf2-trace-dev) where it
# is installed; without it, gopari builds and says so when asked for OTF2.
OTF2    := $(if $(wildcard /usr/include/otf2/otf2.h),otf2)
# urfave_cli_no_docs leaves out urfave/cli's man-page writer, whose
# Markdown packages take 0.4 ms to initialize at every start.
GOTAGS  := -tags urfave_cli_no_docs$(if $(OTF2),$(comma)$(OTF2))

GO_SOURCES := $(shell find cmd parser rewrite internal pomprt -name '*.go' -not -path '*/testdata/*') go.mod go.sum pomprt/include/pomp.h pomprt/include/pomp_c.i pomprt/include/pomp_cxx.ii internal/otf2/glue.c
# The runtime links internal packages (profile, symbols, events, ...): any of
# them changes the archive.
RT_SOURCES := $(wildcard pomprt/*.go pomprt/*.c pomprt/*.h) pomprt/include/pomp.h $(shell find internal -name '*.go' -not -name '*_test.go' -not -path '*/testdata/*') go.mod go.sum

.PHONY: all build test vet fmt-check staticcheck fuzz soak bench bench-instrument clean demo grains-demo install screenshot

all: build

# The MPI measurement library is built where an MPI compiler is installed.
MPICC   ?= $(shell command -v mpicc 2>/dev/null)
MPI_LIB := $(if $(MPICC),$(BUILD)/lib/libpomp_mpi.a)

# One-word compiler wrappers, links to gopari: gopari-gcc is gopari cc gcc.
WRAPPERS := gopari-gcc gopari-g++ gopari-clang gopari-clang++ gopari-mpicc gopari-mpicxx gopari-gfortran gopari-mpif90

build: $(BIN)/gopari $(addprefix $(BIN)/,$(WRAPPERS)) $(BUILD)/lib/libpomp.a $(BUILD)/include/pomp.h $(BUILD)/include/pomp_lib.f90 $(MPI_LIB)

$(BIN)/gopari: $(GO_SOURCES)
	$(GOBUILD) $(GOTAGS) -o $@ ./cmd/gopari

$(addprefix $(BIN)/,$(WRAPPERS)):
	@mkdir -p $(@D)
	ln -sf gopari $@

# The runtime: a Go C archive. Link instrumented programs with
#   cc -fopenmp prog.c build/lib/libpomp.a -lpthread
$(BUILD)/lib/libpomp.a: $(RT_SOURCES)
	@mkdir -p $(@D)
	$(GOBUILD) -buildmode=c-archive -o $@ ./pomprt
	@rm -f $(BUILD)/lib/libpomp.h # cgo's header is internal; pomp.h is the interface

# MPI calls measured as regions through PMPI (pomprt/mpi): linked before
# libpomp.a, by gopari cc when it links with an MPI compiler wrapper.
# pomp_mpi_f.c and pomp_mpi_f08.c measure the calls of Fortran programs
# (mpif.h and use mpi; use mpi_f08), each in an object of its own.
MPI_OBJS := $(addprefix $(BUILD)/obj/,pomp_mpi.o pomp_mpi_f.o pomp_mpi_f08.o)
$(BUILD)/lib/libpomp_mpi.a: $(MPI_OBJS)
	@mkdir -p $(@D)
	@rm -f $@
	ar rcs $@ $(MPI_OBJS)

$(MPI_OBJS): $(BUILD)/obj/%.o: pomprt/mpi/%.c $(wildcard pomprt/mpi/*.h pomprt/mpi/*.c) pomprt/rt.h pomprt/include/pomp.h
	@mkdir -p $(@D)
	$(MPICC) -O2 -Wall -Wextra -I pomprt -c $< -o $@

$(BUILD)/include/pomp.h: pomprt/include/pomp.h
	@mkdir -p $(@D)
	cp $< $@

# The Fortran binding's source: gopari cc compiles it into a .mod for the
# compiler at hand.
$(BUILD)/include/pomp_lib.f90: pomprt/include/fortran/pomp_lib.f90
	@mkdir -p $(@D)
	cp $< $@

# Build the N-Queens example through gopari cc, run it, read its profile.
demo: build
	@$(MAKE) -s -C examples/nqueens clean
	$(MAKE) -s -C examples/nqueens
	@rm -rf examples/nqueens/gopari-demo
	cd examples/nqueens && GOPARI_EXPERIMENT_DIRECTORY=gopari-demo ./nqueens 12 3
	$(BIN)/gopari report examples/nqueens/gopari-demo

# The README's picture of gopari report --html (docs/report.png):
# examples/nqueens traced on 2 threads, its page drawn by headless
# Chromium (Debian's chromium).
CHROMIUM ?= chromium
SHOT     := $(BUILD)/screenshot
screenshot: build
	@$(MAKE) -s -C examples/nqueens
	rm -rf $(SHOT) && mkdir -p $(SHOT)
	cd examples/nqueens && GOPARI_MODE=trace OMP_NUM_THREADS=2 OMP_WAIT_POLICY=passive \
	  GOPARI_EXPERIMENT_DIRECTORY=$(CURDIR)/$(SHOT)/nqueens ./nqueens 13 4
	$(BIN)/gopari report --html $(SHOT)/report.html $(SHOT)/nqueens
	$(CHROMIUM) --headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update \
	  --disable-sync --no-first-run --hide-scrollbars --user-data-dir=$(CURDIR)/$(SHOT)/chromium --window-size=1280,2300 \
	  --screenshot=$(CURDIR)/docs/report.png file://$(CURDIR)/$(SHOT)/report.html

# Grain graphs of two examples (README, "gopari grains"): N-Queens' tasks
# and the heat stencil's loop chunks, each run with GOPARI_GRAINS=1 at 2
# threads and at 1 thread for a baseline, drawn to build/grains-demo/*.svg.
GRAINS_DEMO := $(BUILD)/grains-demo
grains-demo: build
	@rm -rf $(GRAINS_DEMO) && mkdir -p $(GRAINS_DEMO)
	@for ex in nqueens:"10 2" heat:"48 40"; do \
	  name=$${ex%%:*}; args=$${ex#*:}; out=$(abspath $(GRAINS_DEMO))/$$name; \
	  $(MAKE) -s -C examples/$$name clean && \
	  $(MAKE) -s -C examples/$$name WRAP="$(abspath $(BIN))/gopari cc --chunks" && \
	  (cd examples/$$name && GOPARI_GRAINS=1 OMP_NUM_THREADS=1 GOPARI_EXPERIMENT_DIRECTORY=$$out-1 ./$$name $$args >/dev/null && \
	   GOPARI_GRAINS=1 OMP_NUM_THREADS=2 GOPARI_EXPERIMENT_DIRECTORY=$$out-2 ./$$name $$args >/dev/null) && \
	  echo "== $$name $$args, 2 threads against 1:" && \
	  $(BIN)/gopari grains --baseline $$out-1 --csv $$out.csv --dot $$out.dot --graphml $$out.graphml $$out-2 && \
	  dot -Tsvg $$out.dot -o $$out.svg && echo "   drawn: $(GRAINS_DEMO)/$$name.svg" || exit 1; \
	  $(MAKE) -s -C examples/$$name clean; \
	done

# Install gopari, its one-word wrappers, libpomp.a and pomp.h below PREFIX.
PREFIX ?= /usr/local
install: build
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include
	install -m 0755 $(BIN)/gopari $(DESTDIR)$(PREFIX)/bin/gopari
	for w in $(WRAPPERS); do ln -sf gopari $(DESTDIR)$(PREFIX)/bin/$$w; done
	install -m 0644 $(BUILD)/lib/libpomp.a $(DESTDIR)$(PREFIX)/lib/libpomp.a
	$(if $(MPI_LIB),install -m 0644 $(MPI_LIB) $(DESTDIR)$(PREFIX)/lib/libpomp_mpi.a)
	install -m 0644 $(BUILD)/include/pomp.h $(DESTDIR)$(PREFIX)/include/pomp.h
	install -m 0644 $(BUILD)/include/pomp_lib.f90 $(DESTDIR)$(PREFIX)/include/pomp_lib.f90

vet:
	$(GO) vet $(GOTAGS) ./...

fmt-check:
	@out="$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))"; \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

# staticcheck at a pinned version; go run builds it once into the cache.
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
staticcheck:
	$(GO) run $(STATICCHECK) $(GOTAGS) ./...

# Every test, through internal/testlog: a line per package, progress in
# the long ones, the output of failures, and at the end what was skipped
# and why. Skips decided here, before any test runs, are passed as notes.
#
# TESTTIMEOUT bounds each package's test binary (go test -timeout): a
# hung test ends with "panic: test timed out", the tests running and their
# stacks, which testlog prints. It is set above what the slowest package,
# pomprt/e2e, takes on a loaded 2-core machine (go test's default of 10
# minutes killed it there after 608 s), so that it catches hangs, not a
# slow machine.
TESTTIMEOUT ?= 15m
TESTNOTES := $(if $(OTF2),,-note 'OTF2 tests: libotf2-trace-dev not installed, gopari built without OTF2')
test: build vet fmt-check staticcheck
	@echo "go test $(GOTAGS) -json -count=1 -timeout $(TESTTIMEOUT) ./... | go run ./internal/testlog"
	@bash -o pipefail -c '$(GO) test $(GOTAGS) -json -count=1 -timeout $(TESTTIMEOUT) ./... | $(GO) run ./internal/testlog $(TESTNOTES)'

# Fuzzing: the scanner, the directive parser, the statement-extent
# finder, the whole rewrite, the event-stream reader and the replay
# behind gopari trace and gopari grains, the OTF2 export (with libotf2),
# and the filter-file parser.
# New failures land in testdata/fuzz and are then replayed by make test.
#
# Each target runs for a number of executions, sized to about 10 s here,
# times FUZZSCALE. A count, not a duration: with -fuzztime as a duration,
# Go 1.26's fuzz coordinator can fail a target with "context deadline
# exceeded" when the time runs out while a worker is busy, with no
# failing input (golang/go#75804, fixed in Go 1.27). A count has no
# deadline; a hung target still fails after 5 min times FUZZSCALE.
# FUZZTIME=10m (or 5000000x) overrides the counts for every target.
FUZZSCALE ?= 1
FUZZ_TARGETS := parser:FuzzScan:600000 parser:FuzzScanSplit:20000 \
  parser:FuzzDirective:600000 parser:FuzzExtents:450000 \
  rewrite:FuzzInstrument:100000 internal/events:FuzzReader:500000 \
  internal/chrome:FuzzReplay:8000 internal/otf2:FuzzExport:7000 \
  internal/filter:FuzzParse:500000
fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
	  pkg=$${t%%:*}; rest=$${t#*:}; fn=$${rest%%:*}; n=$${rest#*:}; \
	  ft="$(FUZZTIME)"; to=0; \
	  [ -n "$$ft" ] || { ft="$$((n * $(FUZZSCALE)))x"; to="$$((5 * $(FUZZSCALE)))m"; }; \
	  echo "fuzz $$fn ($$ft)"; \
	  $(GO) test $(GOTAGS) -run '^$$' -fuzz "^$$fn\$$" -fuzztime "$$ft" -timeout "$$to" ./$$pkg; \
	done

# The long run: every fuzz target for SOAKSCALE times its make fuzz
# count (180: about 30 min each), and RANDPROGS random OpenMP programs
# built and run instrumented and not.
SOAKSCALE ?= 180
RANDPROGS ?= 5000
RANDSEED  ?= 100000
soak: build
	$(MAKE) fuzz FUZZSCALE=$(SOAKSCALE)
	$(GO) test -count=1 -timeout 6h -run TestRandomPrograms ./pomprt/e2e -args -randprogs $(RANDPROGS) -randseed $(RANDSEED)

# All benchmarks: runtime overhead (tiny tasks, constructs, realistic
# codes) in ids and profile mode against uninstrumented builds, runtime
# memory, instrumenter throughput and call paths (--functions: the cost
# of a call, a LULESH-style proxy; bench/proxy), as one table (also in
# build/bench.md). THREADS=1,2,4 and PAIRS=7 change what it runs.
THREADS ?=
PAIRS   ?= 7
bench: build
	$(GO) run ./bench/driver -pairs $(PAIRS) $(if $(THREADS),-threads $(THREADS)) -out $(BUILD)/bench.md

# Throughput of the instrumenter on one core, on generated dense files of
# 200k and 1M lines (one directive per 8 lines): medians of 21 single runs.
bench-instrument:
	$(GO) test -run '^$$' -bench 'Instrument(200k|1M)$$' -benchtime 1x -count 21 -cpu 1 ./rewrite | tee $(BUILD)/bench-instrument.txt
	$(GO) run golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da $(BUILD)/bench-instrument.txt

clean:
	rm -rf $(BIN) build
