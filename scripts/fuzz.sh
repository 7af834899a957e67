#!/usr/bin/env bash
# Long libFuzzer runs:  scripts/fuzz.sh TARGET MINUTES [CORPUS_DIR] [-- LIBFUZZER_FLAGS...]
# TARGET is fuzz_model, fuzz_model_structured or fuzz_tensor. Configures and builds the
# sanitized clang build in FUZZ_BUILD_DIR (default build-fuzz/) when needed, seeds CORPUS_DIR
# (default fuzz-corpus/TARGET, kept between runs) from test/fuzz/seeds.sh when it is empty, runs
# FUZZ_JOBS (default 1) workers for MINUTES and prints execs/s and the corpus size at the end.
# Crashing, hanging and out-of-memory inputs are kept in FUZZ_CRASH_DIR (default
# fuzz-crashes/TARGET); minimize one with `BINARY -minimize_crash=1 -runs=10000 FILE` and add it
# under test/fuzz/regressions/TARGET/.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -lt 2 ]; then
  sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
target=$1
minutes=$2
shift 2
corpus=$repo/fuzz-corpus/$target
if [ $# -gt 0 ] && [ "$1" != "--" ]; then
  corpus=$1
  shift
fi
[ "${1:-}" = "--" ] && shift
build=${FUZZ_BUILD_DIR:-$repo/build-fuzz}
crashes=${FUZZ_CRASH_DIR:-$repo/fuzz-crashes/$target}
jobs=${FUZZ_JOBS:-1}
case $target in
  fuzz_model | fuzz_model_structured | fuzz_tensor) ;;
  *) echo "fuzz.sh: unknown target '$target' (fuzz_model, fuzz_model_structured, fuzz_tensor)" >&2
     exit 2 ;;
esac

if [ ! -f "$build/CMakeCache.txt" ]; then
  launcher=()
  command -v ccache > /dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  CC=clang CXX=clang++ cmake -S "$repo" -B "$build" -G Ninja "${launcher[@]}" \
    -DCMAKE_BUILD_TYPE=Release -DORT_BUILD_FUZZERS=ON -DORT_BUILD_TESTS=OFF -DORT_USE_CUDA=OFF
fi
cmake --build "$build" --target "$target" --parallel "$(nproc)"

mkdir -p "$corpus" "$crashes"
if [ -z "$(ls -A "$corpus")" ]; then
  "$repo/test/fuzz/seeds.sh" "$target" "$corpus"
fi
# UBSan findings come with their stack, as ASan's do.
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
log=$crashes/fuzz-$(date +%Y%m%d-%H%M%S).log
seconds=$((minutes * 60))
# -fork keeps fuzzing past a crash (each is saved) instead of stopping at the first one.
set +e
"$build/test/fuzz/$target" -fork="$jobs" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
  -max_total_time="$seconds" -timeout=60 -rss_limit_mb=4096 -max_len=65536 \
  -print_final_stats=1 -artifact_prefix="$crashes/" "$@" "$corpus" 2>&1 | tee "$log" |
  grep --line-buffered -E 'INFO: (fuzz|-fork)|#[0-9]+: cov|ERROR|SUMMARY|Test unit written'
status=${PIPESTATUS[0]}
set -e
execs=$(grep -oE 'exec/s:? [0-9]+' "$log" | tail -1 | tr -d : || true)
echo "fuzz.sh: $target ran ${minutes} min: ${execs:-exec/s: ?}," \
  "corpus $(ls "$corpus" | wc -l) files ($(du -sh "$corpus" | cut -f1)) in $corpus;" \
  "$(ls "$crashes" | grep -cvE '\.log$' || true) crash/timeout/oom inputs in $crashes (log $log)"
exit "$status"
