#!/usr/bin/env bash
# The concurrency stress test under ThreadSanitizer: builds ort-stress with -fsanitize=thread
# into BUILD_DIR (default build-tsan/) and has 8 threads call Run on one session per model, with
# inputs of different shapes, checking every output against a lone caller's. Any data race
# TSan sees fails it, as does any mismatch.
#   scripts/tsan_stress.sh [SECONDS_PER_MODEL (default 60)] [MODEL...]
# Without models it uses the repo's demo model and, where tools/zoo's CI slice has been built
# into build/zoo_ci, its BERT, ViT, Swin, T5 and Whisper-encoder exports.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-60}
shift || true
build_dir=${BUILD_DIR:-$repo/build-tsan}
mkdir -p "$build_dir"
# -O1 -g1 as in scripts/sanitize_test.sh: instrumented -O2 -g compiles four times slower.
BUILD_DIR=$build_dir "$repo/scripts/build.sh" Release -DCMAKE_CXX_FLAGS_RELEASE="-O1 -g1" \
  -DORT_TSAN=ON -DORT_USE_CUDA=OFF -DORT_BUILD_TESTS=OFF > "$build_dir/build.log" 2>&1 || { tail -30 "$build_dir/build.log"; exit 1; }
models=("$@")
if [ ${#models[@]} -eq 0 ]; then
  models=("$repo/test/data/demo/tiny_resnet.onnx")
  for name in bert_input_tiny vit_tiny swin_tiny t5_tiny whisper_encoder_tiny; do
    file=$repo/build/zoo_ci/$name/${name}_op17.onnx
    [ -f "$file" ] && models+=("$file")
  done
fi
# halt_on_error: the first race fails the run with its report; second_deadlock_stack names both
# lock orders of a potential deadlock.
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ${TSAN_OPTIONS:-}"
"$build_dir/tools/ort-stress" --threads 8 --seconds "$seconds" "${models[@]}"
