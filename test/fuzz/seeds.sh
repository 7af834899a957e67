#!/usr/bin/env bash
# Fills OUT_DIR with seed inputs for a fuzz target:  seeds.sh TARGET OUT_DIR [STRIDE]
# Model targets get the ONNX backend test models (libonnx-testdata, ~0.5 MB) and the repo's test
# models; fuzz_tensor gets their .pb and .npy tensors. STRIDE > 1 keeps every STRIDE-th backend
# file only (the 60 s ctest runs start from a slice so that most of the minute is fuzzing).
set -euo pipefail
target=$1
out=$2
stride=${3:-1}
repo=$(cd "$(dirname "$0")/../.." && pwd)
backend=/usr/share/libonnx-testdata/data
mkdir -p "$out"
case $target in
  fuzz_model | fuzz_model_structured) pattern=model.onnx local=(onnx) ;;
  fuzz_tensor) pattern='*.pb' local=(pb npy) ;;
  *) echo "seeds.sh: unknown target '$target'" >&2; exit 2 ;;
esac
for extension in "${local[@]}"; do
  for file in "$repo"/test/data/models/*."$extension"; do
    cp "$file" "$out/repo_$(basename "$file")"
  done
done
if [ -d "$backend" ]; then
  # Named after their test directories (and file, for tensors) so names stay unique.
  find "$backend" -name "$pattern" -size -64k | sort | awk -v stride="$stride" 'NR % stride == 0' |
    while read -r file; do
      name=${file#"$backend"/}
      cp "$file" "$out/${name//\//_}"
    done
fi
