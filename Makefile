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
RACE_PKGS := ./internal/atomicfile ./internal/dirlock ./internal/jsonfile ./internal/sysinfo ./internal/archtest ./internal/rundir ./internal/logfile ./internal/progress ./gexph/metrics ./gexph/posenc ./gexph/buildcheck ./spectral/... ./expander/... ./data/... ./plots/...

.PHONY: all build build-xla demo test test-arm64 test-short vet bench census fuzz gpu-bundle repl-symbols notebook-kernel jupyter notebooks notebooks-clear clean

all: build

build:
	$(GO) build -buildvcs=auto -o $(GEXPH) ./tools/gexph

## build-xla: build/gexph with GoMLX's XLA backend as well (cgo), for an NVIDIA GPU:
## -backend cuda finds a pip-installed jax-cuda13-pjrt by itself (docs/GPU.md, "Your own
## GPU"). -buildvcs=auto records the commit (gexph version, result.json) even where
## GOFLAGS says -buildvcs=false.
build-xla:
	CGO_ENABLED=1 $(GO) build -tags xla -buildvcs=auto -o $(GEXPH) ./tools/gexph

## demo: train a small Exphormer on generated PATTERN data and print the results.
demo: build
	$(GEXPH) train -dataset pattern -preset demo -out runs/demo -force

## test: vet, then every package's tests (race detector on the pure-Go packages), and
## every test of the patched third_party/compute (its kernels' among them; about a minute):
## on this CPU, on the AVX2 path (GODEBUG=cpu.avx512f=off, as on most laptops; the same
## run where the CPU has no AVX-512), and its backend packages built without
## GOEXPERIMENT=simd. internal/archtest checks that these runs leave none of the kernel
## tests out.
test: vet
	$(GO) test -count=1 -timeout 30m ./...
	$(GO) test -count=1 -race -timeout 20m $(RACE_PKGS)
	cd third_party/compute && $(GO) test -count=1 -timeout 20m ./...
	cd third_party/compute && GODEBUG=cpu.avx512f=off $(GO) test -count=1 -timeout 20m ./...
	cd third_party/compute && GOEXPERIMENT= $(GO) test -count=1 -timeout 20m ./internal/gobackend/ ./internal/gobackend/ops/
	GODEBUG=cpu.avx512f=off $(GO) test -count=1 -timeout 20m ./layers/

## test-arm64: arm64 (Apple silicon, Graviton) from this machine: go vet with and without
## GOEXPERIMENT=simd and with the xla tag (cgo through aarch64-linux-gnu-gcc), then the
## tests of the patched backend packages and of layers (the fused kernels against the
## unfused ops) run under qemu-user. Needs Debian's qemu-user and gcc-aarch64-linux-gnu
## (.ci/run installs them); about 10 minutes on 2 cores.
test-arm64:
	@command -v qemu-aarch64 >/dev/null || { echo "test-arm64: qemu-aarch64 not found: apt-get install qemu-user"; exit 1; }
	@command -v aarch64-linux-gnu-gcc >/dev/null || { echo "test-arm64: aarch64-linux-gnu-gcc not found: apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross"; exit 1; }
	GOARCH=arm64 $(GO) vet ./...
	GOARCH=arm64 GOEXPERIMENT= $(GO) vet ./...
	GOARCH=arm64 CGO_ENABLED=1 CC=aarch64-linux-gnu-gcc $(GO) vet -tags xla ./...
	cd third_party/compute && GOARCH=arm64 $(GO) test -count=1 -timeout 30m -exec qemu-aarch64 ./internal/gobackend/ ./internal/gobackend/ops/
	GOARCH=arm64 $(GO) test -count=1 -timeout 30m -exec qemu-aarch64 ./layers/

test-short: vet
	$(GO) test -short -count=1 ./...

## vet: gofmt on every tracked Go file (third_party too: formatting is not a change to
## upstream, see third_party/compute/PATCHES.md), go vet with and without the xla tag.
vet:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$unformatted" ]; then echo "gofmt needed: $$unformatted"; exit 1; fi
	$(GO) vet ./...
	$(GO) vet -tags xla ./...

