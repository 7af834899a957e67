#!/usr/bin/env bash
# Configures and builds ort into BUILD_DIR (default build/) with the given build type and extra
# CMake arguments:  scripts/build.sh [Release|Debug|RelWithDebInfo] [-DORT_SANITIZE=ON ...]
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
build_type=${1:-Release}
shift || true
build_dir=${BUILD_DIR:-$repo/build}
generator=()
command -v ninja > /dev/null && generator=(-G Ninja)
launcher=()
# ccache caches files built with precompiled headers only with this sloppiness.
sloppiness=pch_defines,time_macros,include_file_mtime,include_file_ctime
command -v ccache > /dev/null &&
  launcher=("-DCMAKE_CXX_COMPILER_LAUNCHER=env;CCACHE_SLOPPINESS=$sloppiness;ccache")
cmake -S "$repo" -B "$build_dir" "${generator[@]}" "${launcher[@]}" \
  -DCMAKE_BUILD_TYPE="$build_type" "$@"
# BUILD_TARGETS (space-separated) builds only those targets, with what they need.
read -r -a targets <<< "${BUILD_TARGETS:-}"
cmake --build "$build_dir" --parallel "$(nproc)" ${targets[@]:+--target "${targets[@]}"}
