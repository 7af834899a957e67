#!/usr/bin/env bash
# Runs models that ONNX Runtime optimized offline (onnxruntime-node 1.30, optimizedModelFilePath)
# through `ort run` and compares with ORT's outputs, for each level basic, extended and all. ORT's
# optimized models carry its contrib ops (com.microsoft FusedConv, FusedGemm, Gelu,
# SkipLayerNormalization, Attention, ...; com.microsoft.nchwc at level all, with filters already
# in ORT's blocked layouts), so this checks that what ORT's offline optimizer ships runs here.
# Each model runs twice: `-o disable` (exactly ORT's graph) and `-o all` (our passes on top).
# Level-all models are hardware specific (ORT warns so): run them where they were made.
# Tolerances rtol 1e-3, atol 1e-4 (RTOL, ATOL). Prints a table; exits 1 on any mismatch or error.
#   tools/suite/ort_optimized_suite.sh [ORT_BINARY] [SUITE]
# MODELS overrides the model list, LEVELS the levels; WORK keeps the optimized models and
# outputs (default: a temporary directory, removed afterwards).
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
ort_bin=${1:-$repo/build/apps/ort/ort}
suite=${2:-$repo/suite}
rtol=${RTOL:-1e-3}
atol=${ATOL:-1e-4}
models=${MODELS:-"resnet50 mobilenet_v2 squeezenet1_1 bert_base silero_vad_v5 ppocr_v4_det"}
levels=${LEVELS:-"basic extended all"}
export ORT_NODE_MODULES="$suite/node_modules"
# shellcheck source=tools/suite/ort_run_compare.sh
. "$repo/tools/suite/ort_run_compare.sh"
make_work_dir

failures=0
printf '%-16s %-9s %-14s %-14s\n' model ort-level "ours -o disable" "ours -o all"
for model in $models; do
  inputs=()
  for file in "$suite/inputs/$model"/*.npy; do
    inputs+=(--input "$(basename "$file" .npy)=$file")
  done
  for level in $levels; do
    optimized="$work/$model.$level.onnx"
    reference="$work/$model.$level.reference"
    rm -rf "$reference"
    if ! node "$repo/tools/suite/ort_reference.js" "$suite/models/$model.onnx" "${inputs[@]}" \
      --opt-level "$level" --save-optimized "$optimized" --output-dir "$reference" \
      > /dev/null 2> "$work/$model.$level.node.log"; then
      printf '%-16s %-9s %s\n' "$model" "$level" "ERROR: onnxruntime-node failed"
      failures=$((failures + 1))
      continue
    fi
    cells=()
    for ours_level in disable all; do
      log="$work/$model.$level.$ours_level.log"
      cell=$(compare "$reference" "$log" "$ort_bin" run "$optimized" "${inputs[@]}" -o "$ours_level")
      [[ $cell == ok* ]] || {
        failures=$((failures + 1))
        cell="$cell: $(grep -v "max abs diff" "$log" | tail -n1 | cut -c1-160)"
      }
      cells+=("$cell")
    done
    printf '%-16s %-9s %-14s %-14s\n' "$model" "$level" "${cells[0]}" "${cells[1]}"
  done
done
if [ "$failures" -gt 0 ]; then
  echo "ort_optimized_suite: $failures failing runs" >&2
  exit 1
fi
