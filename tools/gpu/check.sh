#!/usr/bin/env bash
# The device check of gexph's XLA/CUDA path (docs/GPU.md): run on a machine with an
# NVIDIA GPU, JAX's CUDA PJRT plugin and no Go, with build/gpu (from `make gpu-bundle`)
# carried beside the working tree:
#
#   bash tools/gpu/check.sh [STEP ...]     # default: every step, in this order
#
# Steps: tests equivalence bench-pattern epoch-pattern ref-pattern-step ref-pattern-epoch
# attention train bench-scaling bench-cluster ref-cluster-step bench-mnist bench-peptides;
# "record" names the steps of the record (docs/GPU.md, "A record per check"), in the
# order that fits one call: bench-pattern ref-pattern-step ref-pattern-epoch
# epoch-pattern bench-cluster bench-mnist bench-peptides. The ref-* steps run the paper's
# code (carried in the bundle, unmodified) through tools/gpu/ref/ref_bench.py on the same
# GPU. Only when named, resume: continue the training run
# carried in the bundle (make gpu-bundle GPU_RUN=DIR GPU_RUN_ARGS='...') until the
# check's time is nearly spent, and bring its files back in $OUT/run; and profile (see
# profile.sh): the PATTERN step's optimised HLO counted by kernel, ablations, XLA's
# autotuning and caches, into $OUT/profile. Each step has its
# own time budget (seconds, below) inside a global one (GEXPH_CHECK_SECONDS, default
# 585), so one hang cannot eat the session's device time; a step cut short is reported
# as "timeout" and the next one runs.
# Everything goes to $OUT (default build/gpu-out): check.json (the summary: device,
# driver, plugin, each step's status, seconds and figures), record.json (the check's
# record, to be committed as docs/results/gpu/DATE-DEVICE.json: check.json's
# record_file) and check.log (all output).
#
# Environment: GEXPH_PJRT_PLUGIN (the plugin's path, else found through python3),
# GEXPH_GPU_BUNDLE (default build/gpu), GEXPH_CHECK_SECONDS, GEXPH_CHECK_DRYRUN=1 (run
# the steps on the go backend with small sizes, no GPU needed: tests the plumbing; the
# ref-* steps then run on the CPU, or are skipped where no python3 has torch),
# GEXPH_REF_PYTHON (the python3 with torch for the ref-* steps; default python3, and
# Debian's /usr/bin/python3 too in a dry run).
# Exit status: 0 every step passed, 1 a step failed or timed out, 2 no device, no
# plugin or no bundle (nothing ran).
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUNDLE=${GEXPH_GPU_BUNDLE:-$ROOT/build/gpu}
OUT=${OUT:-$ROOT/build/gpu-out}
DRYRUN=${GEXPH_CHECK_DRYRUN:-}
DEADLINE=$(( $(date +%s) + ${GEXPH_CHECK_SECONDS:-585} ))
ALL_STEPS="tests equivalence bench-pattern epoch-pattern ref-pattern-step ref-pattern-epoch attention train bench-scaling bench-cluster ref-cluster-step bench-mnist bench-peptides"
RECORD_STEPS="bench-pattern ref-pattern-step ref-pattern-epoch epoch-pattern bench-cluster bench-mnist bench-peptides"
NAMED_STEPS="resume record profile"
mkdir -p "$OUT"
LOG=$OUT/check.log
WORK=$(mktemp -d "${TMPDIR:-/tmp}/gexph-gpu.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
: >"$LOG"

log() { echo "[$(date -u +%H:%M:%S)] $*" | tee -a "$LOG" >&2; }

# The profile step (profile.sh): where a PATTERN step's time goes on the GPU.
# shellcheck source=tools/gpu/profile.sh
. "$HERE/profile.sh"

# json_escape prints its argument as a JSON string.
json_escape() {
  local s=${1//\\/\\\\}
  s=${s//\"/\\\"}
  s=${s//$'\n'/\\n}
  s=${s//$'\t'/ }
  printf '"%s"' "$s"
}

# give_up writes a summary without steps and exits 2: nothing could run.
give_up() {
  local status=$1 msg=$2
  log "gexph GPU check: $msg"
  printf '{"status": %s, "message": %s, "steps": {}}\n' "$(json_escape "$status")" "$(json_escape "$msg")" >"$OUT/check.json"
  exit 2
}

# --- What is there: device, plugin, CUDA libraries, bundle ---------------------------

find_device() {
  [ -n "$DRYRUN" ] && return 0
  if ! command -v nvidia-smi >/dev/null 2>&1; then
    give_up no-device "no NVIDIA GPU: nvidia-smi is not installed (this check needs a machine with an NVIDIA GPU and its driver)"
  fi
  if ! nvidia-smi -L 2>>"$LOG" | grep -q '^GPU '; then
    give_up no-device "no NVIDIA GPU: nvidia-smi lists no device ($(nvidia-smi -L 2>&1 | head -1))"
  fi
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader >"$WORK/device.txt" 2>>"$LOG"
  nvidia-smi >>"$LOG" 2>&1
  log "device: $(head -1 "$WORK/device.txt")"
}

# site_dirs prints python3's site-packages folders and the usual places of pip installs.
site_dirs() {
  command -v python3 >/dev/null 2>&1 &&
    python3 -c 'import site, sys; print("\n".join(site.getsitepackages() + [site.getusersitepackages()] + sys.path))' 2>/dev/null
  ls -d /usr/local/lib/python3*/dist-packages /usr/lib/python3/dist-packages /opt/*/.venv/lib/python3*/site-packages 2>/dev/null
}

find_plugin() {
  [ -n "$DRYRUN" ] && { PLUGIN=""; return 0; }
  PLUGIN=${GEXPH_PJRT_PLUGIN:-}
  if [ -z "$PLUGIN" ] && command -v python3 >/dev/null 2>&1; then
    local dir
    dir=$(python3 -c 'import importlib.util, os; s = importlib.util.find_spec("jax_plugins.xla_cuda13") or importlib.util.find_spec("jax_plugins.xla_cuda12"); print(os.path.dirname(s.origin) if s and s.origin else "")' 2>>"$LOG")
    [ -n "$dir" ] && [ -f "$dir/xla_cuda_plugin.so" ] && PLUGIN=$dir/xla_cuda_plugin.so
  fi
  if [ -z "$PLUGIN" ]; then
    local d
    for d in $(site_dirs | sort -u); do
      for f in "$d"/jax_plugins/xla_cuda13/xla_cuda_plugin.so "$d"/jax_plugins/xla_cuda12/xla_cuda_plugin.so; do
        [ -f "$f" ] && { PLUGIN=$f; break 2; }
      done
    done
  fi
  [ -n "$PLUGIN" ] && [ -f "$PLUGIN" ] ||
    give_up no-plugin "no CUDA PJRT plugin: neither GEXPH_PJRT_PLUGIN nor python3's jax_plugins.xla_cuda13 (package jax-cuda13-pjrt) gives one"
  log "plugin: $PLUGIN"
}

# cuda_env puts the CUDA libraries of the nvidia-* pip packages beside the plugin on the
# library path, and points XLA at the folder that holds libdevice and ptxas.
cuda_env() {
  [ -n "$DRYRUN" ] && return 0
  local site nv libs="" datadir="" d
  site=$(dirname "$(dirname "$(dirname "$PLUGIN")")")
  nv=$site/nvidia
  if [ -d "$nv" ]; then
    # nvidia/<pkg>/lib (CUDA 12 wheels) or nvidia/cu13/lib (CUDA 13 wheels).
    for d in $(find "$nv" -maxdepth 3 -type d \( -name lib -o -name lib64 \) 2>/dev/null | sort); do
      libs=$libs:$d
    done
    d=$(find "$nv" -path '*nvvm/libdevice/libdevice*.bc' 2>/dev/null | head -1)
    [ -n "$d" ] && datadir=$(dirname "$(dirname "$(dirname "$d")")")
    d=$(find "$nv" -name ptxas -type f 2>/dev/null | head -1)
    [ -n "$d" ] && export PATH=$(dirname "$d"):$PATH
  fi
  export LD_LIBRARY_PATH=${libs#:}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  if [ -n "$datadir" ] && [[ "${XLA_FLAGS:-}" != *xla_gpu_cuda_data_dir* ]]; then
    export XLA_FLAGS="${XLA_FLAGS:+$XLA_FLAGS }--xla_gpu_cuda_data_dir=$datadir"
  fi
  export GOPJRT_CUDA_CHECKS=0
  log "LD_LIBRARY_PATH=$LD_LIBRARY_PATH"
  log "XLA_FLAGS=${XLA_FLAGS:-}"
}

# unpack puts the bundle's binaries (gzipped or not) into $WORK/bin.
unpack() {
  mkdir -p "$WORK/bin"
  local name
  for name in gexph gexph.test; do
    if [ -f "$BUNDLE/$name.gz" ]; then
      gzip -dc "$BUNDLE/$name.gz" >"$WORK/bin/$name" 2>>"$LOG" ||
        python3 -c 'import gzip, shutil, sys; shutil.copyfileobj(gzip.open(sys.argv[1]), open(sys.argv[2], "wb"))' "$BUNDLE/$name.gz" "$WORK/bin/$name" ||
        give_up no-bundle "cannot unpack $BUNDLE/$name.gz"
    elif [ -f "$BUNDLE/$name" ]; then
      cp "$BUNDLE/$name" "$WORK/bin/$name"
    else
      give_up no-bundle "no $name in $BUNDLE: run 'make gpu-bundle' on a machine with Go and carry build/gpu"
    fi
    chmod +x "$WORK/bin/$name"
  done
  if [ -f "$BUNDLE/SHA256SUMS" ] && command -v sha256sum >/dev/null 2>&1; then
    (cd "$BUNDLE" && sha256sum --quiet -c SHA256SUMS >>"$LOG" 2>&1) || give_up no-bundle "$BUNDLE does not match its SHA256SUMS: rebuild it with 'make gpu-bundle'"
  fi
  GEXPH=$WORK/bin/gexph
  DATA=$BUNDLE/data
  [ -f "$BUNDLE/BUILD" ] && log "bundle: $(tr '\n' ' ' <"$BUNDLE/BUILD")"
}

# host_facts logs what a failed run needs to be understood: processor, Python, the
# plugin packages' versions and the CUDA folders beside the plugin.
host_facts() {
  [ -n "$DRYRUN" ] && return 0
  {
    echo "host: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2-)"
    echo "python3: $(python3 --version 2>&1)"
    python3 -m pip list 2>/dev/null | grep -i -E '^(jax|jaxlib|nvidia-|torch )' || true
    ls "$(dirname "$(dirname "$(dirname "$PLUGIN")")")/nvidia" 2>/dev/null | tr '\n' ' '
    echo
  } >>"$LOG" 2>&1
}

# --- Running one step -----------------------------------------------------------------

# budget SECONDS prints the step's budget cut to what the global deadline leaves.
budget() {
  local left=$(( DEADLINE - $(date +%s) ))
  (( left < $1 )) && echo $(( left > 0 ? left : 0 )) || echo "$1"
}

# mem_start / mem_stop sample the device's used memory every 100 ms while a step runs
# and print the peak in MiB (nvidia-smi; XLA's CUDA allocator does not preallocate here).
mem_start() {
  rm -f "$WORK/mem.txt"
  [ -n "$DRYRUN" ] && return 0
  nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -lms 100 >"$WORK/mem.txt" 2>/dev/null &
  MEMPID=$!
}
mem_stop() {
  [ -n "${MEMPID:-}" ] && kill "$MEMPID" 2>/dev/null && wait "$MEMPID" 2>/dev/null
  MEMPID=""
  if [ -s "$WORK/mem.txt" ]; then sort -n "$WORK/mem.txt" | tail -1 | tr -d ' '; fi
}

# step NAME BUDGET CMD... runs one step under its budget and records its status, exit
# code, seconds and peak device memory in $WORK/steps/NAME.meta, its output in
# $WORK/steps/NAME.out and .err (summary.py reads them).
step() {
  local name=$1 secs rc status t0 peak
  secs=$(budget "$2")
  shift 2
  mkdir -p "$WORK/steps"
  if (( secs < 5 )); then
    log "step $name: skipped, the check's time is spent"
    printf 'status=skipped\nexit=0\nseconds=0\npeak_device_mib=\n' >"$WORK/steps/$name.meta"
    return 0
  fi
  log "step $name (budget ${secs} s): $*"
  t0=$(date +%s%N)
  mem_start
  timeout -k 10 "$secs" "$@" >"$WORK/steps/$name.out" 2>"$WORK/steps/$name.err"
  rc=$?
  peak=$(mem_stop)
  cat "$WORK/steps/$name.out" >>"$LOG"
  tail -n 40 "$WORK/steps/$name.err" >>"$LOG"
  case $rc in
    0) status=ok ;;
    124 | 137) status=timeout ;;
    *) status=failed ;;
  esac
  printf 'status=%s\nexit=%d\nseconds=%d.%03d\npeak_device_mib=%s\nbudget=%d\n' "$status" "$rc" \
    $(( ($(date +%s%N) - t0) / 1000000000 )) $(( ($(date +%s%N) - t0) / 1000000 % 1000 )) "$peak" "$secs" >"$WORK/steps/$name.meta"
  log "step $name: $status (exit $rc)"
}

# skip_step NAME REASON records a step that cannot run here (a dry run without torch).
skip_step() {
  mkdir -p "$WORK/steps"
  log "step $1: skipped, $2"
  printf 'status=skipped\nexit=0\nseconds=0\npeak_device_mib=\nreason=%s\n' "$2" >"$WORK/steps/$1.meta"
}

# --- The steps ------------------------------------------------------------------------

# xla BACKEND-OPTIONS prints the backend spec of the plugin ("go" in a dry run).
xla() {
  if [ -n "$DRYRUN" ]; then echo go; else echo "xla:$PLUGIN${1:+,$1}"; fi
}

# sz SMALL LARGE prints the size of a dry run or of the real check.
sz() { if [ -n "$DRYRUN" ]; then echo "$1"; else echo "$2"; fi; }

run_step() {
  local small=""
  [ -n "$DRYRUN" ] && small=1
  case $1 in
    tests)
      # The XLA tests of the gexph package on CUDA (TF32 off: they hold XLA to 1e-4).
      (cd "$ROOT/gexph" && GEXPH_XLA_BACKEND=$(xla tf32=false) GEXPH_XLA_REQUIRED=${DRYRUN:-1} \
        step tests 120 "$WORK/bin/gexph.test" -test.run 'XLA|CompareBackends' -test.v -test.timeout 110s) ;;
    equivalence)
      # Forward outputs and gradients on CUDA against the go backend, to 1e-4 relative:
      # PATTERN (a batch of 32 graphs) and Amazon Computers (the whole graph); then
      # PATTERN with TF32 on (XLA's default on CUDA), reported at 1e-2.
      step equivalence-pattern 60 "$GEXPH" compare -backend "$(xla tf32=false)" -dataset pattern ${small:+-batch 4} -json
      step equivalence-computers 90 "$GEXPH" compare -backend "$(xla tf32=false)" -dataset computers -data-dir "$DATA" \
        ${small:+-set layers=1 -set hidden_dim=16} -json
      step equivalence-pattern-tf32 45 "$GEXPH" compare -backend "$(xla)" -dataset pattern -tol 1e-2 ${small:+-batch 4} -json
      # CUDA's own float32 error: PATTERN against the go backend in float64. A
      # measurement (float32 gradients of GatedGCN are off by 1e-4 to 1e-2 of their
      # scale on any backend), so the bound is loose.
      step equivalence-pattern-float64 60 "$GEXPH" compare -backend "$(xla tf32=false)" -reference-float64 -dataset pattern \
        -tol 5e-2 ${small:+-batch 4} -json ;;
    bench-pattern | bench-cluster | bench-mnist | bench-peptides)
      local preset=${1#bench-}
      [ "$preset" = peptides ] && preset=peptides-func
      # CLUSTER's 20 layers compile in about 36 s on an H100; the others in 12–30 s.
      step "$1" "$([ "$preset" = cluster ] && echo 120 || echo 75)" "$GEXPH" bench -case model -preset "$preset" -data-dir "$DATA" -backend "$(xla)" ${small:+-batch 2 -steps 1} -json ;;
    bench-scaling)
      # The scaling preset on a planted-partition graph of 10⁶ nodes, width 64.
      step bench-scaling 150 "$GEXPH" bench -case model -preset scaling -dataset "planted:$(sz 2000 1000000)" \
        -set '{"hidden_dim":64}' -backend "$(xla)" ${small:+-steps 1} -json ;;
    train)
      # The pattern preset on 2,000 generated graphs for 5 epochs.
      step train 150 "$GEXPH" train -dataset pattern -preset pattern -train-graphs "$(sz 40 2000)" \
        -val-graphs "$(sz 8 500)" -test-graphs "$(sz 8 500)" -epochs "$(sz 1 5)" \
        -backend "$(xla)" -out "$WORK/run-pattern" -quiet -json ;;
    attention)
      # The same Exphormer attention layer: gexph on CUDA, then PyTorch on the same GPU.
      local n=$(sz 500 10000) e=$(sz 4000 120000)
      step attention-gexph 60 "$GEXPH" bench -case attention -n "$n" -e "$e" -hidden 64 -heads 4 -backend "$(xla)" -json
      if [ -n "$DRYRUN" ] && ! python3 -c 'import torch' 2>/dev/null; then
        step attention-torch 10 true
      else
        step attention-torch 60 python3 "$HERE/torch_attention_step.py" --n "$n" --e "$e" --d 64 --heads 4 \
          --device "$(sz cpu cuda)" --json
      fi ;;
    epoch-pattern)
      # gexph's PATTERN epoch at full size (pattern-ref: 10,000 training graphs, 2,000
      # validation and 2,000 test) for a few epochs; the summary takes the median epoch
      # after the first (which generates the data and compiles) from the run's log.
      step epoch-pattern "$(sz 300 240)" "$GEXPH" train -dataset pattern -preset pattern-ref -epochs "$(sz 2 3)" \
        ${small:+-train-graphs 16 -val-graphs 4 -test-graphs 4} -backend "$(xla)" -out "$WORK/run-epoch-pattern" -quiet -json ;;
    ref-pattern-step)
      # The paper's code: its PATTERN training step on 32 graphs (pattern.yaml's batch).
      ref_step ref-pattern-step "$(sz 180 60)" --dataset pattern --mode step ${small:+--graphs 4 --steps 1 --warmup 1} ;;
    ref-pattern-epoch)
      # The paper's code: its PATTERN epoch (custom_train: 10,000 training graphs, then
      # validation and test on 2,000 each) on the same graphs as epoch-pattern.
      ref_step ref-pattern-epoch "$(sz 300 210)" --dataset pattern --mode epoch --epochs "$(sz 2 3)" \
        ${small:+--train 16 --val 4 --test 4} ;;
    ref-cluster-step)
      # The paper's code: its CLUSTER training step (cluster.yaml: 16 graphs, 20 layers).
      ref_step ref-cluster-step "$(sz 180 60)" --dataset cluster --mode step ${small:+--graphs 2 --steps 1 --warmup 1} ;;
    resume)
      resume_run ;;
    profile)
      profile_steps ;;
    *)
      log "unknown step $1 (steps: $ALL_STEPS $NAMED_STEPS)"
      return 1 ;;
  esac
}

