#!/usr/bin/env bash
# End-to-end tests of the `ort` command line: outputs, comparison, aliases and the one-line
# errors with exit code 2 for bad input.   cli_test.sh ORT_BINARY TEST_DATA_DIR
set -u
ort=$1
data=$2
models=$data/models
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

# expect NAME EXIT_CODE TEXT_IN_OUTPUT COMMAND...
expect() {
  local name=$1 code=$2 text=$3
  shift 3
  local output status
  output=$("$@" 2>&1)
  status=$?
  if [ "$status" -ne "$code" ] || ! grep -qF -- "$text" <<< "$output"; then
    echo "FAIL $name: exit $status (want $code), output:"
    echo "$output" | sed 's/^/    /'
    failures=$((failures + 1))
  else
    echo "ok   $name"
  fi
}

# one_line NAME COMMAND...: exit code 2 and exactly one line on stderr.
one_line() {
  local name=$1
  shift
  local errors status
  errors=$("$@" 2>&1 >/dev/null)
  status=$?
  if [ "$status" -ne 2 ] || [ "$(wc -l <<< "$errors")" -ne 1 ]; then
    echo "FAIL $name: exit $status, stderr:"
    echo "$errors" | sed 's/^/    /'
    failures=$((failures + 1))
  else
    echo "ok   $name: $errors"
  fi
}

add=$models/add.onnx
a=$models/a_2x3.npy
expect "run prints outputs" 0 "[1, 2, 3, 4, 5, 6]" "$ort" run "$add" --input "a=$a" --input "b=$models/a_2x3.pb"
expect "verbose shows assignments" 0 "[cpu] the_node (Add)" "$ort" run "$add" --verbose --seed 3
expect "random inputs are seeded" 0 "random" "$ort" run "$add" --seed 1

"$ort" run "$add" --input "a=$a" --input "b=$a" --output-dir "$work/pb" > /dev/null
expect "pb outputs compare equal" 0 "OK" "$ort" run "$add" --input "a=$a" --input "b=$a" --expected-dir "$work/pb"
"$ort" run "$add" --input "a=$a" --input "b=$a" --output-dir "$work/npy" --output-format npy > /dev/null
expect "npy output written" 0 "OK" "$ort" run "$add" --input "a=$a" --input "b=$a" --expected-dir "$work/npy"
expect "mismatch exits 1" 1 "MISMATCH" "$ort" run "$add" --input "a=$a" --input "b=$models/a_2x3.pb" --expected-dir "$work/pb"
mkdir -p "$work/inputs"
cp "$models/a_2x3.pb" "$work/inputs/input_0.pb"
cp "$models/b_2x3.pb" "$work/inputs/input_1.pb"
expect "input-dir reads the test-data layout" 0 "[2, 2, 2, 2, 2, 2]" "$ort" run "$add" --input-dir "$work/inputs"

alias_dir=$(dirname "$ort")
expect "ort-run alias" 0 "[0, 2, 4, 6, 8, 10]" "$alias_dir/ort-run" "$add" --input "a=$a" --input "b=$a"
expect "external data is read" 0 "[0, 2, 4, 6, 8, 10]" "$ort" run "$models/external_data.onnx" --input "a=$a"

printf 'not a model at all' > "$work/text.onnx"
head -c 60 "$data/demo/tiny_resnet.onnx" > "$work/truncated.onnx"
one_line "missing model file" "$ort" run "$work/missing.onnx"
one_line "model is a directory" "$ort" run "$work"
one_line "bytes that are not a model" "$ort" run "$work/text.onnx"
one_line "truncated protobuf" "$ort" run "$work/truncated.onnx"
one_line "unknown op" "$ort" run "$models/unknown_op.onnx"
one_line "unknown domain" "$ort" run "$models/unknown_domain_op.onnx"
one_line "unknown opset" "$ort" run "$models/opset_99.onnx"
one_line "external data escaping the model directory" "$ort" run "$models/external_escape.onnx"
one_line "absolute external data path" "$ort" run "$models/external_absolute.onnx"
one_line "wrong input dtype" "$ort" run "$add" --input "a=$models/a_int_2x3.npy"
one_line "wrong input rank" "$ort" run "$add" --input "a=$models/a_3.npy"
one_line "unknown input name" "$ort" run "$add" --input "zz=$a"
one_line "missing input file" "$ort" run "$add" --input "a=$work/none.npy"
one_line "tensor file shorter than its header says" "$ort" run "$add" --input "a=$models/a_short_data.npy"
one_line "tensor file that is not a tensor" "$ort" run "$add" --input "a=$work/text.onnx"
one_line "bad option" "$ort" run "$add" --no-such-option
one_line "bad opt level" "$ort" run "$add" -o fastest
one_line "unknown provider" "$ort" run "$add" -e tpu
cp "$models/a_2x3.pb" "$work/inputs/input_1.pb"
one_line "two input files for one input" "$ort" run "$add" --input-dir "$work/inputs"

if [ "$failures" -ne 0 ]; then
  echo "$failures CLI test(s) failed"
  exit 1
fi
echo "all CLI tests passed"
