#!/usr/bin/env bash
# The bad-input matrix: malformed models, tensor files, options and unwritable outputs, each of
# which `ort` must refuse with exit code 2 and one line on stderr naming the problem, never a
# crash and never a silent success. The models and files come from
# tools/bad_inputs/make_bad_inputs.py.       bad_input_test.sh ORT_BINARY TEST_DATA_DIR
set -u
ort=$1
bad=$2/bad_inputs
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
kinds=0

# bad NAME TEXT COMMAND...: exit code 2, exactly one line on stderr, and TEXT in it.
bad() {
  local name=$1 text=$2
  shift 2
  local errors status
  kinds=$((kinds + 1))
  errors=$(timeout 120 "$@" 2>&1 >/dev/null)
  status=$?
  if [ "$status" -ne 2 ] || [ "$(wc -l <<< "$errors")" -ne 1 ] || ! grep -qiF -- "$text" <<< "$errors"; then
    echo "FAIL $name: exit $status (want 2, one line with '$text'), stderr:"
    echo "$errors" | head -5 | sed 's/^/    /'
    failures=$((failures + 1))
  else
    echo "ok   $name: $errors"
  fi
}

# run_bad NAME TEXT MODEL [ARGS]: `ort run` on a model of the matrix.
run_bad() {
  local name=$1 text=$2 model=$3
  shift 3
  bad "$name" "$text" "$ort" run "$bad/$model.onnx" --seed 1 "$@"
}

# Models that are not models.
bad "missing model file" "no_such.onnx" "$ort" run "$bad/no_such.onnx"
bad "model is a directory" "directory" "$ort" run "$bad"
run_bad "empty file" "empty" empty
run_bad "random bytes" "not a valid ONNX model" random_bytes
run_bad "truncated protobuf" "not a valid ONNX model" truncated
run_bad "no graph" "no graph" no_graph
run_bad "IR version 99" "IR version 99" ir_version_99
run_bad "no opset import" "opset" no_opset_import
run_bad "opset 99" "opset 99" opset_99

# Nodes off their schema.
run_bad "unknown op" "NoSuchOp" unknown_op
run_bad "unknown domain" "com.example" unknown_domain
run_bad "empty op_type" "op_type" empty_op_type
run_bad "Relu without its input" "Relu" relu_without_input
run_bad "Softmax without its input" "Softmax" softmax_without_input
run_bad "Resize without its input" "Resize" resize_without_input
run_bad "Relu with two inputs" "Relu" relu_with_two_inputs
run_bad "Shape with two outputs" "Shape" shape_with_two_outputs
run_bad "Conv stride 0" "strides" conv_zero_stride
run_bad "Conv negative stride" "strides" conv_negative_stride
run_bad "Conv dilation 0" "dilations" conv_zero_dilation
run_bad "Conv kernel_shape 0" "kernel_shape" conv_zero_kernel_shape
run_bad "Conv negative pads" "pads" conv_negative_pads
run_bad "Conv pads of the wrong length" "pads" conv_pads_wrong_length
run_bad "Conv strides of the wrong length" "strides" conv_strides_wrong_length
run_bad "Conv group 0" "group" conv_zero_group
run_bad "Conv strides given as floats" "strides" conv_strides_as_floats
run_bad "ConvTranspose stride 0" "strides" conv_transpose_zero_stride
run_bad "ConvTranspose dilation 0" "dilations" conv_transpose_zero_dilation
run_bad "MaxPool without kernel_shape" "kernel_shape" maxpool_without_kernel_shape
run_bad "MaxPool stride 0" "strides" maxpool_zero_stride
run_bad "AveragePool kernel 0" "kernel_shape" averagepool_zero_kernel
run_bad "Transpose perm repeating an axis" "perm" transpose_perm_repeats
run_bad "Transpose perm out of range" "perm" transpose_perm_out_of_range
run_bad "Transpose perm of the wrong length" "perm" transpose_perm_too_short
run_bad "misspelt attribute (Softmax axes)" "attribute 'axes' is not one Softmax" \
  softmax_misspelt_attribute
run_bad "Concat of float and int32" "needs both to be the same type 'T'" concat_mixed_types
run_bad "Where of int8 and int64" "needs both to be the same type 'T'" where_mixed_types
run_bad "Sqrt of int64" "which Sqrt (opset 13) does not accept" sqrt_of_int64
run_bad "Softmax axis out of range" "axis" softmax_axis_out_of_range
run_bad "Concat axis out of range" "axis" concat_axis_out_of_range
run_bad "Flatten axis out of range" "axis" flatten_axis_out_of_range
run_bad "op used before its opset" "opset 10" op_before_its_opset
run_bad "Gemm fed a string tensor" "Gemm" gemm_string_input
run_bad "GatherND batch_dims negative" "batch_dims" gathernd_negative_batch_dims
run_bad "Cast to an undefined type" "Cast" cast_to_undefined
run_bad "Constant without a value" "Constant" constant_without_value
run_bad "Scan without a body" "body" scan_without_body
run_bad "Scan with more scan inputs than inputs" "num_scan_inputs" scan_too_many_scan_inputs
run_bad "Scan with no scan input" "num_scan_inputs" scan_zero_scan_inputs
run_bad "Loop without a body" "body" loop_without_body
run_bad "If without else_branch" "else_branch" if_without_else
run_bad "If branch output count" "If" if_branch_output_count
run_bad "Loop body input count" "Loop" loop_body_input_count