# ref_python prints the python3 that has torch: the GPU machine's python3; in a dry run
# also Debian's (python3-torch), where the python3 on PATH lacks it.
ref_python() {
  local py
  for py in ${GEXPH_REF_PYTHON:-} python3 ${DRYRUN:+/usr/bin/python3}; do
    "$py" -c 'import torch' >/dev/null 2>&1 && { echo "$py"; return 0; }
  done
  return 1
}

# ref_step NAME BUDGET ARGS... runs tools/gpu/ref/ref_bench.py with ARGS on the paper's
# code carried in the bundle (ref/: exphormer.tar.gz and its py-*.tar.gz dependencies,
# extracted once into $WORK/ref), on CUDA (the CPU in a dry run).
ref_step() {
  local name=$1 budget=$2 py t
  shift 2
  if ! py=$(ref_python); then
    if [ -n "$DRYRUN" ]; then
      skip_step "$name" "no python3 with torch (Debian: apt-get install python3-torch)"
    else
      step "$name" 5 sh -c 'echo "no python3 with torch on this machine" >&2; exit 1'
    fi
    return 0
  fi
  if [ ! -d "$WORK/ref/src" ]; then
    if [ ! -f "$BUNDLE/ref/exphormer.tar.gz" ]; then
      step "$name" 5 sh -c "echo 'no reference in $BUNDLE/ref: rebuild the bundle with make gpu-bundle' >&2; exit 1"
      return 0
    fi
    mkdir -p "$WORK/ref/src" "$WORK/ref/site"
    tar -xzf "$BUNDLE/ref/exphormer.tar.gz" -C "$WORK/ref/src" 2>>"$LOG"
    for t in "$BUNDLE"/ref/py-*.tar.gz; do tar -xzf "$t" -C "$WORK/ref/site" 2>>"$LOG"; done
  fi
  step "$name" "$budget" env PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore "$py" "$HERE/ref/ref_bench.py" \
    --ref "$WORK/ref/src" --site "$WORK/ref/site" --gexph "$GEXPH" --device "$(sz cpu cuda)" \
    ${DRYRUN:+--workers 2} "$@"
}

