#!/usr/bin/env bash
# Session start time (creating, loading and initializing; `ort perf --json` session_init_ms) of
# each suite model as given, re-saved with its weights in external data but not optimized
# (`ort optimize --level disable`: separates faster loading from skipped optimization), and
# after `ort optimize` at the same level: the median of RUNS (default 5) alternating
# measurements per model. Prints a table.
#   tools/suite/startup_suite.sh [ORT_BINARY] [SUITE]
# LEVEL (default all) is the level of both the optimization and the sessions; MODELS overrides
# the model list; THREADS (default 1) sets the intra-op threads of the sessions.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
ort_bin=${1:-$repo/build/apps/ort/ort}
suite=${2:-$repo/suite}
level=${LEVEL:-all}
runs=${RUNS:-5}
threads=${THREADS:-1}
models=${MODELS:-"resnet50 mobilenet_v2 squeezenet1_1 bert_base silero_vad_v5 ppocr_v4_det two_branch"}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# session_init_ms of one `ort perf` run of MODEL, or nothing when it failed.
startup_ms() {
  local model=$1
  shift
  "$ort_bin" perf "$model" "$@" -o "$level" -x "$threads" -r 1 --warmup 0 \
    --json "$work/perf.json" > /dev/null 2>&1 || return
  grep -oE '"session_init_ms": [0-9.e+-]+' "$work/perf.json" | awk '{ print $2 }'
}

median() {
  sort -g | awk '{ v[NR] = $1 } END { if (NR) printf "%.1f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

printf 'session start, level %s, median of %d alternating runs, %d intra-op thread(s)\n' \
  "$level" "$runs" "$threads"
printf '%-14s %12s %12s %12s %8s %12s %12s\n' model "original ms" "external ms" \
  "optimized ms" speedup "optimize ms" "nodes"
for model in $models; do
  source_model=$suite/models/$model.onnx
  optimized=$work/$model.onnx
  external=$work/${model}_external.onnx
  inputs=()
  for file in "$suite/inputs/$model"/*.npy; do
    inputs+=(--input "$(basename "$file" .npy)=$file")
  done
  if ! "$ort_bin" optimize "$source_model" --level "$level" -o "$optimized" \
      --report "$work/report.json" > "$work/optimize.log" 2>&1; then
    printf '%-14s ERROR: %s\n' "$model" "$(tail -1 "$work/optimize.log")"
    continue
  fi
  if ! "$ort_bin" optimize "$source_model" --level disable -o "$external" > "$work/optimize.log" 2>&1; then
    printf '%-14s ERROR: %s\n' "$model" "$(tail -1 "$work/optimize.log")"
    continue
  fi
  optimize_ms=$(grep -oE '"optimize_ms": [0-9.e+-]+' "$work/report.json" | awk '{ printf "%.1f", $2 }')
  nodes=$(grep -oE '"nodes_(before|after)": [0-9]+' "$work/report.json" | awk '{ print $2 }' |
    paste -sd '>' -)
  : > "$work/original.txt"
  : > "$work/external.txt"
  : > "$work/optimized.txt"
  for ((i = 0; i < runs; ++i)); do
    startup_ms "$source_model" "${inputs[@]}" >> "$work/original.txt"
    startup_ms "$external" "${inputs[@]}" >> "$work/external.txt"
    startup_ms "$optimized" "${inputs[@]}" >> "$work/optimized.txt"
  done
  original_ms=$(median < "$work/original.txt")
  external_ms=$(median < "$work/external.txt")
  optimized_ms=$(median < "$work/optimized.txt")
  speedup=$(awk -v a="$original_ms" -v b="$optimized_ms" 'BEGIN { if (b > 0) printf "%.2fx", a / b; else print "-" }')
  printf '%-14s %12s %12s %12s %8s %12s %12s\n' "$model" "${original_ms:-ERROR}" \
    "${external_ms:-ERROR}" "${optimized_ms:-ERROR}" "$speedup" "$optimize_ms" "$nodes"
done
