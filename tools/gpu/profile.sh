# Sourced by check.sh: the `profile` step, run only when named
# (`bash tools/gpu/check.sh profile`), which finds where a PATTERN training step's time
# goes on the GPU (docs/GPU.md, "The program a GPU runs"):
#
#   profile-hlo        the step's optimised HLO dumped by XLA and counted by
#                      hlo_census.py: the kernels a step launches, by kind;
#   profile-ablation-* the step without attention, without the MPNN, with one layer:
#                      which part of the model the time follows;
#   profile-autotune0  the step with XLA's GEMM autotuning off: its share of compiling;
#   profile-cache-1/2  the step twice with XLA's kernel and autotune caches in one folder:
#                      what a second process of a run (or a resumed run) saves;
#   profile-nsys       where nsys is installed, its kernel summary of the step.
#
# Each is a `gexph bench -case model -preset pattern` of its own process; their records
# (ms per step, compile, forward) and hlo-census.json go to $OUT/profile. A dry run runs
# them on the go backend at small sizes, without the XLA flags (the plumbing only).

profile_steps() {
  local dir=$OUT/profile small=""
  [ -n "$DRYRUN" ] && small=1
  mkdir -p "$dir"
  local bench=("$GEXPH" bench -case model -preset pattern -data-dir "$DATA" -backend "$(xla)" ${small:+-batch 2 -steps 1} -json)

  # The optimised HLO of the step, and its kernels.
  local dump=$WORK/xla-dump
  mkdir -p "$dump"
  if [ -n "$DRYRUN" ]; then
    step profile-hlo 60 "${bench[@]}"
  else
    XLA_FLAGS="${XLA_FLAGS:-} --xla_dump_to=$dump --xla_dump_hlo_as_text" step profile-hlo 90 "${bench[@]}"
  fi
  python3 "$HERE/hlo_census.py" "$dump" >"$dir/hlo-census.json" 2>>"$LOG" || echo '{"modules": []}' >"$dir/hlo-census.json"
  # The largest optimised module (the training step), compressed, for reading later.
  local big
  big=$(ls -S "$dump"/*after_optimizations.txt 2>/dev/null | head -1)
  [ -n "$big" ] && gzip -c "$big" >"$dir/$(basename "$big").gz"

  # Which part of the model the step's time follows.
  step profile-ablation-noattention 75 "${bench[@]}" -set '{"attention":"none"}'
  step profile-ablation-nompnn 75 "${bench[@]}" -set '{"mpnn":"none"}'
  step profile-ablation-onelayer 75 "${bench[@]}" -set '{"layers":1}'

  if [ -z "$DRYRUN" ]; then
    # GEMM autotuning's share of compiling.
    XLA_FLAGS="${XLA_FLAGS:-} --xla_gpu_autotune_level=0" step profile-autotune0 75 "${bench[@]}"
    # XLA's caches across processes: the second compile reads what the first wrote.
    local cache=$WORK/xla-cache
    mkdir -p "$cache/autotune"
    local flags="${XLA_FLAGS:-} --xla_gpu_kernel_cache_file=$cache/kernels --xla_gpu_per_fusion_autotune_cache_dir=$cache/autotune"
    XLA_FLAGS=$flags step profile-cache-1 75 "${bench[@]}"
    XLA_FLAGS=$flags step profile-cache-2 75 "${bench[@]}"
    if command -v nsys >/dev/null 2>&1; then
      step profile-nsys 120 nsys profile --stats=true --force-overwrite=true -o "$dir/pattern-step" "${bench[@]}"
    fi
  fi
}
