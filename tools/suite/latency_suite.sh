#!/usr/bin/env bash
# Compares the p50 run latency of `ort perf` with onnxruntime-node
# 1.30 (tools/suite/ort_reference.js) on each suite model, same inputs (suite/inputs/<model>/*.npy),
# same intra-op thread count, inter-op threads 1, sequential execution, optimization level all.
# Each round runs both engines (a fresh process each, WARMUP unmeasured runs then RUNS measured
# ones; which engine goes first alternates per round) and takes each one's nearest-rank p50; a
# model's figure is the median over the rounds. Prints a table of ours / ORT p50 and their ratio,
# then per thread count the geometric mean and the worst ratio against the speed targets
# (geomean <= 0.90, no model > 1.10). Run tools/suite/make_suite.sh first.
#   tools/suite/latency_suite.sh [ORT_BINARY] [SUITE]
# Environment: MODELS (default the six suite models), THREADS (intra-op thread counts, e.g.
# "1 2"; default 1), ROUNDS (default 5), RUNS (measured runs per engine and round, default 20),
# WARMUP (unmeasured runs before them, default 5), JSON (also write the figures here), ORT_FLAGS
# (extra `ort perf` flags, ours only, e.g. "--no-spinning").
# Exits 0 whatever the ratios (a benchmark, not a test); 2 on usage errors or when an engine fails.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)

