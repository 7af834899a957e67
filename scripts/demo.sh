#!/usr/bin/env bash
# Installs dependencies, builds ort (Release) and runs the small demo model shipped in
# test/data/demo, comparing its output with onnxruntime's.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
"$repo/scripts/setup.sh"
"$repo/scripts/build.sh" Release -DORT_BUILD_TESTS=OFF
demo="$repo/test/data/demo"
build_dir=${BUILD_DIR:-$repo/build}
"$build_dir/apps/ort/ort" run "$demo/tiny_resnet.onnx" --input "image=$demo/image.npy" \
  --expected-dir "$demo/expected" --verbose
