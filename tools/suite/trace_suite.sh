#!/usr/bin/env bash
# Profiles suite models with `ort perf -p` (unoptimized, 1 warm-up + 3 measured runs) and checks
# each trace with test/apps/check_trace.py: valid Chrome trace JSON in which every node of the
# model appears once per run with its op type, provider, shapes and thread stats.
# Run tools/suite/make_suite.sh first.
#   tools/suite/trace_suite.sh [ORT_BINARY] [SUITE] [TRACE_DIR]
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
ort_bin=${1:-$repo/build/apps/ort/ort}
suite=${2:-$repo/suite}
traces=${3:-$suite/traces}
models=${MODELS:-"resnet50 bert_base"}
runs=3
warmup=1
mkdir -p "$traces"

failures=0
printf '%-12s %-8s %s\n' model result detail
for model in $models; do
  inputs=()
  for file in "$suite/inputs/$model"/*.npy; do
    inputs+=(--input "$(basename "$file" .npy)=$file")
  done
  trace="$traces/$model.json"
  rm -f "$trace"
  if ! log=$("$ort_bin" perf "$suite/models/$model.onnx" "${inputs[@]}" -o disable -r $runs \
      --warmup $warmup -p "$trace" 2>&1); then
    printf '%-12s %-8s %s\n' "$model" ERROR "ort perf failed: $(echo "$log" | tail -1)"
    failures=$((failures + 1))
    continue
  fi
  if check=$(/usr/bin/python3 "$repo/test/apps/check_trace.py" "$trace" \
      --model "$suite/models/$model.onnx" --runs $((runs + warmup)) 2>&1); then
    printf '%-12s %-8s %s\n' "$model" valid "${check#"$trace": }"
  else
    printf '%-12s %-8s %s\n' "$model" INVALID "$(echo "$check" | head -1)"
    echo "$check" | tail -n +2 | sed 's/^/    /'
    failures=$((failures + 1))
  fi
done
exit $((failures > 0))
