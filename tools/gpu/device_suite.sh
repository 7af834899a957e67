#!/usr/bin/env bash
# Issue 7's checks on a lent GPU, in one call of the device tool (run tools/gpu/fetch_deps.sh
# here first and carry .gpu-deps):
#   1. builds ort with the CUDA provider against the carried Debian packages and runs all its
#      CUDA tests (the GPU ones run there). Building there takes minutes of scarce device time, so
#      stripped copies of a local CUDA build's ort and ort_cuda_tests in .gpu-bin (carried too:
#      tools/gpu/fetch_deps.sh --prebuilt BUILD_DIR) are used instead when present;
#   2. exports resnet50, mobilenet_v2, squeezenet1_1 and bert_base with the suite's script;
#   3. per model: placement (`ort optimize -e cuda`: CPU nodes left), CUDA against CPU outputs at
#      batch 1 (rtol 1e-3, atol 1e-4);
#   4. latency at batch 1 and 32: `ort perf -e cuda` p50 in fp32 and tf32, PyTorch eager in the
#      same precisions, and the roofline floor from measured ceilings.
# The device tool returns only 8 files, so $OUT (or ./gpu-out) gets the table, the resnet50 trace
# and logs.txt, every log of the run one after another; the table is printed last.
#   tools/gpu/device_suite.sh [MODELS]
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-gpu-out}
logs=/tmp/ort-gpu-logs
rm -rf "$logs" && mkdir -p "$out" "$logs"
models=${1:-"resnet50 mobilenet_v2 squeezenet1_1 bert_base"}
deps=/tmp/ort-deps
work=/tmp/ort-gpu

