# gexph — build, test, benchmark and notebook targets.
#
# The toolchain is pinned (go1.27.0 is fetched once by the go command), the pure-Go
# backend of GoMLX is the default, and GOEXPERIMENT=simd makes it 4–7× faster.

export GOTOOLCHAIN := go1.27.0
export GOEXPERIMENT := simd
export GOMLX_BACKEND ?= go

GO        ?= go
GOBIN_DIR := $(shell $(GO) env GOPATH 2>/dev/null)/bin
BUILD     := build
GEXPH     := $(BUILD)/gexph
# Packages cheap enough to run under the race detector.
RACE_PKGS := ./spectral/... ./expander/... ./data/... ./plots/...

.PHONY: all build demo test test-short vet bench fuzz notebook-kernel jupyter notebooks clean

all: build

build:
	$(GO) build -o $(GEXPH) ./tools/gexph

## demo: train a small Exphormer on generated PATTERN data and print the results.
demo: build
	$(GEXPH) train -dataset pattern -preset demo

## test: vet, then every package's tests (race detector on the pure-Go packages).
test: vet
	$(GO) test -count=1 -timeout 30m ./...
	$(GO) test -count=1 -race -timeout 20m $(RACE_PKGS)

test-short: vet
	$(GO) test -short -count=1 ./...

vet:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$unformatted" ]; then echo "gofmt needed: $$unformatted"; exit 1; fi
	$(GO) vet ./...

## bench: the benchmark table (expanders, attention and GPS training steps).
bench: build
	$(GEXPH) bench -table

## fuzz: a short run of every fuzz target.
fuzz:
	$(GO) test -run=NONE -fuzz=FuzzReadEdgeList -fuzztime=20s ./spectral
	$(GO) test -run=NONE -fuzz=FuzzReadNPY -fuzztime=20s ./data
	$(GO) test -run=NONE -fuzz=FuzzReadEdgeListCSV -fuzztime=20s ./data
	$(GO) test -run=NONE -fuzz=FuzzParseSMILES -fuzztime=20s ./data

clean:
	rm -rf $(BUILD)