# Graphs that break single assignment.
run_bad "node output shadowing a graph input" "'x'" output_shadows_input
run_bad "node output shadowing an initializer" "'w'" output_shadows_initializer
run_bad "two nodes writing one value" "'y'" duplicate_node_outputs
run_bad "cycle" "cycle" cycle
run_bad "node input nobody produces" "nowhere" undefined_node_input
run_bad "graph output nobody produces" "'z'" graph_output_never_produced
run_bad "two graph inputs of one name" "'x'" duplicate_graph_inputs

# Tensors in the model that lie about their size.
run_bad "initializer with too few floats" "'w'" initializer_short_float_data
run_bad "initializer with too few raw bytes" "'w'" initializer_short_raw_data
run_bad "initializer with a negative dim" "'w'" initializer_negative_dim
run_bad "initializer dims overflowing int64" "'w'" initializer_dims_overflow
run_bad "initializer of an unknown data type" "'w'" initializer_unknown_dtype
run_bad "external data escaping the folder" "escapes the model directory" external_escapes_folder
run_bad "external data at an absolute path" "relative path" external_absolute_path
run_bad "external data file missing" "no_such_weights.bin" external_missing_file
run_bad "external data beyond the file's end" "beyond the end" external_beyond_file_end
run_bad "external data with a negative offset" "offset" external_bad_offset
# A symlink inside the model's folder that points outside it (at /etc/passwd).
cp "$bad/external_through_symlink.onnx" "$work/"
ln -s /etc/passwd "$work/link_to_passwd.bin"
bad "external data through a symlink" "outside the model directory" \
  "$ort" run "$work/external_through_symlink.onnx" --seed 1
# A FIFO as the weights file would block the loader forever.
cp "$bad/external_special_file.onnx" "$work/"
mkfifo "$work/special.bin"
bad "external data in a FIFO" "not a regular file" \
  "$ort" run "$work/external_special_file.onnx" --seed 1

# Shapes too large to exist.
run_bad "Reshape whose size overflows int64" "Reshape" reshape_product_overflows
run_bad "Reshape to a negative dim" "Reshape" reshape_negative_dim
run_bad "Reshape with two -1" "Reshape" reshape_two_minus_one
run_bad "Expand to 2^64 elements" "Expand" expand_to_huge
run_bad "Expand whose size overflows int64" "Expand" expand_product_overflows
run_bad "Tile by 2^62" "Tile" tile_huge_repeats
run_bad "ConstantOfShape of 2^80 elements" "ConstantOfShape" constant_of_shape_huge
run_bad "Range of 2^62 elements" "Range" range_huge
run_bad "random input with a 2^40 dim" "'x'" input_dim_2_pow_40
run_bad "random input whose dims overflow int64" "'x'" input_dims_overflow
run_bad "Slice with step 0" "step" slice_zero_step
run_bad "Gather index out of range" "Gather" gather_index_out_of_range
run_bad "Einsum with an undefined output letter" "Einsum" einsum_bad_equation

# Tensor files and options.
add=$bad/add_float.onnx
bad "input file missing" "none.npy" "$ort" run "$add" --input "a=$work/none.npy"
bad "npy with a 2^40 dim in a tiny file" "dim_2_pow_40.npy" "$ort" run "$add" --input "a=$bad/dim_2_pow_40.npy"
bad "npy whose dims overflow int64" "dims_overflow.npy" "$ort" run "$add" --input "a=$bad/dims_overflow.npy"
bad "npy shorter than its header says" "short_data.npy" "$ort" run "$add" --input "a=$bad/short_data.npy"
bad "npy of an unknown dtype" "unknown_dtype.npy" "$ort" run "$add" --input "a=$bad/unknown_dtype.npy"
bad "npy with a negative dim" "negative_dim.npy" "$ort" run "$add" --input "a=$bad/negative_dim.npy"
bad "npy with a bad magic" "bad_magic.npy" "$ort" run "$add" --input "a=$bad/bad_magic.npy"
bad "pb with a 2^40 dim" "pb_dim_2_pow_40.pb" "$ort" run "$add" --input "a=$bad/pb_dim_2_pow_40.pb"
bad "pb that is not a tensor" "pb_garbage.pb" "$ort" run "$add" --input "a=$bad/pb_garbage.pb"
bad "input of the wrong dtype" "int64" "$ort" run "$add" --input "a=$bad/int64_2x3.npy"
bad "input of the wrong rank" "'a'" "$ort" run "$add" --input "a=$bad/float_3.npy"
bad "input name the model lacks" "'zz'" "$ort" run "$add" --input "zz=$bad/float_2x3.npy"
bad "--shape for an input the model lacks" "'zz'" "$ort" run "$add" --shape "zz=2x3"
bad "--shape that is not a shape" "2xq" "$ort" run "$add" --shape "a=2xq"
bad "--free-dim 2^62" "free dimension" "$ort" run "$bad/symbolic_input.onnx" --free-dim N=4611686018427387904
bad "--free-dim negative" "--free-dim" "$ort" run "$bad/symbolic_input.onnx" --free-dim N=-4
bad "--max-tensor-bytes below the model's tensors" "max-tensor-bytes limit" "$ort" run "$add" --max-tensor-bytes 8
bad "100000 intra-op threads" "--force" "$ort" run "$add" -x 100000
bad "perf with 1000 concurrent runs" "--force" "$ort" perf "$add" -c 1000 -r 1
bad "unknown option" "--no-such-option" "$ort" run "$add" --no-such-option