usage() {
  sed -n '2,/^set -uo/{/^set -uo/d;s/^# \{0,1\}//;p}' "$0" >&2
  exit 2
}
case "${1:-}" in -h | --help) usage ;; esac
[ $# -le 2 ] || usage

ort_bin=${1:-$repo/build/apps/ort/ort}
suite=${2:-$repo/suite}
models=${MODELS:-"resnet50 mobilenet_v2 squeezenet1_1 bert_base silero_vad_v5 ppocr_v4_det"}
thread_counts=${THREADS:-1}
rounds=${ROUNDS:-5}
runs=${RUNS:-20}
warmup=${WARMUP:-5}
json_path=${JSON:-}
read -r -a ort_flags <<< "${ORT_FLAGS:-}"
export ORT_NODE_MODULES="$suite/node_modules"

die() {
  echo "latency_suite: $*" >&2
  exit 2
}
positive() { [[ $1 =~ ^[0-9]+$ ]] && (($1 > 0)); }
positive "$rounds" || die "ROUNDS must be a positive integer, got '$rounds'"
positive "$runs" || die "RUNS must be a positive integer, got '$runs'"
[[ $warmup =~ ^[0-9]+$ ]] || die "WARMUP must be a non-negative integer, got '$warmup'"
[ -n "${thread_counts// /}" ] || die "THREADS is empty"
for threads in $thread_counts; do
  positive "$threads" || die "THREADS must hold positive integers, got '$threads'"
done
[ -x "$ort_bin" ] || die "no ort binary at $ort_bin"
command -v node > /dev/null || die "node not found (onnxruntime-node runs the reference)"
[ -n "${models// /}" ] || die "MODELS is empty"
for model in $models; do
  [ -f "$suite/models/$model.onnx" ] || die "no $suite/models/$model.onnx (run tools/suite/make_suite.sh)"
  compgen -G "$suite/inputs/$model/*.npy" > /dev/null || die "no inputs in $suite/inputs/$model"
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# p50 ENGINE FILE THREADS: the nearest-rank p50 (ms) of our JSON report (checking that it ran
# with the requested settings) or of the reference's per-run latencies; fails with a message.
p50() {
  /usr/bin/python3 - "$@" << 'EOF'
import json, math, sys
engine, path, threads = sys.argv[1], sys.argv[2], int(sys.argv[3])
report = json.load(open(path))
if engine == "ours":
    settings = report["settings"]
    got = (settings["intra_op_threads"], settings["inter_op_threads"], settings["execution_mode"],
           settings["opt_level"])
    if got != (threads, 1, "sequential", "all"):
        sys.exit("ran with intra/inter threads, mode, level %s, not (%d, 1, sequential, all)"
                 % (got, threads))
    print(report["latency_ms"]["p50"])
else:
    samples = sorted(report["latencies_ms"])
    # The same nearest rank as `ort perf`: index ceil(0.5 n) - 1 of the sorted samples.
    print(samples[min(max(math.ceil(0.5 * len(samples)), 1), len(samples)) - 1])
EOF
}

# measure ENGINE MODEL THREADS INPUT_FLAGS...: one process of ENGINE (ours or reference) on
# MODEL; prints its p50 in ms, or returns 1 with the reason in $work/ENGINE.log.
measure() {
  local engine=$1 model=$2 threads=$3
  shift 3
  if [ "$engine" = ours ]; then
    "$ort_bin" perf "$suite/models/$model.onnx" "$@" -x "$threads" -y 1 -o all -r "$runs" \
      --warmup "$warmup" "${ort_flags[@]}" --json "$work/ours.json" > "$work/ours.log" 2>&1 || return 1
  else
    node "$repo/tools/suite/ort_reference.js" "$suite/models/$model.onnx" "$@" --threads "$threads" \
      --opt-level all --repeat "$runs" --warmup "$warmup" > "$work/reference.json" \
      2> "$work/reference.log" || return 1
  fi
  p50 "$engine" "$work/$engine.json" "$threads" 2>> "$work/$engine.log"
}

echo "p50 run latency, median of $rounds rounds of $runs runs after $warmup warm-up runs;" \
  "intra-op threads ${thread_counts// /, }, inter-op 1, sequential, level all${ORT_FLAGS:+; ort flags: $ORT_FLAGS}"
failed=""
failures=""
: > "$work/results.tsv"
for threads in $thread_counts; do
  for round in $(seq 1 "$rounds"); do
    # Alternate which engine goes first so neither always runs on the warmer (or busier) machine.
    order=(ours reference)
    ((round % 2)) || order=(reference ours)
    for model in $models; do
      [[ " $failed " == *" $model/$threads "* ]] && continue
      inputs=()
      for file in "$suite/inputs/$model"/*.npy; do
        inputs+=(--input "$(basename "$file" .npy)=$file")
      done
      declare -A p50_ms=()
      for engine in "${order[@]}"; do
        if ! p50_ms[$engine]=$(measure "$engine" "$model" "$threads" "${inputs[@]}"); then
          name=$([ "$engine" = ours ] && echo "ort perf" || echo "onnxruntime-node")
          printf '%-14s %2s threads round %s: ERROR: %s failed: %s\n' "$model" "$threads" "$round" \
            "$name" "$(tail -n1 "$work/$engine.log")" >&2
          failed+=" $model/$threads"
          failures+="${failures:+;} $model at $threads thread(s): $name"
          continue 2
        fi
      done
      printf '%s\t%s\t%s\t%s\t%s\n' "$threads" "$model" "$round" "${p50_ms[ours]}" \
        "${p50_ms[reference]}" >> "$work/results.tsv"
      printf '  round %-3s %-14s %2s threads: ours %9.3f ms, ort-node %9.3f ms\n' "$round" "$model" \
        "$threads" "${p50_ms[ours]}" "${p50_ms[reference]}" >&2
    done
  done
done

# Summary table and optional JSON, from the per-round figures.
/usr/bin/python3 - "$work/results.tsv" "$json_path" "$rounds" "$runs" "$warmup" "$models" \
  "$thread_counts" << 'EOF'
import json, math, statistics, sys
results, json_path, rounds, runs, warmup = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:6])
models, thread_counts = sys.argv[6].split(), [int(t) for t in sys.argv[7].split()]
GEOMEAN_TARGET, WORST_TARGET = 0.90, 1.10
samples = {}
for line in open(results):
    threads, model, _, ours, reference = line.split("\t")
    entry = samples.setdefault((int(threads), model), ([], []))
    entry[0].append(float(ours))
    entry[1].append(float(reference))
rows, summaries = [], []
print(f"{'model':<14} {'threads':>7} {'ours p50 ms':>12} {'ORT p50 ms':>12} {'ours/ORT':>9}")
for threads in thread_counts:
    ratios = []
    for model in models:
        if (threads, model) not in samples:
            print(f"{model:<14} {threads:>7} {'ERROR':>12} {'ERROR':>12} {'-':>9}")
            continue
        ours, reference = (statistics.median(v) for v in samples[(threads, model)])
        ratio = ours / reference
        ratios.append((ratio, model))
        rows.append({"model": model, "threads": threads, "ours_p50_ms": round(ours, 4),
                     "ort_p50_ms": round(reference, 4), "ratio": round(ratio, 4),
                     "ours_round_p50_ms": samples[(threads, model)][0],
                     "ort_round_p50_ms": samples[(threads, model)][1]})
        flag = "  > 1.10" if ratio > WORST_TARGET else ""
        print(f"{model:<14} {threads:>7} {ours:>12.3f} {reference:>12.3f} {ratio:>9.3f}{flag}")
    if not ratios:
        continue
    geomean = math.exp(sum(math.log(r) for r, _ in ratios) / len(ratios))
    worst, worst_model = max(ratios)
    complete = len(ratios) == len(models)
    summaries.append({"threads": threads, "models": len(ratios), "geomean_ratio": round(geomean, 4),
                      "worst_ratio": round(worst, 4), "worst_model": worst_model,
                      "geomean_ok": geomean <= GEOMEAN_TARGET, "worst_ok": worst <= WORST_TARGET,
                      "complete": complete})
    print(f"{threads} thread(s): geomean ours/ORT {geomean:.3f} "
          f"({'meets' if geomean <= GEOMEAN_TARGET else 'MISSES'} <= {GEOMEAN_TARGET:.2f}), "
          f"worst {worst:.3f} {worst_model} "
          f"({'meets' if worst <= WORST_TARGET else 'MISSES'} <= {WORST_TARGET:.2f})"
          + ("" if complete else f", over {len(ratios)} of {len(models)} models"))
if json_path:
    with open(json_path, "w") as out:
        json.dump({"rounds": rounds, "runs": runs, "warmup": warmup, "statistic":
                   "median over rounds of each engine's nearest-rank p50 run latency",
                   "targets": {"geomean_ratio_max": GEOMEAN_TARGET, "ratio_max": WORST_TARGET},
                   "models": rows, "summary": summaries}, out, indent=2)
        out.write("\n")
    print(f"report: {json_path}")
EOF
[ -z "$failed" ] || die "engine failed (details above) on$failures"
exit 0
