#!/usr/bin/env bash
# Compares the p50 run latency of two `ort` binaries (before and after a change) on the suite
# models: each round runs both (a fresh `ort perf` process each, WARMUP unmeasured runs then RUNS
# measured ones; which binary goes first alternates per round), and a model's figure is the
# median of its per-round p50s. Prints before, after and after/before per model and thread
# count, and the geometric mean of the ratios. Run tools/suite/make_suite.sh first.
#   tools/suite/ab_suite.sh BEFORE_BINARY AFTER_BINARY [SUITE]
# Environment: MODELS (default the six suite models), THREADS (e.g. "1 2"; default 1), ROUNDS
# (default 5), RUNS (default 20), WARMUP (default 5).
# Exits 0 whatever the ratios (a benchmark, not a test); 2 on usage errors or a failed run.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -ge 2 ] && [ $# -le 3 ] || { sed -n '2,/^set -uo/{/^set -uo/d;s/^# \{0,1\}//;p}' "$0" >&2; exit 2; }
before=$1 after=$2 suite=${3:-$repo/suite}
models=${MODELS:-"resnet50 mobilenet_v2 squeezenet1_1 bert_base silero_vad_v5 ppocr_v4_det"}
thread_counts=${THREADS:-1} rounds=${ROUNDS:-5} runs=${RUNS:-20} warmup=${WARMUP:-5}
for bin in "$before" "$after"; do [ -x "$bin" ] || { echo "ab_suite: no binary $bin" >&2; exit 2; }; done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for threads in $thread_counts; do
  for round in $(seq 1 "$rounds"); do
    order=(before after)
    ((round % 2)) || order=(after before)
    for model in $models; do
      inputs=()
      for file in "$suite/inputs/$model"/*.npy; do inputs+=(--input "$(basename "$file" .npy)=$file"); done
      for side in "${order[@]}"; do
        bin=$([ "$side" = before ] && echo "$before" || echo "$after")
        if ! "$bin" perf "$suite/models/$model.onnx" "${inputs[@]}" -x "$threads" -y 1 -o all \
          -r "$runs" --warmup "$warmup" --json "$work/report.json" > "$work/log" 2>&1; then
          echo "ab_suite: $side failed on $model: $(tail -n1 "$work/log")" >&2
          exit 2
        fi
        p50=$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["latency_ms"]["p50"])' "$work/report.json")
        printf '%s\t%s\t%s\t%s\n' "$threads" "$model" "$side" "$p50" >> "$work/results.tsv"
      done
    done
  done
done

/usr/bin/python3 - "$work/results.tsv" "$models" "$thread_counts" "$rounds" "$runs" << 'PY'
import math, statistics, sys
results, models, threads_list, rounds, runs = sys.argv[1], sys.argv[2].split(), sys.argv[3].split(), sys.argv[4], sys.argv[5]
samples = {}
for line in open(results):
    threads, model, side, p50 = line.split("\t")
    samples.setdefault((threads, model, side), []).append(float(p50))
print(f"p50 ms, median of {rounds} alternating rounds of {runs} runs")
print(f"{'model':<14} {'threads':>7} {'before':>10} {'after':>10} {'after/before':>13}")
for threads in threads_list:
    ratios = []
    for model in models:
        b = statistics.median(samples[(threads, model, "before")])
        a = statistics.median(samples[(threads, model, "after")])
        ratios.append(a / b)
        print(f"{model:<14} {threads:>7} {b:>10.3f} {a:>10.3f} {a / b:>13.3f}")
    print(f"{threads} thread(s): geomean after/before "
          f"{math.exp(sum(map(math.log, ratios)) / len(ratios)):.3f}")
PY
