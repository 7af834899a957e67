#!/usr/bin/env bash
# Checks that every suite model run through `ort run` matches onnxruntime-node 1.30 on the same
# inputs (rtol 1e-3, atol 1e-4 by default). Run tools/suite/make_suite.sh first.
#   tools/suite/compare_suite.sh [ORT_BINARY] [SUITE]
# ORT_FLAGS adds options to every `ort run` (e.g. "-r 2" to check runs placed by a memory
# pattern, "-P -y 2" for parallel mode).
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
ort_bin=${1:-$repo/build/apps/ort/ort}
suite=${2:-$repo/suite}
rtol=${RTOL:-1e-3}
atol=${ATOL:-1e-4}
models=${MODELS:-"resnet50 mobilenet_v2 squeezenet1_1 bert_base silero_vad_v5 ppocr_v4_det"}
export ORT_NODE_MODULES="$suite/node_modules"

failures=0
printf '%-16s %-8s %s\n' model result detail
for model in $models; do
  inputs=()
  for file in "$suite/inputs/$model"/*.npy; do
    name=$(basename "$file" .npy)
    inputs+=(--input "$name=$file")
  done
  reference="$suite/reference/$model"
  rm -rf "$reference"
  if ! node "$repo/tools/suite/ort_reference.js" "$suite/models/$model.onnx" "${inputs[@]}" \
      --output-dir "$reference" > /dev/null; then
    printf '%-16s %-8s %s\n' "$model" ERROR "onnxruntime-node failed"
    failures=$((failures + 1))
    continue
  fi
  # shellcheck disable=SC2086
  log=$("$ort_bin" run "$suite/models/$model.onnx" "${inputs[@]}" ${ORT_FLAGS:-} --expected-dir "$reference" \
        --rtol "$rtol" --atol "$atol" 2>&1)
  status=$?
  detail=$(echo "$log" | grep -E "max abs diff" | sed 's/^ *//' | tr -s ' ' | paste -sd ';' -)
  if [ $status -eq 0 ]; then
    printf '%-16s %-8s %s\n' "$model" match "$detail"
  else
    printf '%-16s %-8s %s\n' "$model" MISMATCH "${detail:-$(echo "$log" | tail -1)}"
    failures=$((failures + 1))
  fi
done
exit $((failures > 0))
