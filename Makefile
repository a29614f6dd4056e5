# gopari — build, test and benchmark.
#
#   make            build bin/gopari (and, with the runtime, build/lib/libpomp.a)
#   make test       vet, format check and every test
#   make bench-instrument   instrumenter throughput on dense 200k- and 1M-line files

GO      ?= go
BIN     := bin
GOBUILD := $(GO) build -trimpath

GO_SOURCES := $(shell find cmd parser rewrite internal pomprt -name '*.go' -not -path '*/testdata/*') go.mod go.sum pomprt/include/pomp.h

.PHONY: all build test vet fmt-check bench-instrument clean

all: build

build: $(BIN)/gopari

$(BIN)/gopari: $(GO_SOURCES)
	$(GOBUILD) -o $@ ./cmd/gopari

vet:
	$(GO) vet ./...

fmt-check:
	@out="$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))"; \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

test: build vet fmt-check
	$(GO) test -count=1 ./...

# Throughput of the instrumenter; see README "Performance".
bench-instrument:
	$(GO) test -run '^$$' -bench 'Instrument(200k|1M)$$' -benchtime 10x -count 3 ./rewrite

clean:
	rm -rf $(BIN) build
