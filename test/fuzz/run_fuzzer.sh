#!/usr/bin/env bash
# Runs a libFuzzer target for SECONDS from a fresh corpus seeded by seeds.sh (every 8th backend
# file), keeping crash inputs in WORK_DIR/artifacts:  run_fuzzer.sh BINARY SECONDS WORK_DIR
set -euo pipefail
binary=$1
seconds=$2
work=$3
here=$(cd "$(dirname "$0")" && pwd)
target=$(basename "$binary")
rm -rf "$work/corpus" "$work/seeds"
mkdir -p "$work/corpus" "$work/artifacts"
"$here/seeds.sh" "$target" "$work/seeds" 8
# -timeout: one input taking 60 s counts as a hang; -rss_limit_mb/-malloc_limit_mb: 4 GiB, so a
# model allocating without bound is reported as out-of-memory instead of taking the machine.
# UBSan findings come with their stack, as ASan's do.
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
exec "$binary" -max_total_time="$seconds" -timeout=60 -rss_limit_mb=4096 -max_len=65536 \
  -print_final_stats=1 -artifact_prefix="$work/artifacts/" "$work/corpus" "$work/seeds"
