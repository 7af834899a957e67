#!/usr/bin/env bash
# Downloads, on a machine that reaches Debian's registry, the .debs the build needs into
# .gpu-deps/ (git-ignored, about 7 MB) for a GPU machine that has nvcc, CMake, ninja and PyTorch
# but no Debian packages: carry the folder with the device tool's `run` (carry: [".gpu-deps"])
# and run tools/gpu/device_suite.sh there.
#   tools/gpu/fetch_deps.sh [--prebuilt BUILD_DIR]
# --prebuilt also puts stripped copies of BUILD_DIR's ort and ort_cuda_tests (a CUDA build made
# here) into .gpu-bin/ (git-ignored; carry it too), so the suite spends no device time building.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ "${1:-}" = --prebuilt ]; then
  mkdir -p .gpu-bin
  strip -o .gpu-bin/ort "$2/apps/ort/ort"
  strip -o .gpu-bin/ort_cuda_tests "$2/test/ort_cuda_tests"
fi
mkdir -p .gpu-deps
cd .gpu-deps
apt-get download libcli11-dev libprotobuf-dev libprotobuf32 protobuf-compiler libprotoc32 \
  libonnx-dev libonnx1 libonnxifi libspdlog-dev libspdlog1.10 libfmt-dev libfmt9 nlohmann-json3-dev catch2 \
  zlib1g-dev
ls -l
