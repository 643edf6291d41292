#!/usr/bin/env bash
# The equal-budget comparison of gexph with the paper's own code (docs/REFERENCE.md):
# the same exported graphs, the reference's config (configs/Exphormer/DATASET.yaml) and
# gexph's preset set to the same hyperparameters, the same epochs, seeds 1..SEEDS on each
# side, one run at a time (timings are only comparable alone). Resumable: a seed whose
# record exists is skipped.
#
#   bash tools/pyg/equal_budget.sh pattern|cluster|mnist|peptides-func [SEEDS]     # needs ../shared/peers/stage.sh once
#
# Records go to docs/results/equal-budget/DATASET/{reference,gexph}-sS.json (gexph's is
# the run's result.json, its history included); the data to /tmp/gexph-equal-budget/DATASET.
set -euo pipefail
cd "$(dirname "$0")/../.."
DATASET=${1:?usage: equal_budget.sh pattern|cluster|mnist|peptides-func [SEEDS]}
SEEDS=${2:-3}
REF=${EXPHORMER_REF:-$HOME/exphormer-ref}
OUT=docs/results/equal-budget/$DATASET
DATA=${EQB_DATA:-/tmp/gexph-equal-budget}/$DATASET
export GOTOOLCHAIN=go1.27.0 GOEXPERIMENT=simd GOMLX_BACKEND=go THREADS=${THREADS:-$(nproc)}

# The budget and the hyperparameters on which gexph's preset differs from what the
# reference code does (docs/REFERENCE.md lists each difference): its Exphormer layer has
# no attention dropout whatever the config says, and clamps its attention scores; its
# head L2-normalises the hidden layers (GraphGym's MLP), its virtual nodes carry the
# attention's output alone, and PyTorch draws biases and the one-hot node encoder
# uniform (head_l2norm, reference_virtual_nodes, torch_init: with these and the same
# weights both compute the same outputs and gradients on a batch).
case $DATASET in
  pattern)
    GRAPHS=(500 125 125) EPOCHS=8 CFG=configs/Exphormer/pattern.yaml NAME=PATTERN
    REF_SET=(optim.num_warmup_epochs 0)
    GEXPH_SET=(warmup_epochs=0 attn_dropout=0 reference_attention=true weight_decay=2e-5
      head_l2norm=true reference_virtual_nodes=true torch_init=true) ;;
  cluster)
    GRAPHS=(250 60 60) EPOCHS=5 CFG=configs/Exphormer/cluster.yaml NAME=CLUSTER
    REF_SET=(optim.num_warmup_epochs 0)
    GEXPH_SET=(warmup_epochs=0 dropout=0.1 attn_dropout=0 reference_attention=true
      head_l2norm=true reference_virtual_nodes=true torch_init=true) ;;
  mnist)
    GRAPHS=(1000 200 200) EPOCHS=5 CFG=configs/Exphormer/mnist.yaml NAME=MNIST
    REF_SET=(optim.num_warmup_epochs 0)
    GEXPH_SET=(warmup_epochs=0 attn_dropout=0 reference_attention=true
      head_l2norm=true reference_virtual_nodes=true torch_init=true) ;;
  peptides-func)
    # The export holds the whole official split; both sides train on the first graphs
    # of each split (gexph's max_train/max_val/max_test, the harness's --max-graphs).
    GRAPHS=(1000 250 250) EPOCHS=5 CFG=configs/Exphormer_LRGB/Peptides_Func.yaml NAME=peptides-functional
    REF_SET=(optim.num_warmup_epochs 0) REF_ARGS=(--max-graphs "${GRAPHS[@]}")
    GEXPH_SET=(warmup_epochs=0 attn_dropout=0 reference_attention=true head_layers=1
      reference_virtual_nodes=true torch_init=true
      "max_train=${GRAPHS[0]}" "max_val=${GRAPHS[1]}" "max_test=${GRAPHS[2]}") ;;
  *) echo "equal_budget.sh: no budget for $DATASET (pattern, cluster, mnist, peptides-func)" >&2; exit 2 ;;
esac

mkdir -p "$OUT"
make -s build
if [ ! -f "$DATA/meta.json" ]; then
  build/gexph data -dataset "$DATASET" -seed 1 -train-graphs "${GRAPHS[0]}" -val-graphs "${GRAPHS[1]}" \
    -test-graphs "${GRAPHS[2]}" -export "$DATA"
fi

for s in $(seq 1 "$SEEDS"); do
  rec=$OUT/reference-s$s.json
  [ -f "$rec" ] && { echo "reference seed $s: done ($rec)"; continue; }
  echo "reference seed $s"
  ( . "$REF/ref_env.sh" >/dev/null
    "$PY" tools/pyg/ref_graph_train.py --export "$DATA" --cfg "$CFG" --name "$NAME" --epochs "$EPOCHS" \
      --seed "$s" $(printf -- '--set %s %s ' "${REF_SET[@]}") ${REF_ARGS[@]+"${REF_ARGS[@]}"} --json "$rec" )
done

for s in $(seq 1 "$SEEDS"); do
  rec=$OUT/gexph-s$s.json
  [ -f "$rec" ] && { echo "gexph seed $s: done ($rec)"; continue; }
  echo "gexph seed $s"
  run=runs/equal-budget/$DATASET-s$s
  sets=(-set "epochs=$EPOCHS")
  for kv in "${GEXPH_SET[@]}"; do sets+=(-set "$kv"); done
  build/gexph train -dataset "export:$DATA" -preset "$DATASET" "${sets[@]}" -seed "$s" -out "$run" -force -quiet
  cp "$run/result.json" "$rec.tmp" && mv "$rec.tmp" "$rec"
done
echo "records in $OUT"
