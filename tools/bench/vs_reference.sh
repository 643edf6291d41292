#!/usr/bin/env bash
# gexph beside the paper's code on this CPU, in one block, alternating (docs/PERFORMANCE.md,
# "How to measure"): ROUNDS rounds of the PATTERN step (the paper's code, gexph, gexph on
# the AVX2 path) and, with COMPUTERS=1, of the Amazon Computers epoch (the paper's code,
# gexph). Prints the CPU model, the commit, every figure and each pair's ratio.
#
#   bash tools/bench/vs_reference.sh [ROUNDS]       # default 2
#
# Environment: REF (the staged paper's code, default $HOME/exphormer-ref: bash
# ../shared/peers/stage.sh), GEXPH (default build/gexph), DATA (default ../shared/data),
# COMPUTERS=1 (also the Computers epoch: the reference needs about 15 GB), PAUSE (a pgrep -f
# pattern of processes to SIGSTOP while it runs, resumed at the end, e.g. gexph-bg).
# Run it alone: nothing else heavy on the machine. Exit status 2 when a part is missing.
set -uo pipefail

ROUNDS=${1:-2}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
REF=${REF:-$HOME/exphormer-ref}
GEXPH=${GEXPH:-$ROOT/build/gexph}
DATA=${DATA:-$ROOT/../shared/data}
export GOMLX_BACKEND=go

die() { echo "vs_reference: $*" >&2; exit 2; }
[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || die "ROUNDS must be a positive number, not \"$ROUNDS\""
[ -x "$GEXPH" ] || die "$GEXPH is missing: make build (or GEXPH=path)"
[ -f "$REF/run_pattern_step.sh" ] || die "no paper's code in $REF: bash ../shared/peers/stage.sh $REF (or REF=path)"
command -v python3 >/dev/null || die "python3 is needed to read gexph's JSON"

paused=""
if [ -n "${PAUSE:-}" ]; then
  paused=$(pgrep -f "$PAUSE" | grep -v "^$$\$" | tr '\n' ' ')
  [ -n "$paused" ] && kill -STOP $paused
  trap '[ -n "$paused" ] && kill -CONT $paused' EXIT
  sleep 2
fi

echo "cpu: $(lscpu | sed -n 's/^Model name: *//p' | head -1); $(nproc) cores; gexph sees: $("$GEXPH" version | sed -n 's/^machine *//p')"
echo "commit: $(git -C "$ROOT" log --oneline -1 2>/dev/null || echo unknown)"

# gexph_step [GODEBUG] prints gexph's PATTERN step in ms, its loss and peak RSS.
gexph_step() {
  GODEBUG=${1:-} "$GEXPH" bench -case model -preset pattern -steps 10 -json 2>/dev/null |
    python3 -c 'import json, sys; d = json.load(sys.stdin); print("%.1f %s %d" % (d["ms_per_step"], d["loss"], d["peak_rss_mb"]))'
}

# ratio A B prints A/B to one decimal.
ratio() { python3 -c "print('%.1fx' % ($1 / $2))"; }

for r in $(seq "$ROUNDS"); do
  ref=$(bash "$REF/run_pattern_step.sh" 2>&1 | sed -n 's/^pattern step ms: *//p')
  [ -n "$ref" ] || die "the paper's PATTERN step printed no time (run $REF/run_pattern_step.sh to see why)"
  read -r ms loss rss <<<"$(gexph_step)"
  read -r ms2 loss2 _ <<<"$(gexph_step cpu.avx512f=off)"
  echo "PATTERN round $r: paper's code $ref ms; gexph $ms ms ($(ratio "$ref" "$ms"), loss $loss, $rss MB); AVX2 path $ms2 ms ($(ratio "$ref" "$ms2"), $(python3 -c "print('%.2f' % ($ms2 / $ms))") times the native path, loss $loss2)"
done

if [ "${COMPUTERS:-}" = 1 ]; then
  out=$(mktemp -d)
  trap 'rm -rf "$out"; [ -n "$paused" ] && kill -CONT $paused' EXIT
  for r in $(seq "$ROUNDS"); do
    ref=$(SHARED_DATA=$DATA HEAPMALLOC=1 bash "$REF/run_node.sh" computers 6 2>&1 | sed -n 's/^full epoch s: median *//p')
    [ -n "$ref" ] || die "the paper's Computers epochs printed no time (memory? it needs about 15 GB)"
    rm -rf "$out/run"
    "$GEXPH" train -dataset computers -preset computers -epochs 6 -data-dir "$DATA" -out "$out/run" -quiet >/dev/null 2>&1 ||
      die "gexph train -dataset computers failed"
    s=$(python3 -c 'import csv, statistics, sys; r = list(csv.DictReader(open(sys.argv[1]))); print("%.3f" % statistics.median(float(x["seconds"]) for x in r[2:6]))' "$out/run/log.csv")
    echo "Computers round $r: paper's code $ref s an epoch; gexph $s s (median of epochs 3-6; $(ratio "$ref" "$s"))"
  done
fi