## bench: the benchmark table (expanders, attention and GPS training steps).
bench: build
	$(GEXPH) bench -table

## census: what the compiled training step and inference pass of the GPU check's presets
## are made of (operations, gathers and scatters, transfers), into docs/results/census;
## commit the files with any change to the model's programs (a test checks PATTERN's and
## CLUSTER's).
CENSUS_PRESETS := pattern cluster mnist peptides-func
census: build
	@mkdir -p docs/results/census
	@for p in $(CENSUS_PRESETS); do \
	  $(GEXPH) bench -case census -preset $$p -json > docs/results/census/$$p.json.tmp && \
	  mv docs/results/census/$$p.json.tmp docs/results/census/$$p.json || exit 1; \
	done

## fuzz: a short run of every fuzz target.
fuzz:
	$(GO) test -run=NONE -fuzz=FuzzReadEdgeList -fuzztime=20s ./spectral
	$(GO) test -run=NONE -fuzz=FuzzReadNPY -fuzztime=20s ./data/npy
	$(GO) test -run=NONE -fuzz=FuzzReadEdgeListCSV -fuzztime=20s ./data
	$(GO) test -run=NONE -fuzz=FuzzReadEdgeListNodes -fuzztime=20s ./data
	$(GO) test -run=NONE -fuzz=FuzzReadSplitFile -fuzztime=20s ./data
	$(GO) test -run=NONE -fuzz=FuzzParseSMILES -fuzztime=20s ./data/smiles
	$(GO) test -run=NONE -fuzz=FuzzReadCheckpoint -fuzztime=20s ./gexph

# --- The GPU device check (tools/gpu, docs/GPU.md) ------------------------------------
#
# gpu-bundle builds here what tools/gpu/check.sh runs on a machine with an NVIDIA GPU
# and no Go: the gexph command and the gexph package's test binary with the xla tag
# (cgo), stripped and gzipped, and the few data files the check reads (the shared data
# does not travel), and the paper's code for the reference steps (ref/). Carry build/gpu
# and run `bash tools/gpu/check.sh` there.
# GPU_RUN=DIR GPU_RUN_ARGS='-dataset … -preset …' also packs a training run's directory,
# which `check.sh resume` continues on the GPU (docs/GPU.md, "Continuing a run on a GPU");
# GPU_RUN_DATA='PATTERN …' adds the run's data files that the check's own lack (paths or
# globs under the data root, e.g. 'mnist/mnist_batch_*.png' for the whole MNIST).

GPU_BUNDLE     := $(BUILD)/gpu
GPU_DATA       := $(or $(GEXPH_DATA),../shared/data)
# What the check reads: Amazon Computers, the MNIST files of one batch, Peptides-func.
GPU_DATA_FILES := gnn-benchmark/amazon-computers.zip \
  mnist/mnist_batch_0.png mnist/mnist_batch_1.png mnist/t10k-images-idx3-ubyte.gz \
  mnist/t10k-labels-idx1-ubyte.gz mnist/train-labels-idx1-ubyte.gz \
  peptides-func/peptide_multi_class_dataset.csv.gz peptides-func/splits_random_stratified_peptide.json
GPU_MAX_MIB    := 56
# The paper's code for the ref-* steps (tools/gpu/ref), carried unmodified as archives:
# the reference tree and its pure-Python dependencies at the paper's pins (PyG 2.0.4,
# yacs, ogb, torchmetrics 0.9.3, performer_pytorch and its deps). Not the C++ builds:
# tools/gpu/ref/shims stands in for torch_scatter and torch_sparse.
GPU_PEERS      := $(GPU_DATA)/../peers/src
GPU_REF_FILES  := exphormer.tar.gz py-torch_geometric.tar.gz py-yacs.tar.gz py-ogb.tar.gz py-torchmetrics.tar.gz \
  py-performer_pytorch.tar.gz py-local_attention.tar.gz py-axial_positional_embedding.tar.gz py-einops.tar.gz

