#!/usr/bin/env bash
# The full zoo one model at a time: build it, run it (tools/zoo/run_zoo.py), keep its summary and
# inputs/expected outputs, delete its exports. The whole zoo at both opsets needs ~40 GB of
# disk; this needs the largest model's only. Summaries go to DIR/summaries/<model>.json; a model
# with a summary is skipped, so an interrupted sweep resumes. Print the tables with
#   /usr/bin/python3 tools/zoo/zoo_report.py DIR/summaries/*.json
# usage: tools/zoo/sweep.sh ORT_BINARY DIR [MODEL ...]   (default: every model of the full slice)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
ort=$(realpath "$1")
dir=$2
shift 2
models=("$@")
if [ ${#models[@]} -eq 0 ]; then
  mapfile -t models < <(/usr/bin/python3 "$here/build_zoo.py" --list --slice full | awk '{print $1}')
fi
mkdir -p "$dir/summaries"
for model in "${models[@]}"; do
  summary="$dir/summaries/$model.json"
  [ -f "$summary" ] && continue
  echo "=== $model $(date +%T)"
  /usr/bin/python3 "$here/build_zoo.py" --out "$dir" --only "^$model\$" --jobs 1 | tail -1
  /usr/bin/python3 "$here/run_zoo.py" --zoo "$dir" --ort "$ort" --slice full --only "^${model}_op" \
    --jobs 1 --json "$summary.partial" --work "$dir/_run_$model" | grep -E "^\| $model|^FAIL" | awk '!seen[$0]++' || true
  if [ -f "$summary.partial" ]; then mv "$summary.partial" "$summary"; else echo "$model: no summary"; fi
  rm -rf "$dir/_run_$model"
  find "$dir/$model" -mindepth 1 -maxdepth 1 ! -name inputs ! -name expected -exec rm -rf {} +
done