rm -rf "$deps" && mkdir -p "$deps" "$work"
for deb in .gpu-deps/*.deb; do dpkg -x "$deb" "$deps"; done
export LD_LIBRARY_PATH=$deps/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
export PATH=$deps/usr/bin:$PATH
# The image ships cuDNN inside PyTorch's wheels, outside the loader's default search path.
if ! ldconfig -p | grep -q 'libcudnn\.so\.9'; then
  cudnn=$(python3 -c 'import nvidia.cudnn, os; print(os.path.join(nvidia.cudnn.__path__[0], "lib"))' \
    2>/dev/null) && export LD_LIBRARY_PATH=$cudnn:$LD_LIBRARY_PATH
fi
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$logs/gpu.txt"

if [ -x .gpu-bin/ort ] && [ -x .gpu-bin/ort_cuda_tests ]; then
  ort=.gpu-bin/ort
  cuda_tests=.gpu-bin/ort_cuda_tests
else
  cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DORT_USE_CUDA=ON \
    -DCMAKE_PREFIX_PATH="$deps/usr" -DProtobuf_PROTOC_EXECUTABLE="$deps/usr/bin/protoc" \
    > "$logs/configure.log" 2>&1 || { tail -30 "$logs/configure.log"; exit 2; }
  ninja -C build-gpu ort ort_cuda_tests > "$logs/build.log" 2>&1 || { tail -40 "$logs/build.log"; exit 2; }
  ort=build-gpu/apps/ort/ort
  cuda_tests=build-gpu/test/ort_cuda_tests
fi
timeout 300 "$cuda_tests" > "$logs/cuda_tests.log" 2>&1
status=$?
echo "cuda tests (exit $status): $(tail -2 "$logs/cuda_tests.log" | head -1)"
[ "$status" = 0 ] || grep -B8 -A10 'FAILED:' "$logs/cuda_tests.log" | head -200

python3 tools/suite/export_models.py "$work" $models > "$logs/export.log" 2>&1 ||
  { tail -20 "$logs/export.log"; exit 2; }
read -r fp32_rate tf32_rate bandwidth < <(python3 tools/gpu/gpu_reference.py ceilings)
echo "ceilings: fp32 $fp32_rate TFLOP/s, tf32 $tf32_rate TFLOP/s, copy $bandwidth GB/s" |
  tee "$logs/ceilings.txt"

dims() {  # MODEL BATCH -> --free-dim flags
  if [ "$1" = bert_base ]; then
    echo "--free-dim batch=$2 --free-dim sequence=128"
  else
    echo "--free-dim batch=$2"
  fi
}

table=$out/table.txt
printf '%-14s %5s %9s %9s %9s %9s %9s %9s %s\n' model batch "ort fp32" "pt fp32" \
  "ort tf32" "pt tf32" "floor32" "floorTF" "(ms; ratio ort/pt)" > "$table"
for model in $models; do
  onnx=$work/$model.onnx
  "$ort" optimize "$onnx" -e cuda -o "$work/$model.cuda.onnx" > "$logs/$model.placement.txt" 2>&1
  echo "$model placement: $(grep -E '^  (cuda|cpu) ' "$logs/$model.placement.txt" | tr -s ' ' | tr '\n' ';')"
  for batch in 1 32; do
    inputs=$work/inputs_${model}_$batch
    python3 tools/gpu/gpu_reference.py inputs "$inputs" "$model" "$batch"
    feeds=()
    for file in "$inputs"/*.npy; do feeds+=(--input "$(basename "$file" .npy)=$file"); done
    if [ "$batch" = 1 ]; then
      "$ort" run "$onnx" "${feeds[@]}" -e cpu --output-dir "$work/cpu_$model" \
        --output-format npy > "$logs/$model.cpu.txt" 2>&1
      "$ort" run "$onnx" "${feeds[@]}" -e cuda --expected-dir "$work/cpu_$model" --rtol 1e-3 \
        --atol 1e-4 > "$logs/$model.compare.txt" 2>&1
      echo "$model CUDA vs CPU (exit $?): $(grep -E 'max abs' "$logs/$model.compare.txt" | tr '\n' ' ')"
    fi
    p50=()
    for precision in fp32 tf32; do
      "$ort" perf "$onnx" "${feeds[@]}" -e cuda --precision "$precision" -r 50 --warmup 10 \
        --json "$logs/$model.$batch.$precision.json" > "$logs/$model.$batch.$precision.txt" 2>&1
      p50+=("$(python3 -c "import json,sys;print('%.3f'%json.load(open(sys.argv[1]))['latency_ms']['p50'])" \
        "$logs/$model.$batch.$precision.json" 2>/dev/null || echo fail)")
      p50+=("$(python3 tools/gpu/gpu_reference.py torch "$model" "$batch" "$precision" 2>>"$logs/torch.log" || echo fail)")
    done
    "$ort" optimize "$onnx" --level basic $(dims "$model" "$batch") -o "$work/$model.static.onnx" \
      > /dev/null 2>&1
    read -r flops moved floor32 < <(python3 tools/gpu/gpu_reference.py roofline \
      "$work/$model.static.onnx" "$batch" "$fp32_rate" "$bandwidth" | awk '{print $1, $2, $5}')
    read -r floor_tf < <(python3 tools/gpu/gpu_reference.py roofline \
      "$work/$model.static.onnx" "$batch" "$tf32_rate" "$bandwidth" | awk '{print $5}')
    echo "$model batch $batch: $flops FLOPs, $moved bytes" >> "$logs/roofline.txt"
    printf '%-14s %5s %9s %9s %9s %9s %9s %9s\n' "$model" "$batch" "${p50[0]}" "${p50[1]}" \
      "${p50[2]}" "${p50[3]}" "$floor32" "$floor_tf" >> "$table"
  done
done
"$ort" perf "$work/resnet50.onnx" -e cuda -r 5 -p "$out/resnet50_trace.json" --free-dim batch=1 \
  > "$logs/resnet50.profile.txt" 2>&1
cat "$logs/roofline.txt"
cat "$table"
for log in "$logs"/*; do echo "=== $(basename "$log")"; cat "$log"; done > "$out/logs.txt"