# resume_run continues the run in $BUNDLE/run (its run directory's files and args, the
# arguments of its `gexph train` command without -data-dir, -backend, -out and -resume)
# on the GPU, TF32 off so that its float32 arithmetic is the go backend's, until 20 s
# before the check's deadline, writing last.ckpt after every epoch (-ckpt-every 0). The
# budget's SIGTERM ends the run after its last complete epoch, as an interrupted run
# always does; that is this step's normal end once at least
# one epoch was added. The run's files come back in $OUT/run: `gexph train … -resume`
# continues it from there, on any backend.
resume_run() {
  local run=$BUNDLE/run before after args
  if [ ! -f "$run/last.ckpt" ] || [ ! -f "$run/args" ]; then
    log "step resume: no run in $run (make gpu-bundle GPU_RUN=DIR GPU_RUN_ARGS='the train arguments')"
    mkdir -p "$WORK/steps"
    printf 'status=failed\nexit=2\nseconds=0\npeak_device_mib=\n' >"$WORK/steps/resume.meta"
    return 0
  fi
  mkdir -p "$WORK/run" "$OUT/run"
  cp "$run"/*.ckpt "$run"/log.* "$WORK/run/"
  read -r -a args <"$run/args"
  before=$(grep -c '^{"epoch":' "$WORK/run/log.jsonl")
  step resume $(( DEADLINE - $(date +%s) - 20 )) "$GEXPH" train "${args[@]}" -data-dir "$DATA" \
    -backend "$(xla tf32=false)" -out "$WORK/run" -resume -ckpt-every 0 -quiet -json
  after=$(grep -c '^{"epoch":' "$WORK/run/log.jsonl")
  local f
  for f in last.ckpt best.ckpt log.jsonl log.csv result.json; do
    [ -f "$WORK/run/$f" ] && cp "$WORK/run/$f" "$OUT/run/"
  done
  if (( after > before )) && grep -q '^status=timeout$' "$WORK/steps/resume.meta"; then
    sed -i 's/^status=timeout$/status=ok/' "$WORK/steps/resume.meta"
  fi
  log "step resume: the run's log went from $before to $after epochs"
}

# summary writes check.json (summary.py) from the device facts and the steps' records.
summary() {
  python3 "$HERE/summary.py" --status "$1" --work "$WORK" --bundle "$BUNDLE" --plugin "${PLUGIN:-}" \
    --record "$OUT/record.json" ${DRYRUN:+--dryrun} >"$OUT/check.json" 2>>"$LOG" ||
    printf '{"status": "%s", "message": "summary.py failed: see check.log"}\n' "$1" >"$OUT/check.json"
}

main() {
  local steps=() s more failed=0
  for s in "${@:-$ALL_STEPS}"; do
    # "record" stands for the record's steps; a default run takes every step
    if [ "$s" = record ]; then s=$RECORD_STEPS; fi
    read -r -a more <<<"$s"
    steps+=("${more[@]}")
  done
  for s in "${steps[@]}"; do
    [[ " $ALL_STEPS $NAMED_STEPS " == *" $s "* ]] || give_up bad-step "unknown step $s (steps: $ALL_STEPS $NAMED_STEPS)"
  done
  find_device
  find_plugin
  unpack
  cuda_env
  host_facts
  for s in "${steps[@]}"; do
    run_step "$s"
  done
  grep -lE '^status=(failed|timeout)$' "$WORK"/steps/*.meta >/dev/null 2>&1 && failed=1
  summary "$([ $failed -eq 0 ] && echo ok || echo failed)"
  log "summary: $OUT/check.json; record: $OUT/record.json (commit it as $(python3 -c 'import json, sys; print(json.load(open(sys.argv[1])).get("record_file", "?"))' "$OUT/check.json" 2>/dev/null))"
  return $failed
}

main "$@"
