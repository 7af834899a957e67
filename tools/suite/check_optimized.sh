#!/usr/bin/env bash
# Checks the optimizer on every suite model, for each level basic, extended and all:
#   run      `ort run -o LEVEL` matches `ort run -o disable`;
#   saved    the `ort optimize --level LEVEL` output, reloaded by `ort run -o LEVEL`, matches too;
#   ort-node onnxruntime-node 1.30 loads the optimized model and matches onnxruntime-node on the
#            original (level all included: its com.microsoft.nchwc ops use ORT's filter layouts).
# Tolerances rtol 1e-3, atol 1e-4 (RTOL, ATOL). Prints a table; exits 1 on any mismatch or error.
#   tools/suite/check_optimized.sh [ORT_BINARY] [SUITE]
# MODELS overrides the model list; WORK keeps the optimized models and outputs (default: a
# temporary directory, removed afterwards).
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
ort_bin=${1:-$repo/build/apps/ort/ort}
suite=${2:-$repo/suite}
rtol=${RTOL:-1e-3}
atol=${ATOL:-1e-4}
models=${MODELS:-"resnet50 mobilenet_v2 squeezenet1_1 bert_base silero_vad_v5 ppocr_v4_det two_branch"}
export ORT_NODE_MODULES="$suite/node_modules"
# shellcheck source=tools/suite/ort_run_compare.sh
. "$repo/tools/suite/ort_run_compare.sh"
make_work_dir

# Compares the .npy files of two directories with numpy's allclose; prints one cell.
compare_npy() {
  /usr/bin/python3 - "$1" "$2" "$rtol" "$atol" <<'PY'
import os, sys
import numpy as np
expected_dir, actual_dir, rtol, atol = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
worst, ok = 0.0, True
for name in sorted(os.listdir(expected_dir)):
    expected = np.load(os.path.join(expected_dir, name))
    path = os.path.join(actual_dir, name)
    if not os.path.exists(path):
        print(f"MISSING({name})")
        sys.exit(0)
    actual = np.load(path)
    if actual.shape != expected.shape:
        print(f"SHAPE({name})")
        sys.exit(0)
    if expected.size:
        diff = np.abs(actual.astype(np.float64) - expected.astype(np.float64))
        worst = max(worst, float(diff.max()))
        ok = ok and bool(np.allclose(actual, expected, rtol=rtol, atol=atol))
print(f"{'ok' if ok else 'MISMATCH'}({worst:.2g})")
PY
}

failures=0
printf '%-14s %-9s %7s %-18s %-18s %-18s\n' model level nodes "run -o LEVEL" "optimize+reload" "onnxruntime-node"
for model in $models; do
  source_model=$suite/models/$model.onnx
  dir=$work/$model
  mkdir -p "$dir"
  inputs=()
  for file in "$suite/inputs/$model"/*.npy; do
    inputs+=(--input "$(basename "$file" .npy)=$file")
  done
  if ! "$ort_bin" run "$source_model" "${inputs[@]}" -o disable --output-dir "$dir/disable" \
      --output-format npy > "$dir/disable.log" 2>&1; then
    printf '%-14s %-9s %7s %s\n' "$model" - - "ERROR: ort run -o disable: $(tail -1 "$dir/disable.log")"
    failures=$((failures + 1))
    continue
  fi
  node_reference=ok
  node "$repo/tools/suite/ort_reference.js" "$source_model" "${inputs[@]}" \
    --output-dir "$dir/node_original" > "$dir/node_original.log" 2>&1 || node_reference=ERROR
  for level in basic extended all; do
    run=$(compare "$dir/disable" "$dir/run_$level.log" "$ort_bin" run "$source_model" \
      "${inputs[@]}" -o "$level")
    optimized=$dir/$level.onnx
    nodes=-
    if "$ort_bin" optimize "$source_model" --level "$level" -o "$optimized" \
        --report "$dir/$level.json" > "$dir/optimize_$level.log" 2>&1; then
      nodes=$(grep -oE '"nodes_after": [0-9]+' "$dir/$level.json" | grep -oE '[0-9]+$')
      saved=$(compare "$dir/disable" "$dir/saved_$level.log" "$ort_bin" run "$optimized" \
        "${inputs[@]}" -o "$level")
    else
      saved="ERROR(optimize)"
    fi
    if [ "$node_reference" != ok ]; then
      reference="ERROR(original)"
    elif [ "$nodes" = - ]; then
      reference="ERROR(optimize)"
    elif node "$repo/tools/suite/ort_reference.js" "$optimized" "${inputs[@]}" \
        --output-dir "$dir/node_$level" > "$dir/node_$level.log" 2>&1; then
      reference=$(compare_npy "$dir/node_original" "$dir/node_$level")
    else
      reference="ERROR(load)"
    fi
    for cell in "$run" "$saved" "$reference"; do
      case $cell in ok* | -) ;; *) failures=$((failures + 1)) ;; esac
    done
    printf '%-14s %-9s %7s %-18s %-18s %-18s\n' "$model" "$level" "$nodes" "$run" "$saved" "$reference"
  done
done
echo "logs and optimized models: $work$([ -z "${WORK:-}" ] && echo ' (removed; set WORK to keep)')"
exit $((failures > 0))