## gpu-bundle: cross-build the XLA binaries and collect the data of the GPU check into build/gpu.
gpu-bundle:
	rm -rf $(GPU_BUNDLE) && mkdir -p $(GPU_BUNDLE)/data
	CGO_ENABLED=1 $(GO) build -tags xla -trimpath -ldflags='-s -w' -o $(GPU_BUNDLE)/gexph ./tools/gexph
	CGO_ENABLED=1 $(GO) test -c -tags xla -trimpath -ldflags='-s -w' -o $(GPU_BUNDLE)/gexph.test ./gexph
	gzip -9 $(GPU_BUNDLE)/gexph $(GPU_BUNDLE)/gexph.test
	@for f in $(GPU_DATA_FILES); do \
	  if [ ! -f "$(GPU_DATA)/$$f" ]; then echo "gpu-bundle: $(GPU_DATA)/$$f is missing (GEXPH_DATA names the data root)"; exit 1; fi; \
	  mkdir -p "$(GPU_BUNDLE)/data/$$(dirname $$f)" && cp "$(GPU_DATA)/$$f" "$(GPU_BUNDLE)/data/$$f"; \
	done
	@mkdir -p $(GPU_BUNDLE)/ref && for f in $(GPU_REF_FILES); do \
	  if [ ! -f "$(GPU_PEERS)/$$f" ]; then echo "gpu-bundle: $(GPU_PEERS)/$$f is missing (the measuring kit's sources, ../shared/peers/src)"; exit 1; fi; \
	  cp "$(GPU_PEERS)/$$f" $(GPU_BUNDLE)/ref/; \
	done
	@if [ -n "$(GPU_RUN)" ]; then \
	  if [ ! -f "$(GPU_RUN)/last.ckpt" ] || [ -z "$(GPU_RUN_ARGS)" ]; then echo "gpu-bundle: GPU_RUN=$(GPU_RUN) needs a last.ckpt there and GPU_RUN_ARGS (the run's train arguments)"; exit 1; fi; \
	  mkdir -p $(GPU_BUNDLE)/run && cp $(GPU_RUN)/*.ckpt $(GPU_RUN)/log.* $(GPU_BUNDLE)/run/ && echo "$(GPU_RUN_ARGS)" > $(GPU_BUNDLE)/run/args; \
	  set -f; patterns="$(GPU_RUN_DATA)"; for g in $$patterns; do set +f; found=; \
	    for f in $(GPU_DATA)/$$g; do [ -f "$$f" ] || continue; found=1; rel=$${f#$(GPU_DATA)/}; \
	      mkdir -p "$(GPU_BUNDLE)/data/$$(dirname $$rel)" && cp "$$f" "$(GPU_BUNDLE)/data/$$rel" || exit 1; done; \
	    if [ -z "$$found" ]; then echo "gpu-bundle: GPU_RUN_DATA: no file matches $(GPU_DATA)/$$g"; exit 1; fi; \
	  done; \
	fi
	@(cd $(GPU_BUNDLE) && echo "commit $$(git rev-parse --short HEAD 2>/dev/null)$$(git diff --quiet HEAD 2>/dev/null || echo +dirty)" > BUILD && \
	  $(GO) version >> BUILD && find . -type f ! -name BUILD ! -name SHA256SUMS -print0 | sort -z | xargs -0 sha256sum > SHA256SUMS)
	@size=$$(du -sb $(GPU_BUNDLE) | cut -f1); mib=$$(( (size + 1048575) / 1048576 )); \
	  ref=$$(du -sb $(GPU_BUNDLE)/ref | cut -f1); \
	  echo "$(GPU_BUNDLE): $$mib MiB, of which the paper's code $$(( (ref + 1023) / 1024 )) KiB (limit $(GPU_MAX_MIB) MiB)"; \
	  if [ $$mib -gt $(GPU_MAX_MIB) ]; then echo "gpu-bundle: over $(GPU_MAX_MIB) MiB: it would not travel"; exit 1; fi

# --- REPL symbols and notebooks (tools/repl, tools/gotools, notebooks) ---------------
#
# The notebook kernel is GoNB v0.11.5 (pinned in the tools
# module tools/gotools) under the Jupyter name "gexph"; `make notebooks` needs Debian's
# jupyter-nbconvert and jupyter-client:
#   apt-get install -y --no-install-recommends jupyter-nbconvert jupyter-client
# and `make jupyter` a notebook server as well (Debian's jupyter-notebook, or JupyterLab).

JUPYTER       ?= /usr/bin/jupyter
NOTEBOOKS     := $(sort $(wildcard notebooks/*.ipynb))
NOTEBOOK_OUT  := $(BUILD)/notebooks
# Seconds one cell may run (a cold GoMLX cell compiles for ~70 s on 2 cores).
CELL_TIMEOUT  ?= 900

## repl-symbols: regenerate the REPL's symbol tables (gonum mat and gexph's packages)
## with `yaegi extract`; rerun whenever an exported API of those packages changes.
repl-symbols:
	$(GO) build ./expander ./spectral ./data/... ./plots ./gexph/... ./suite
	cd tools/repl/symbols && $(GO) generate .
	$(GO) vet ./tools/repl/...

## notebook-kernel: install gonb and goimports into $(GOBIN_DIR) and the "gexph" Jupyter
## kernel (offline: pinned toolchain, GOPROXY=off, this module in the kernel's go.work).
## Every module of go.mod is downloaded first: the offline kernel resolves them all,
## also those that only the xla build tag compiles.
notebook-kernel:
	$(GO) mod download
	cd tools/gotools && GOBIN=$(GOBIN_DIR) $(GO) install tool
	tools/gotools/install-kernel.sh "$(CURDIR)" "$(GOBIN_DIR)"

## jupyter: start a Jupyter server on notebooks/ with the gexph kernel.
jupyter: notebook-kernel
	@if $(JUPYTER) lab --version >/dev/null 2>&1; then \
	  cd notebooks && exec $(JUPYTER) lab; \
	elif $(JUPYTER) notebook --version >/dev/null 2>&1; then \
	  cd notebooks && exec $(JUPYTER) notebook; \
	else \
	  echo "no Jupyter server: apt-get install jupyter-notebook (or pip install jupyterlab)"; exit 1; \
	fi

## notebooks-clear: clear outputs and run metadata of the notebooks before committing.
notebooks-clear:
	$(JUPYTER) nbconvert --clear-output --ClearMetadataPreprocessor.enabled=True \
	  --ClearMetadataPreprocessor.clear_notebook_metadata=False --inplace $(NOTEBOOKS)

## notebooks: execute every notebook headless into build/notebooks (kernel log next to
## each copy), then check the executed copies: every cell ran without error, printed
## the expected numbers and displayed real figures. Cell errors do not stop nbconvert
## (allow_errors keeps the failing cell's output in the copy); the test reports them.
notebooks: notebook-kernel
	@mkdir -p $(NOTEBOOK_OUT)
	@for nb in $(NOTEBOOKS); do \
	  name=$$(basename $$nb .ipynb); start=$$(date +%s); \
	  echo "executing $$nb"; \
	  if ! $(JUPYTER) nbconvert --to notebook --execute \
	      --ExecutePreprocessor.kernel_name=gexph \
	      --ExecutePreprocessor.allow_errors=True \
	      --ExecutePreprocessor.timeout=$(CELL_TIMEOUT) \
	      --output-dir $(NOTEBOOK_OUT) $$nb 2>$(NOTEBOOK_OUT)/$$name.log; then \
	    tail -n 30 $(NOTEBOOK_OUT)/$$name.log; exit 1; \
	  fi; \
	  echo "  $$name: $$(( $$(date +%s) - start )) s"; \
	done
	GEXPH_NOTEBOOKS=1 $(GO) test -count=1 -run Executed ./notebooks/

clean:
	rm -rf $(BUILD)
