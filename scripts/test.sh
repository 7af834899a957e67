#!/usr/bin/env bash
# Installs dependencies, builds ort with its tests and runs them (unit tests, CLI tests and the
# ONNX backend conformance check), then the sanitized build's (scripts/sanitize_test.sh). This is
# what CI runs. Where the benchmark suite has been made
# (tools/suite/make_suite.sh: models, inputs and onnxruntime-node under suite/), it also checks
# that models optimized offline by ONNX Runtime at each level run here and match ORT.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
"$repo/scripts/setup.sh"
"$repo/scripts/build.sh" Release -DORT_BUILD_TESTS=ON
build_dir=${BUILD_DIR:-$repo/build}
# Two tests at a time: most are single-threaded, and CI has two cores.
ctest --test-dir "$build_dir" --output-on-failure --timeout 1200 --parallel "$(nproc)"
suite=${SUITE:-$repo/suite}
if [ -d "$suite/models" ] && [ -d "$suite/node_modules/onnxruntime-node" ]; then
  "$repo/tools/suite/ort_optimized_suite.sh" "$build_dir/apps/ort/ort" "$suite"
fi
"$repo/scripts/sanitize_test.sh"