# ort quantize: calibration inputs and options that do not fit the model.
mkdir -p "$work/cal" "$work/cal_names" "$work/cal_dtype" "$work/cal_partial" "$work/cal_empty"
for dir in cal cal_names cal_dtype cal_partial; do cp "$bad/float_2x3.npy" "$work/$dir/a.npy"; done
cp "$bad/float_2x3.npy" "$work/cal/b.npy"
cp "$bad/float_2x3.npy" "$work/cal_names/zz.npy"
cp "$bad/int64_2x3.npy" "$work/cal_dtype/b.npy"
quantize=("$ort" quantize "$add" -o "$work/q.onnx")
bad "quantize: missing model" "no_such.onnx" "$ort" quantize "$bad/no_such.onnx" -o "$work/q.onnx"
bad "quantize: missing calibration dir" "no_such_dir" "${quantize[@]}" --calibrate "$work/no_such_dir"
bad "quantize: calibration dir without inputs" "holds no NAME.npy" "${quantize[@]}" --calibrate "$work/cal_empty"
bad "quantize: mismatched input names" "mismatched input names" "${quantize[@]}" --calibrate "$work/cal_names"
bad "quantize: calibration file of the wrong dtype" "int64" "${quantize[@]}" --calibrate "$work/cal_dtype"
bad "quantize: calibration set missing an input" "input 'b'" "${quantize[@]}" --calibrate "$work/cal_partial"
bad "quantize: op type that cannot be quantized" "'Softmax' cannot be quantized" \
  "${quantize[@]}" --calibrate "$work/cal" --op-types Add,Softmax
bad "quantize: unknown method" "'kl'" "${quantize[@]}" --calibrate "$work/cal" --method kl
bad "quantize: unknown mode" "'fast'" "${quantize[@]}" --mode fast
bad "quantize: unknown weight type" "'int4'" "${quantize[@]}" --calibrate "$work/cal" --weight-type int4
bad "quantize: excluded node the model lacks" "'no_node'" "${quantize[@]}" --exclude-nodes no_node
bad "quantize: --percentile without its method" "--percentile" "${quantize[@]}" --percentile 99

# Writes that fail must not report success.
bad "optimize to a full disk" "/dev/full" "$ort" optimize "$add" -o /dev/full
bad "optimize to a full disk, external data" "/dev/full" \
  "$ort" optimize "$bad/external_valid.onnx" -o /dev/full --external-data-min-bytes 1
bad "optimize into a missing folder" "$work/none" "$ort" optimize "$add" -o "$work/none/x.onnx"
touch "$work/plain_file"
bad "run --output-dir under a file" "plain_file" "$ort" run "$add" --seed 1 --output-dir "$work/plain_file/out"
bad "run --output-dir a full disk" "/dev/full" "$ort" run "$add" --seed 1 --output-dir /dev/full
bad "npy outputs under a file" "plain_file" "$ort" run "$add" --seed 1 --output-format npy --output-dir "$work/plain_file"
bad "profile trace to a full disk" "/dev/full" "$ort" run "$add" --seed 1 --profile /dev/full
bad "perf report to a full disk" "/dev/full" "$ort" perf "$add" -r 1 --report /dev/full
bad "quantize to a full disk" "/dev/full" "$ort" quantize "$add" -o /dev/full --calibrate "$work/cal"
bad "quantize report to a full disk" "/dev/full" "${quantize[@]}" --calibrate "$work/cal" --report /dev/full
leftovers=$(find "$work" -name '*.tmp*' | wc -l)
if [ "$leftovers" -ne 0 ]; then
  echo "FAIL failed writes left temporary files:"; find "$work" -name '*.tmp*'
  failures=$((failures + 1))
fi

echo "$kinds bad inputs, $failures failed"
[ "$failures" -eq 0 ]
