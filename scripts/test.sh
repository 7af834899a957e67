#!/usr/bin/env bash
# Installs dependencies, builds ort with its tests and runs them (unit tests, CLI tests and the
# ONNX backend conformance check). This is what CI runs.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
"$repo/scripts/setup.sh"
"$repo/scripts/build.sh" Release -DORT_BUILD_TESTS=ON
build_dir=${BUILD_DIR:-$repo/build}
ctest --test-dir "$build_dir" --output-on-failure --timeout 1200
