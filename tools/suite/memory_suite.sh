#!/usr/bin/env bash
# Compares the growth of resident memory from just before session creation to the end of the
# runs between `ort perf` and onnxruntime-node 1.30 (tools/suite/ort_reference.js), each measured
# inside its own process on the same inputs, run count and thread count. Run
# tools/suite/make_suite.sh first.
#   tools/suite/memory_suite.sh [ORT_BINARY] [SUITE]
# Environment: MODELS (default "resnet50 bert_base"), RUNS (measured runs, default 10), ROUNDS
# (default 3), THREADS (intra-op threads of both engines, default 1 as in ort_reference.js),
# ORT_FLAGS (extra `ort perf` flags, e.g. "--no-arena").
# Prints one row per round and model, then the median over the rounds; exits 1 when a median
# growth of ours is higher than the reference's.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
ort_bin=${1:-$repo/build/apps/ort/ort}
suite=${2:-$repo/suite}
models=${MODELS:-"resnet50 bert_base"}
runs=${RUNS:-10}
rounds=${ROUNDS:-3}
threads=${THREADS:-1}
read -r -a ort_flags <<< "${ORT_FLAGS:-}"
export ORT_NODE_MODULES="$suite/node_modules"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# growth FILE: rss_growth_bytes of our JSON report or of the reference's JSON line.
growth() {
  /usr/bin/python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["rss_growth_bytes"])' "$1"
}

# measure ENGINE MODEL INPUT_FLAGS...: runs ENGINE (ours or reference), which writes
# $work/ENGINE.json and $work/ENGINE.log.
measure() {
  local engine=$1 model=$2
  shift 2
  if [ "$engine" = ours ]; then
    "$ort_bin" perf "$suite/models/$model.onnx" "$@" -r "$runs" --warmup 0 -x "$threads" \
      "${ort_flags[@]}" --json "$work/ours.json" > "$work/ours.log" 2>&1
  else
    node "$repo/tools/suite/ort_reference.js" "$suite/models/$model.onnx" "$@" --repeat "$runs" \
      --warmup 0 --threads "$threads" > "$work/reference.json" 2> "$work/reference.log"
  fi
}

mib() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }

echo "resident memory growth, session creation through $runs runs, $threads intra-op" \
  "thread(s)${ORT_FLAGS:+, ort flags: $ORT_FLAGS}"
printf '%-12s %-6s %14s %14s %7s\n' model round "ours MiB" "ort-node MiB" ratio
declare -A ours_all reference_all
failures=0
for round in $(seq 1 "$rounds"); do
  for model in $models; do
    inputs=()
    for file in "$suite/inputs/$model"/*.npy; do
      inputs+=(--input "$(basename "$file" .npy)=$file")
    done
    # Alternate which engine goes first so neither always finds the model in a warmer page cache.
    order=(ours reference)
    ((round % 2)) || order=(reference ours)
    if ! measure "${order[0]}" "$model" "${inputs[@]}" ||
      ! measure "${order[1]}" "$model" "${inputs[@]}"; then
      printf '%-12s %-6s ERROR %s\n' "$model" "$round" \
        "$(tail -qn1 "$work/ours.log" "$work/reference.log" 2> /dev/null | paste -sd ';' -)"
      failures=$((failures + 1))
      continue
    fi
    ours=$(growth "$work/ours.json")
    reference=$(growth "$work/reference.json")
    ours_all[$model]+="$ours "
    reference_all[$model]+="$reference "
    printf '%-12s %-6s %14s %14s %7s\n' "$model" "$round" "$(mib "$ours")" "$(mib "$reference")" \
      "$(ratio "$ours" "$reference")"
  done
done

median() { tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
for model in $models; do
  [ -n "${ours_all[$model]:-}" ] || continue
  ours=$(echo "${ours_all[$model]}" | median)
  reference=$(echo "${reference_all[$model]}" | median)
  verdict=ok
  if ((ours > reference)); then
    verdict=HIGHER
    failures=$((failures + 1))
  fi
  printf '%-12s %-6s %14s %14s %7s %s\n' "$model" median "$(mib "$ours")" "$(mib "$reference")" \
    "$(ratio "$ours" "$reference")" "$verdict"
done
exit $((failures > 0))
