#!/usr/bin/env bash
# Installs (idempotently) the Debian packages needed to build ort and run its tests.
set -euo pipefail

packages=(
  g++ cmake ninja-build pkg-config
  libcli11-dev libprotobuf-dev protobuf-compiler libonnx-dev libspdlog-dev libfmt-dev
  nlohmann-json3-dev catch2 libonnx-testdata libbenchmark-dev
  python3-torch python3-torchvision python3-onnx python3-numpy
  chromium
)

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$package")
done

if [ ${#missing[@]} -gt 0 ]; then
  sudo_cmd=""
  if [ "$(id -u)" -ne 0 ]; then sudo_cmd="sudo"; fi
  echo "setup: installing ${missing[*]}"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends \
    "${missing[@]}"
fi
echo "setup: all build and test dependencies are installed"
