#!/usr/bin/env bash
# End-to-end tests of the `ort` command line: outputs, comparison, aliases, `ort perf` reports
# and the one-line errors with exit code 2 for bad input.   cli_test.sh ORT_BINARY TEST_DATA_DIR
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

# matches NAME FILE REGEX...: every extended regex matches some line of FILE.
matches() {
  local name=$1 file=$2 pattern
  shift 2
  for pattern in "$@"; do
    if ! grep -qE -- "$pattern" "$file"; then
      echo "FAIL $name: no line matches '$pattern' in:"
      sed 's/^/    /' "$file"
      failures=$((failures + 1))
      return
    fi
  done
  echo "ok   $name"
}

# passes NAME COMMAND...: COMMAND exits 0; its output is shown when it does not.
passes() {
  local name=$1 output
  shift
  if output=$("$@" 2>&1); then
    echo "ok   $name"
  else
    echo "FAIL $name:"
    echo "$output" | sed 's/^/    /'
    failures=$((failures + 1))
  fi
}

# valid_report NAME REPORT [PATH=VALUE]...: REPORT satisfies docs/perf_report.schema.json and
# holds the given values.
source_dir=$(cd "$(dirname "$0")/../.." && pwd)
valid_report() {
  local name=$1
  shift
  passes "$name" python3 "$source_dir/test/apps/check_perf_report.py" \
    "$source_dir/docs/perf_report.schema.json" "$@"
}

# valid_optimize_report NAME REPORT [PATH=VALUE]...: likewise for docs/optimize_report.schema.json.
valid_optimize_report() {
  local name=$1
  shift
  passes "$name" python3 "$source_dir/test/apps/check_perf_report.py" \
    "$source_dir/docs/optimize_report.schema.json" "$@"
}

# valid_trace NAME TRACE [--model MODEL] [--runs N]: TRACE is a Chrome trace of a session
# (test/apps/check_trace.py, which needs the system python's onnx for --model).
valid_trace() {
  local name=$1
  shift
  passes "$name" /usr/bin/python3 "$source_dir/test/apps/check_trace.py" "$@"
}

# The README's synopsis of every subcommand names exactly the options its --help lists.
passes "README synopses match --help" python3 "$source_dir/test/apps/check_readme_synopses.py" \
  "$ort" "$source_dir/README.md"

add=$models/add.onnx
a=$models/a_2x3.npy
expect "run prints outputs" 0 "[1, 2, 3, 4, 5, 6]" "$ort" run "$add" --input "a=$a" --input "b=$models/a_2x3.pb"
expect "verbose shows assignments" 0 "[cpu] the_node (Add)" "$ort" run "$add" --verbose --seed 3
expect "random inputs are seeded" 0 "random" "$ort" run "$add" --seed 1

# Random integers that index a table stay inside it (a 3-row embedding behind a Cast), a cache's
# open length is 0, and --input-range overrides both.
embed=$work/embed
mkdir -p "$embed"
/usr/bin/python3 - "$embed" <<'PY'
import sys
import numpy as np
from onnx import TensorProto, helper, numpy_helper, save
table = numpy_helper.from_array(np.arange(12, dtype=np.float32).reshape(3, 4), "table")
nodes = [helper.make_node("Cast", ["ids"], ["ids32"], to=TensorProto.INT32),
         helper.make_node("Gather", ["table", "ids32"], ["rows"]),
         helper.make_node("Concat", ["past", "rows"], ["cache"], axis=1)]
graph = helper.make_graph(
    nodes, "embed",
    [helper.make_tensor_value_info("ids", TensorProto.INT64, [1, 64]),
     helper.make_tensor_value_info("past", TensorProto.FLOAT, [1, "past_sequence", 4])],
    [helper.make_tensor_value_info("cache", TensorProto.FLOAT, None)], [table])
save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), sys.argv[1] + "/embed.onnx")
PY
expect "random indices stay in their table" 0 "random in [0, 2]" "$ort" run "$embed/embed.onnx" --seed 4
expect "a cache's open length is 0" 0 "float[1,0,4]" "$ort" run "$embed/embed.onnx" --seed 4
expect "ort perf with random indices" 0 "latency" "$ort" perf "$embed/embed.onnx" -r 3
expect "--input-range sets integers" 0 "random in [1, 1]" "$ort" run "$embed/embed.onnx" --input-range ids=1:1
expect "--input-range sets floats" 0 "random in [5, 6)" "$ort" run "$embed/embed.onnx" \
  --input-range past=5:6 --shape past=1x2x4
expect "an index out of its table is still an error" 2 "out of range" \
  "$ort" run "$embed/embed.onnx" --input-range ids=3:3
one_line "--input-range of no input" "$ort" run "$embed/embed.onnx" --input-range nope=0:1
one_line "--input-range without HI" "$ort" run "$embed/embed.onnx" --input-range ids=5
one_line "--input-range LO above HI" "$ort" run "$embed/embed.onnx" --input-range ids=3:1
one_line "--input-range empty float range" "$ort" run "$embed/embed.onnx" --input-range past=1:1

# --dump-intermediates writes every node output, named after the value (characters a file name
# cannot hold made '_'), with the model's own values even where the level would fuse them.
/usr/bin/python3 - "$embed" <<'PY'
import sys
import numpy as np
from onnx import TensorProto, helper, save
nodes = [helper.make_node("Relu", ["x"], ["act/relu:0"]), helper.make_node("Neg", ["act/relu:0"], ["z"])]
graph = helper.make_graph(nodes, "relu_neg", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
                          [helper.make_tensor_value_info("z", TensorProto.FLOAT, [2, 3])])
save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), sys.argv[1] + "/relu_neg.onnx")
np.save(sys.argv[1] + "/x.npy", np.array([[-1, 2, -3], [4, -5, 6]], np.float32))
PY
expect "--dump-intermediates writes node outputs" 0 "1 of 1 node outputs written" \
  "$ort" run "$embed/relu_neg.onnx" --input "x=$embed/x.npy" --dump-intermediates "$work/dump"
passes "dumped values are the node's" /usr/bin/python3 -c "
import numpy as np, sys
a = np.load(sys.argv[1])
assert (a == np.array([[0, 2, 0], [4, 0, 6]], np.float32)).all(), a" "$work/dump/act_relu_0.npy"
expect "--dump-filter picks values" 0 "4 of 4 node outputs" "$ort" run "$data/demo/tiny_resnet.onnx" \
  --seed 1 --dump-intermediates "$work/dump_relu" --dump-filter Relu
one_line "--dump-filter that is not a regex" "$ort" run "$embed/relu_neg.onnx" \
  --input "x=$embed/x.npy" --dump-intermediates "$work/dump" --dump-filter "("
one_line "--dump-filter matching nothing" "$ort" run "$embed/relu_neg.onnx" \
  --input "x=$embed/x.npy" --dump-intermediates "$work/dump" --dump-filter zzz
one_line "--dump-filter without --dump-intermediates" "$ort" run "$embed/relu_neg.onnx" \
  --input "x=$embed/x.npy" --dump-filter relu

# ort inspect: a Conv of [batch, 3, 8, 8] by [4, 3, 3, 3] with same padding does
# 2 x (batch x 4 x 8 x 8) x 27 FLOPs: 13824 at batch 1, 55296 at batch 4.
/usr/bin/python3 - "$embed" <<'PY'
import sys
import numpy as np
from onnx import TensorProto, helper, numpy_helper, save
w = numpy_helper.from_array(np.ones((4, 3, 3, 3), np.float32), "w")
graph = helper.make_graph([helper.make_node("Conv", ["x", "w"], ["y"], pads=[1, 1, 1, 1])], "conv",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 3, 8, 8])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], [w])
save(helper.make_model(graph, producer_name="cli-test", opset_imports=[helper.make_opsetid("", 13)]),
     sys.argv[1] + "/conv.onnx")
PY
expect "inspect shows inputs and op types" 0 "float[batch,3,8,8]" "$ort" inspect "$embed/conv.onnx"
expect "inspect counts FLOPs at default sizes" 0 "13.82 KFLOPs at batch=1 (default)" \
  "$ort" inspect "$embed/conv.onnx"
expect "inspect --shape sets the sizes" 0 "55.30 KFLOPs at batch=4" \
  "$ort" inspect "$embed/conv.onnx" --shape x=4x3x8x8
expect "inspect --free-dim sets the sizes" 0 "55.30 KFLOPs at batch=4" \
  "$ort" inspect "$embed/conv.onnx" --free-dim batch=4
"$ort" inspect "$embed/conv.onnx" --json -e cpu --level basic > "$work/inspect.json"
passes "inspect --json holds the facts" /usr/bin/python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))
assert r['producer']['name'] == 'cli-test', r['producer']
assert r['opsets'] == {'ai.onnx': 13}, r['opsets']
assert r['inputs'] == [{'name': 'x', 'type': 'float[batch,3,8,8]'}], r['inputs']
assert r['initializers'] == {'count': 1, 'bytes': 432, 'parameters': 108}, r['initializers']
assert r['op_types'] == {'ai.onnx': {'Conv': 1}}, r['op_types']
assert r['flops']['total'] == 13824, r['flops']
assert r['placement']['providers'][0]['provider'] == 'cpu', r['placement']
assert r['placement']['providers'][0]['nodes'] == 1, r['placement']" "$work/inspect.json"
# A build without the CUDA provider (the sanitized one) names it unknown instead.
if "$ort" inspect "$embed/conv.onnx" -e cuda,cpu > "$work/inspect_cuda.txt" 2>&1; then
  matches "inspect -e cuda places without a GPU" "$work/inspect_cuda.txt" "cuda +1 nodes"
else
  matches "inspect -e cuda in a build without CUDA" "$work/inspect_cuda.txt" \
    "unknown execution provider 'cuda'"
fi
expect "inspect lists subgraphs" 0 "subgraph" "$ort" inspect "$models/nested_if_32.onnx"
"$ort" optimize "$embed/conv.onnx" -o "$work/conv_opt.onnx" > /dev/null
expect "inspect shows the optimization record" 0 "ort.optimization_level = all" \
  "$ort" inspect "$work/conv_opt.onnx"
expect "ort-inspect is ort inspect" 0 "13.82 KFLOPs" "$(dirname "$ort")/ort-inspect" "$embed/conv.onnx"
one_line "inspect of a missing model" "$ort" inspect "$work/missing.onnx"
one_line "inspect --shape of no input" "$ort" inspect "$embed/conv.onnx" --shape nope=1x3x8x8
one_line "inspect --shape of another rank" "$ort" inspect "$embed/conv.onnx" --shape x=1x3x8
one_line "inspect --shape against a fixed dimension" "$ort" inspect "$embed/conv.onnx" \
  --shape x=1x4x8x8

# ort compare: levels agree; a weight perturbed on purpose (block.3's Conv) is found by --bisect.
tiny=$data/demo/tiny_resnet.onnx
/usr/bin/python3 - "$tiny" "$work/perturbed.onnx" <<'PY'
import sys
import numpy as np
import onnx
from onnx import numpy_helper
model = onnx.load(sys.argv[1])
for i, weight in enumerate(model.graph.initializer):
    if weight.name == "onnx::Conv_47":
        model.graph.initializer[i].CopyFrom(
            numpy_helper.from_array(numpy_helper.to_array(weight) * np.float32(1.5), weight.name))
onnx.save(model, sys.argv[2])
PY
expect "compare: levels disable and all agree" 0 "outputs match" "$ort" compare "$tiny" --seed 2
expect "compare reports cosine and mismatches" 0 "0/10 OK" "$ort" compare "$tiny" --seed 2 \
  --a level=basic,threads=1 --b level=all,threads=2
expect "compare: another model differs, exit 1" 1 "outputs differ" \
  "$ort" compare "$tiny" --seed 2 --b "model=$work/perturbed.onnx"
expect "compare --bisect names the perturbed node" 1 \
  "first divergence: node '/block/block.3/Conv' (Conv)" \
  "$ort" compare "$tiny" --seed 2 --bisect --b "model=$work/perturbed.onnx"
expect "compare --bisect of equal runs" 0 "no node output diverges" \
  "$ort" compare "$tiny" --seed 2 --bisect
expect "compare --bisect-dir writes both sides' values" 1 "intermediates written to" \
  "$ort" compare "$tiny" --seed 2 --bisect --bisect-dir "$work/bisect" \
  --b "model=$work/perturbed.onnx"
passes "bisect values differ where the weight was perturbed" /usr/bin/python3 -c "
import numpy as np, sys
d = sys.argv[1]
name = '_block_block.3_Conv_output_0.npy'
a, b = np.load(d + '/a/' + name), np.load(d + '/b/' + name)
before = '_block_block.2_Relu_output_0.npy'
assert np.allclose(np.load(d + '/a/' + before), np.load(d + '/b/' + before), rtol=1e-4, atol=1e-5)
assert not np.allclose(a, b, rtol=1e-2, atol=1e-3)" "$work/bisect"
one_line "compare: --bisect-dir without --bisect" "$ort" compare "$tiny" --bisect-dir "$work/bisect"
expect "ort-compare is ort compare" 0 "outputs match" "$(dirname "$ort")/ort-compare" "$tiny" --seed 2
expect "compare: --rtol/--atol wide enough accept the perturbed model" 0 "outputs match" \
  "$ort" compare "$tiny" --seed 2 --b "model=$work/perturbed.onnx" --rtol 0.5 --atol 0.1
one_line "compare: a negative tolerance" "$ort" compare "$tiny" --seed 2 --rtol -1
one_line "compare: a spec without KEY=VALUE" "$ort" compare "$tiny" --a basic
one_line "compare: an unknown spec key" "$ort" compare "$tiny" --a speed=max
one_line "compare: an unknown level" "$ort" compare "$tiny" --b level=max
one_line "compare: a missing second model" "$ort" compare "$tiny" --b "model=$work/missing.onnx"
one_line "compare: models with other inputs" "$ort" compare "$tiny" --free-dim batch=1 \
  --b "model=$embed/conv.onnx"

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
one_line "unknown --shape input name" "$ort" run "$add" --shape "zz=2x3"
one_line "more intra-op threads than 4x the cores" "$ort" run "$add" -x 100000
one_line "perf concurrency above 4x the cores" "$ort" perf "$add" -c 1000 -r 1
# Forced: where 100000 threads cannot all start (here, in 2 s), an error, not an abort. The
# sanitizers' runtime itself dies mapping that many thread stacks, so sanitized builds skip it.
if [ -z "${ORT_SANITIZED:-}" ] && ! "$ort" run "$add" -x 100000 --force > /dev/null 2>&1; then
  one_line "thread pool that cannot start" "$ort" run "$add" -x 100000 --force
fi
# protobuf's default recursion limit (100 messages) refused this valid model.
passes "If nested 32 deep" "$ort" run "$models/nested_if_32.onnx" --seed 1
one_line "missing input file" "$ort" run "$add" --input "a=$work/none.npy"
one_line "tensor file shorter than its header says" "$ort" run "$add" --input "a=$models/a_short_data.npy"
one_line "tensor file that is not a tensor" "$ort" run "$add" --input "a=$work/text.onnx"
one_line "bad option" "$ort" run "$add" --no-such-option

# Shapes past int64 and tensors past --max-tensor-bytes: exit 2 naming the node or input, never a
# crash or a wrapped size (issue 21).
bomb=$work/bomb
mkdir -p "$bomb"
/usr/bin/python3 - "$bomb" <<'PY'
import sys
import numpy as np
from onnx import TensorProto, helper, numpy_helper, save

out = sys.argv[1]

def expand_model(path, dims):
    shape = numpy_helper.from_array(np.array(dims, dtype=np.int64), "shape")
    nodes = [helper.make_node("Expand", ["x", "shape"], ["big"], name="bomb"),
             helper.make_node("Transpose", ["big"], ["y"], name="flip")]
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], [shape])
    save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), path)

expand_model(out + "/expand_2e64.onnx", [2**31, 2**31, 4])
expand_model(out + "/expand_100x100.onnx", [100, 100])
graph = helper.make_graph([helper.make_node("Relu", ["x"], ["y"], name="relu")], "g",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 3])])
save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), out + "/free_dim.onnx")
# A .npy header claiming 2^40 x 3 floats, with no data after it.
header = "{'descr': '<f4', 'fortran_order': False, 'shape': (1099511627776, 3), }"
header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
with open(out + "/huge_header.npy", "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode())
PY
expect "npy header of 2^40 rows in a tiny file" 2 "input 'a': '$bomb/huge_header.npy'" \
  "$ort" run "$add" --input "a=$bomb/huge_header.npy"
one_line "npy header of 2^40 rows: one line" "$ort" run "$add" --input "a=$bomb/huge_header.npy"
expect "Expand to [2^31,2^31,4]" 2 "node 'bomb' (Expand)" "$ort" run "$bomb/expand_2e64.onnx" --seed 1
one_line "Expand to [2^31,2^31,4]: one line" "$ort" run "$bomb/expand_2e64.onnx" --seed 1
expect "--free-dim N=2^62" 2 "input 'x'" \
  "$ort" run "$bomb/free_dim.onnx" --free-dim N=4611686018427387904
one_line "--free-dim N=2^62: one line" "$ort" run "$bomb/free_dim.onnx" --free-dim N=4611686018427387904
one_line "--free-dim N=-1" "$ort" run "$bomb/free_dim.onnx" --free-dim N=-1
expect "--max-tensor-bytes 1000 names the node" 2 \
  "node 'bomb' (Expand): output 'big' (float[100,100]) would need 39.1 KiB, above the max-tensor-bytes limit of 1000 bytes" \
  "$ort" run "$bomb/expand_100x100.onnx" --seed 1 --max-tensor-bytes 1000
one_line "--max-tensor-bytes 1000: one line" "$ort" perf "$bomb/expand_100x100.onnx" --seed 1 \
  --max-tensor-bytes 1000
expect "--max-tensor-bytes above the model's tensors" 0 "y" \
  "$ort" run "$bomb/expand_100x100.onnx" --seed 1 --max-tensor-bytes 40K
expect "random input above --max-tensor-bytes" 2 "random input 'x' (float[1000,3])" \
  "$ort" run "$bomb/free_dim.onnx" --shape x=1000x3 --max-tensor-bytes 1000
one_line "--max-tensor-bytes that is no size" "$ort" run "$add" --max-tensor-bytes 12Q
one_line "bad opt level" "$ort" run "$add" -o fastest
one_line "unknown provider" "$ort" run "$add" -e tpu
cp "$models/a_2x3.pb" "$work/inputs/input_1.pb"
one_line "two input files for one input" "$ort" run "$add" --input-dir "$work/inputs"

# Nodes off their schema are refused at load, before onnx's shape inference (a zero stride divided
# by zero there) or the optimizer sees them: exit 2 and one line naming model, node and attribute.
bad=$work/bad
mkdir -p "$bad"
/usr/bin/python3 - "$bad" <<'PY'
import sys
import onnx
from onnx import TensorProto, helper

out = sys.argv[1]
x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 4, 4])
y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
w = helper.make_tensor("w", TensorProto.FLOAT, [1, 1, 2, 2], [1.0] * 4)
def save(name, node, inits=(), output=y):
    graph = helper.make_graph([node], name, [x], [output], initializer=list(inits))
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]),
              f"{out}/{name}.onnx")
save("zero_stride", helper.make_node("Conv", ["x", "w"], ["y"], "conv1", strides=[0, 0]), [w])
save("scan_without_body", helper.make_node("Scan", ["x"], ["y"], "scan", num_scan_inputs=1))
save("bad_perm", helper.make_node("Transpose", ["x"], ["y"], "t", perm=[0, 0, 1, 2]))
save("output_shadows_input", helper.make_node("Relu", ["x"], ["x"], "relu"),
     output=helper.make_tensor_value_info("x", TensorProto.FLOAT, None))
PY
refused() {
  local name=$1 text=$2
  shift 2
  one_line "$name" "$@"
  expect "$name: message" 2 "$text" "$@"
}
refused "zero-stride Conv" "model '$bad/zero_stride.onnx': node 'conv1' (Conv): attribute 'strides' must be positive, got 0" \
  "$ort" run "$bad/zero_stride.onnx"
refused "Scan without body" "node 'scan' (Scan): required attribute 'body' is missing" \
  "$ort" run "$bad/scan_without_body.onnx"
refused "Transpose perm not a permutation" "node 't' (Transpose): attribute 'perm' [0, 0, 1, 2] is not a permutation of 0..3" \
  "$ort" optimize "$bad/bad_perm.onnx" -o "$bad/out.onnx"
refused "node output shadowing a graph input" "node 'relu' (Relu): output 'x' has the name of a graph input" \
  "$ort" run "$bad/output_shadows_input.onnx"

# ort run --profile: a Chrome trace (session and node events, thread names) and the summary
# tables after the outputs.
expect "run --profile prints the summary" 0 "operator types by total time" \
  "$ort" run "$data/demo/tiny_resnet.onnx" --seed 1 -x 2 --profile "$work/trace.json"
valid_trace "run --profile writes a valid trace" "$work/trace.json" --runs 1
one_line "unwritable profile" "$ort" run "$add" --seed 1 --profile "$work/none/trace.json"

# ort perf -p: unoptimized, every node of the model appears once per run (1 warm-up + 3
# measured) with its op type, provider, shapes and thread stats.
expect "perf --profile prints the summary" 0 "operator types by total time" \
  "$ort" perf "$data/demo/tiny_resnet.onnx" --seed 1 -r 3 --warmup 1 -o disable \
  -p "$work/perf_trace.json"
valid_trace "perf --profile records every node once per run" "$work/perf_trace.json" \
  --model "$data/demo/tiny_resnet.onnx" --runs 4
"$ort" perf "$models/unnamed_nodes.onnx" --seed 1 -r 2 -o disable -p "$work/unnamed.json" \
  > /dev/null 2>&1
valid_trace "perf --profile names unnamed and duplicate-named nodes" "$work/unnamed.json" \
  --model "$models/unnamed_nodes.onnx" --runs 3

# ort perf. Timings vary from run to run, so these check the format of numbers, not their values.
num='[0-9]+\.[0-9]{3}'
tiny=$data/demo/tiny_resnet.onnx
"$ort" perf "$add" -r 7 --warmup 2 --json "$work/perf.json" > "$work/perf.txt" 2>&1
matches "perf prints its statistics" "$work/perf.txt" \
  "^model: .*add\.onnx" "warmup 2, repeat 7$" "^session creation: $num ms$" \
  "^optimizer rollbacks: 0$" "^first run: $num ms$" \
  "^latency \(ms\): min $num  mean $num  p50 $num  p90 $num  p95 $num  p99 $num  max $num$" \
  "^throughput: [0-9]+\.[0-9]{2} inferences/s \(7 runs in $num s, concurrency 1\)$" "^runs: 7$" \
  "^peak resident memory: [1-9][0-9]* bytes"
valid_report "perf --json follows the schema" "$work/perf.json" runs=7 warmup_runs=2 \
  optimizer_rollbacks=0 concurrency=1 arena_bytes_in_use=0 'settings.providers=["cpu"]' 'settings.input_shapes.a=[2,3]'
"$ort" perf "$add" -t 0.2 --warmup 0 --json "$work/duration.json" > "$work/duration.txt" 2>&1
matches "perf -t measures for a duration" "$work/duration.txt" "duration 0.2 s$" "^runs: [1-9][0-9]*$"
valid_report "duration report" "$work/duration.json" warmup_runs=0
"$ort" perf "$add" -c 2 -r 6 --json "$work/concurrent.json" > "$work/concurrent.txt" 2>&1
matches "perf -c runs concurrently" "$work/concurrent.txt" "concurrency 2, warmup 1, repeat 6$" \
  "^runs: 6$" "\(6 runs in $num s, concurrency 2\)"
valid_report "concurrent report" "$work/concurrent.json" concurrency=2 runs=6
expect "perf -c with -t" 0 "concurrency 2, warmup 1, duration 0.1 s" "$ort" perf "$add" -c 2 -t 0.1
"$ort" perf "$tiny" -r 2 -x 2 -y 3 -P -o basic --no-spinning --free-dim batch=2 \
  --json "$work/settings.json" > "$work/settings.txt" 2>&1
matches "perf settings line" "$work/settings.txt" \
  "intra-op threads 2, inter-op threads 3, parallel, opt level basic, spinning off"
valid_report "settings in the report" "$work/settings.json" settings.intra_op_threads=2 \
  settings.inter_op_threads=3 settings.execution_mode=parallel settings.opt_level=basic \
  settings.allow_spinning=false 'settings.input_shapes.image=[2,3,32,32]'
# Arena flags: the run succeeds with each allocation setting; outputs released, nothing in use.
for arena_flags in "--no-arena" "--arena-extend-strategy same-as-requested --shrink-arena"; do
  # shellcheck disable=SC2086
  "$ort" perf "$tiny" -r 2 $arena_flags --json "$work/arena.json" > /dev/null 2>&1
  valid_report "perf $arena_flags" "$work/arena.json" arena_bytes_in_use=0 runs=2
done
# Execution settings: later runs (placed by a memory pattern), runs without patterns and parallel
# runs all give ORT's output for the demo model.
for exec_flags in "-r 3" "-r 2 --no-mem-pattern" "-r 3 -P -y 2 -x 1" "-r 2 -P -y 2 --no-arena"; do
  # shellcheck disable=SC2086
  expect "run $exec_flags matches ORT" 0 "OK" "$ort" run "$tiny" --input "image=$data/demo/image.npy" \
    $exec_flags --expected-dir "$data/demo/expected" --output-format npy
done
expect "run --disable-pass matches ORT" 0 "OK" "$ort" run "$tiny" \
  --input "image=$data/demo/image.npy" --disable-pass constant_folding \
  --disable-pass basic_rewrites --expected-dir "$data/demo/expected" --output-format npy
one_line "unknown --disable-pass" "$ort" run "$tiny" --seed 1 --disable-pass no_such_pass
one_line "run -r 0" "$ort" run "$tiny" --seed 1 -r 0
one_line "unknown arena strategy" "$ort" perf "$tiny" --arena-extend-strategy doubling
expect "perf reads input files" 0 "a_2x3.npy" "$ort" perf "$add" -r 1 --input "a=$a" --input "b=$a"
expect "baseline within the limit" 0 "Mann-Whitney U, 3 vs 7 runs" \
  "$ort" perf "$add" -r 3 --baseline "$work/perf.json" --max-regression 1000000000
python3 - "$work/perf.json" "$work/fast.json" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
report["latency_ms"]["p50"] = 1e-9
report["latencies_ms"] = [value * 1e-9 for value in report["latencies_ms"]]
report["round_p50_ms"] = [value * 1e-9 for value in report["round_p50_ms"]]
json.dump(report, open(sys.argv[2], "w"))
PY
expect "baseline regression exits 1" 1 "REGRESSION" "$ort" perf "$add" -r 3 --baseline "$work/fast.json"
expect "ort-perf alias" 0 "runs: 3" "$alias_dir/ort-perf" "$add" -r 3
echo '{"latency_ms": {}}' > "$work/no_p50.json"
one_line "perf: -r and -t together" "$ort" perf "$add" -r 3 -t 1
one_line "perf: missing model" "$ort" perf "$work/missing.onnx"
one_line "perf: missing baseline" "$ort" perf "$add" --baseline "$work/none.json"
one_line "perf: baseline that is not JSON" "$ort" perf "$add" --baseline "$work/text.onnx"
one_line "perf: baseline without p50" "$ort" perf "$add" --baseline "$work/no_p50.json"
one_line "perf: --max-regression without --baseline" "$ort" perf "$add" --max-regression 5
one_line "perf: zero concurrency" "$ort" perf "$add" -c 0
one_line "perf: zero repeat" "$ort" perf "$add" -r 0
one_line "perf: unwritable report" "$ort" perf "$add" -r 1 --json "$work/none/report.json"

# The gate: a baseline of another model or other settings is refused (exit 2) unless --force; a
# run slowed on purpose (16 images against a baseline of 1) fails it, a same-settings rerun
# passes; each metric has its limit; --markdown writes the table.
"$ort" perf "$tiny" -r 10 --rounds 5 -x 2 --shape image=1x3x32x32 --json "$work/gate.json" \
  > /dev/null 2>&1
one_line "gate refuses a baseline of another model" "$ort" perf "$add" -r 3 \
  --baseline "$work/gate.json"
one_line "gate refuses a baseline of other settings" "$ort" perf "$tiny" -r 3 -x 1 \
  --shape image=1x3x32x32 --baseline "$work/gate.json"
expect "gate fails a run slowed on purpose" 1 "p50" "$ort" perf "$tiny" -r 10 --rounds 5 -x 2 \
  --shape image=16x3x32x32 --force --baseline "$work/gate.json" --max-regression p50=200
expect "gate passes a same-settings rerun" 0 "Mann-Whitney U, 5 vs 5 round medians" \
  "$ort" perf "$tiny" -r 10 --rounds 5 -x 2 --shape image=1x3x32x32 --baseline "$work/gate.json" \
  --max-regression p50=200,p90=400,rss=200 --markdown "$work/gate.md"
passes "gate writes a Markdown table" grep -q "| p50 |" "$work/gate.md"
valid_report "perf --rounds report follows the schema" "$work/gate.json" rounds=5 runs=50
one_line "gate: unknown metric" "$ort" perf "$tiny" -r 3 --baseline "$work/gate.json" --force \
  --max-regression speed=5
one_line "gate: negative limit" "$ort" perf "$tiny" -r 3 --baseline "$work/gate.json" --force \
  --max-regression p50=-5
one_line "gate: unwritable --markdown" "$ort" perf "$tiny" -r 3 --rounds 1 -x 2 \
  --shape image=1x3x32x32 --baseline "$work/gate.json" --max-regression 1000 \
  --markdown "$work/none/gate.md"
one_line "perf: zero rounds" "$ort" perf "$tiny" -r 3 --rounds 0
"$ort" perf "$tiny" -r 20 --pin --percentiles 50,99.9 --json "$work/pinned.json" > "$work/pinned.txt" 2>&1
matches "perf --pin --percentiles prints them" "$work/pinned.txt" "pinned yes" \
  "percentiles \(ms\):  p50 [0-9.]+  p99.9 [0-9.]+" "cpu utilization: [0-9.]+ cores busy"
valid_report "perf --pin report follows the schema" "$work/pinned.json" settings.pinned=true
passes "perf report holds the asked percentiles and the cores busy" /usr/bin/python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))
assert set(r['percentiles_ms']) == {'50', '99.9'}, r['percentiles_ms']
assert r['percentiles_ms']['50'] == r['latency_ms']['p50'], r
assert r['cpu_cores_busy'] > 0, r['cpu_cores_busy']" "$work/pinned.json"
one_line "perf: a percentile of 0" "$ort" perf "$tiny" -r 3 --percentiles 0,50
# --html: one self-contained page (no script, nothing fetched), names from the model escaped,
# rendered by headless Chromium (scripts/setup.sh installs it) without console messages.
/usr/bin/python3 - "$embed" <<'PY'
import sys
import numpy as np
from onnx import TensorProto, helper, numpy_helper, save
w = numpy_helper.from_array(np.ones((4, 3, 3, 3), np.float32), "w")
nodes = [helper.make_node("Conv", ["x", "w"], ["y"], name="<script>alert(1)</script>&", pads=[1, 1, 1, 1]),
         helper.make_node("Relu", ["y"], ["z"], name="relu")]
graph = helper.make_graph(nodes, "evil", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 16, 16])],
                          [helper.make_tensor_value_info("z", TensorProto.FLOAT, None)], [w])
save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), sys.argv[1] + "/evil.onnx")
PY
expect "perf --html writes the page" 0 "html: $work/perf.html" "$ort" perf "$embed/evil.onnx" -r 30 \
  -o basic -p "$work/html_trace.json" --html "$work/perf.html"
passes "the page is self-contained and escapes the model's names" /usr/bin/python3 -c "
import re, sys
page = open(sys.argv[1], encoding='utf-8').read()
assert page.count('<svg') == 5, page.count('<svg')  # histogram, runs, op types, nodes, timelines
assert '<script' not in page, 'a script'
assert '&lt;script&gt;alert(1)&lt;/script&gt;&amp;' in page, 'node name not escaped'
links = set(re.findall(r'(?:src|href)=\"([^\"]*)', page)) | set(re.findall(r'url\(', page))
assert not links, links
assert set(re.findall(r'https?://[^\" ]*', page)) <= {'http://www.w3.org/2000/svg'}" "$work/perf.html"
if command -v chromium > /dev/null; then
  chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$work/chromium" --enable-logging=stderr --v=0 --window-size=1000,2000 \
    --screenshot="$work/perf.png" "file://$work/perf.html" > /dev/null 2> "$work/chromium.log"
  passes "Chromium renders the page: a screenshot of more than 20 KB" \
    test "$(stat -c %s "$work/perf.png" 2> /dev/null || echo 0)" -gt 20000
  passes "Chromium logs no console message for the page" \
    sh -c '! grep -q "CONSOLE" "$1"' sh "$work/chromium.log"
  chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$work/chromium" --dump-dom "file://$work/perf.html" > "$work/perf.dom" 2> /dev/null
  passes "Chromium's DOM holds the charts' bars" /usr/bin/python3 -c "
import sys
dom = open(sys.argv[1]).read()
assert dom.count('<svg') == 5 and dom.count('<rect') > 40, (dom.count('<svg'), dom.count('<rect'))" \
    "$work/perf.dom"
else
  echo "FAIL perf --html in Chromium: chromium is not installed (scripts/setup.sh installs it)"
  failures=$((failures + 1))
fi
one_line "perf: unwritable --html" "$ort" perf "$add" -r 2 --html "$work/none/page.html"
"$ort" perf "$tiny" -r 3 --shape image=1x3x32x32,4x3x32x32 --json "$work/sweep.json" \
  > "$work/sweep.txt" 2>&1
matches "perf --shape sweep prints a row per shape" "$work/sweep.txt" "shape sweep:" \
  "image=\[1,3,32,32\] +[0-9.]+" "image=\[4,3,32,32\] +[0-9.]+"
valid_report "perf sweep report follows the schema" "$work/sweep.json"
passes "perf sweep report holds both shapes" /usr/bin/python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))
assert [p['input_shapes']['image'][0] for p in r['sweep']] == [1, 4], r['sweep']
assert all(p['runs'] == 3 for p in r['sweep']), r['sweep']" "$work/sweep.json"
one_line "perf: sweeps of unequal length" "$ort" perf "$embed/embed.onnx" -r 2 \
  --shape ids=1x64,1x64 --shape past=1x0x4,1x1x4,1x2x4
one_line "perf: a sweep against a baseline" "$ort" perf "$tiny" -r 2 --force \
  --shape image=1x3x32x32,2x3x32x32 --baseline "$work/gate.json"
expect "perf: dimensions separated by commas are one shape" 0 "float[2,3,32,32]" \
  "$ort" perf "$tiny" -r 2 --shape image=2,3,32,32
one_line "run: a list of shapes is refused" "$ort" run "$tiny" --shape image=1x3x32x32,2x3x32x32
one_line "perf: a percentile that is not a number" "$ort" perf "$tiny" -r 3 --percentiles p99

# ort optimize: the saved model (weights of 100 bytes or more in OUT.data) reloads with ORT's
# outputs, records its level so sessions skip it, and the report follows its schema.
opt=$work/opt
mkdir -p "$opt"
image=$data/demo/image.npy
"$ort" optimize "$tiny" -o "$opt/tiny.onnx" --external-data-min-bytes 100 --strict-optimizer \
  --report "$opt/report.json" > "$opt/report.txt" 2>&1
matches "optimize prints its tables" "$opt/report.txt" "^model: .*tiny_resnet\.onnx \(14 nodes\) -> " \
  "^op type +before +after$" "^Conv +4 +[0-9]+" "^pass / rule +level +runs +changed +time ms$" \
  "^basic_rewrites +basic +[1-9]" "^  eliminate_identity +fired 0$" "^optimizer rollbacks: 0$" \
  "^external data: tiny\.onnx\.data \([1-9][0-9]* initializers"
valid_optimize_report "optimize --report follows the schema" "$opt/report.json" level=all \
  input_level=disable nodes_before=14 'providers=["cpu"]' 'disabled_passes=[]' \
  optimizer_rollbacks=0 'rollbacks=[]' \
  external_data.file=tiny.onnx.data external_data.min_bytes=100
passes "optimize writes external data" test -s "$opt/tiny.onnx.data"
expect "optimized model matches ORT" 0 "OK" "$ort" run "$opt/tiny.onnx" --input "image=$image" \
  --expected-dir "$data/demo/expected" --output-format npy
expect "a session skips the levels applied offline" 0 "optimized offline up to level 'all'" \
  "$ort" run "$opt/tiny.onnx" --seed 1 --log-level info
# A device or descriptor output has no directory for a data file: every weight inline.
rm -f /dev/null.data 2> /dev/null
expect "optimize to /dev/null keeps weights inline" 0 "every initializer inline" \
  "$ort" optimize "$tiny" -o /dev/null --external-data-min-bytes 100
passes "optimize to /dev/null writes no /dev/null.data" test ! -e /dev/null.data
"$ort" optimize "$tiny" -o /dev/fd/3 --external-data-min-bytes 100 3> "$opt/descriptor.onnx" \
  > /dev/null
expect "a model written through a descriptor is self-contained" 0 "OK" "$ort" run \
  "$opt/descriptor.onnx" --input "image=$image" --expected-dir "$data/demo/expected"
expect "ort-optimize alias" 0 "level basic, providers cpu" "$alias_dir/ort-optimize" "$tiny" \
  -o "$opt/alias.onnx" --level basic
"$ort" optimize "$tiny" -o "$opt/basic.onnx" --level basic --disable-pass basic_rewrites \
  --report "$opt/basic.json" > "$opt/basic.txt" 2>&1
valid_optimize_report "optimize --disable-pass report" "$opt/basic.json" level=basic \
  'disabled_passes=["basic_rewrites"]' external_data.file=basic.onnx.data \
  external_data.min_bytes=1024
if grep -q "^basic_rewrites " "$opt/basic.txt"; then
  echo "FAIL optimize --disable-pass: basic_rewrites still ran"
  failures=$((failures + 1))
else
  echo "ok   optimize --disable-pass skips the pass"
fi
expect "optimized model records level, providers, disabled passes" 0 \
  "basic cpu basic_rewrites" /usr/bin/python3 -c "import onnx, sys
meta = {p.key: p.value for p in onnx.load(sys.argv[1]).metadata_props}
print(meta['ort.optimization_level'], meta['ort.optimization_providers'],
      meta['ort.optimization_disabled_passes'])" "$opt/basic.onnx"
expect "basic-optimized model matches ORT" 0 "OK" "$ort" run "$opt/basic.onnx" \
  --input "image=$image" --expected-dir "$data/demo/expected" --output-format npy
expect "passes disabled offline run again" 0 "which this session runs; running every level again" \
  "$ort" run "$opt/basic.onnx" --seed 1
one_line "optimize: unknown level" "$ort" optimize "$tiny" -o "$opt/x.onnx" --level fastest
one_line "optimize: unknown provider" "$ort" optimize "$tiny" -o "$opt/x.onnx" -e tpu
one_line "optimize: missing model" "$ort" optimize "$work/missing.onnx" -o "$opt/x.onnx"
one_line "optimize: no -o" "$ort" optimize "$tiny"
one_line "optimize: unknown --disable-pass" "$ort" optimize "$tiny" -o "$opt/x.onnx" \
  --disable-pass no_such_pass
one_line "optimize: unwritable output" "$ort" optimize "$tiny" -o "$work/none/x.onnx"

# Writes that fail are errors (exit 2, naming the file) and leave no file half-written: outputs
# replace their targets only once complete, and devices are written in place.
one_line "optimize -o /dev/full" "$ort" optimize "$tiny" -o /dev/full
one_line "optimize -o /dev/full with external data" "$ort" optimize "$tiny" -o /dev/full \
  --external-data-min-bytes 100
expect "optimize -o /dev/full names the file" 2 "cannot write '/dev/full'" \
  "$ort" optimize "$tiny" -o /dev/full
one_line "optimize --report /dev/full" "$ort" optimize "$tiny" -o "$opt/r.onnx" --report /dev/full
one_line "perf --json /dev/full" "$ort" perf "$add" -r 1 --json /dev/full
one_line "run --profile /dev/full" "$ort" run "$add" --seed 1 --profile /dev/full
one_line "perf --profile /dev/full" "$ort" perf "$add" -r 1 --profile /dev/full
one_line "run --output-dir that is a file" "$ort" run "$add" --seed 1 --output-dir "$work/text.onnx"
one_line "run --output-dir where files cannot be created" "$ort" run "$add" --seed 1 \
  --output-dir /proc/self
one_line "run --output-format npy where files cannot be created" "$ort" run "$add" --seed 1 \
  --output-dir /proc/self --output-format npy
full=$work/full
mkdir -p "$full"
ln -s /dev/full "$full/output_0.pb"
ln -s /dev/full "$full/c.npy"
one_line "run --output-dir writing to a full device" "$ort" run "$add" --seed 1 --output-dir "$full"
one_line "run --output-format npy writing to a full device" "$ort" run "$add" --seed 1 \
  --output-dir "$full" --output-format npy
expect "writing /dev/null succeeds" 0 "profile trace written to /dev/null" \
  "$ort" run "$add" --seed 1 --profile /dev/null
test -c /dev/null || { echo "FAIL /dev/null was replaced"; failures=$((failures + 1)); }
test -e /dev/full.data && { echo "FAIL /dev/full.data was left"; failures=$((failures + 1)); }
# A file size limit makes the writes fail part-way, for root too (SIGXFSZ ignored, so EFBIG):
# the previous model and its data stay as they were, and no temporary file is left behind.
failed=$work/failed
mkdir -p "$failed"
"$ort" optimize "$tiny" -o "$failed/m.onnx" --level basic --external-data-min-bytes 100 > /dev/null
cp "$failed/m.onnx" "$work/m.onnx.before"
cp "$failed/m.onnx.data" "$work/m.onnx.data.before"
one_line "optimize failing part-way" bash -c 'trap "" XFSZ; ulimit -f 8; exec "$@"' - \
  "$ort" optimize "$tiny" -o "$failed/m.onnx" --external-data-min-bytes 100
one_line "optimize failing part-way, model inline" bash -c 'trap "" XFSZ; ulimit -f 8; exec "$@"' - \
  "$ort" optimize "$tiny" -o "$failed/m.onnx" --external-data-min-bytes 100000000
if cmp -s "$failed/m.onnx" "$work/m.onnx.before" &&
  cmp -s "$failed/m.onnx.data" "$work/m.onnx.data.before" &&
  [ "$(ls -A "$failed" | tr '\n' ' ')" = "m.onnx m.onnx.data " ]; then
  echo "ok   failed writes leave the old model, its data and no temporary file"
else
  echo "FAIL failed writes changed $failed:"
  ls -lA "$failed" | sed 's/^/    /'
  failures=$((failures + 1))
fi
for dir in "$full" "$work" "$opt"; do
  if ls -A "$dir" | grep -q '\.tmp-'; then
    echo "FAIL temporary files left in $dir:"
    ls -A "$dir" | sed 's/^/    /'
    failures=$((failures + 1))
  fi
done

# ort optimize may replace its input model and the data file it reads: the weights stay mapped
# from the old files, and the new ones take their place only once written in full.
inplace=$work/inplace
mkdir -p "$inplace"
"$ort" optimize "$tiny" -o "$inplace/m.onnx" --level disable --external-data-min-bytes 100 \
  > /dev/null
expect "optimize in place" 0 "m.onnx (14 nodes) -> " "$ort" optimize "$inplace/m.onnx" \
  -o "$inplace/m.onnx" --external-data-min-bytes 100
expect "a model optimized in place matches ORT" 0 "OK" "$ort" run "$inplace/m.onnx" \
  --input "image=$image" --expected-dir "$data/demo/expected" --output-format npy
[ "$(ls -A "$inplace" | tr '\n' ' ')" = "m.onnx m.onnx.data " ] ||
  { echo "FAIL optimize in place left:"; ls -A "$inplace"; failures=$((failures + 1)); }
expect "optimize in place, weights going inline" 0 "external data: none" \
  "$ort" optimize "$inplace/m.onnx" -o "$inplace/m.onnx" --external-data-min-bytes 100000000
expect "a model optimized in place twice matches ORT" 0 "OK" "$ort" run "$inplace/m.onnx" \
  --input "image=$image" --expected-dir "$data/demo/expected" --output-format npy
[ "$(ls -A "$inplace" | tr '\n' ' ')" = "m.onnx " ] ||
  { echo "FAIL optimize in place kept a stale data file:"; ls -A "$inplace"; failures=$((failures + 1)); }

# Output names come from the model: one naming another directory is not a file name.
/usr/bin/python3 -c "import onnx, sys
from onnx import helper, TensorProto
node = helper.make_node('Identity', ['x'], ['../escape'])
graph = helper.make_graph([node], 'g', [helper.make_tensor_value_info('x', TensorProto.FLOAT, [2])],
                          [helper.make_tensor_value_info('../escape', TensorProto.FLOAT, [2])])
onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid('', 14)]), sys.argv[1])" \
  "$work/escape.onnx"
mkdir -p "$work/esc/out"
one_line "npy output named out of --output-dir" "$ort" run "$work/escape.onnx" --seed 1 \
  --output-dir "$work/esc/out" --output-format npy
test -e "$work/esc/escape.npy" && { echo "FAIL an output escaped --output-dir"; failures=$((failures + 1)); }

# ort quantize: static QDQ calibrated on NAME.npy sets or test_data_set_*/input_0.pb sets, every
# option, the printed and JSON reports, the saved model (onnx's checker, the engine's fusions) and
# the one-line errors.
quant=$work/quant
mkdir -p "$quant/cal" "$quant/sets/test_data_set_0" "$quant/sets/test_data_set_1" "$quant/misnamed"
cp "$image" "$quant/cal/image.npy"
cp "$image" "$quant/misnamed/input.npy"
/usr/bin/python3 -c "import sys, numpy as np
from onnx import numpy_helper
x = np.load(sys.argv[1])
for i, folder in enumerate(sys.argv[2:]):
    tensor = numpy_helper.from_array((x * (1 - 0.3 * i)).astype(np.float32), 'image')
    open(folder + '/input_0.pb', 'wb').write(tensor.SerializeToString())" \
  "$image" "$quant/sets/test_data_set_0" "$quant/sets/test_data_set_1"
"$ort" quantize "$tiny" -o "$quant/q.onnx" --calibrate "$quant/cal" --report "$quant/q.json" \
  > "$quant/q.txt" 2>&1
matches "quantize prints its tables" "$quant/q.txt" \
  "^model: .*tiny_resnet\.onnx -> .*q\.onnx \(static quantization, minmax calibration, int8 weights\)$" \
  "^compared with the float model on 1 input set$" \
  "^output +cosine +max abs error +top-1 agreement$" \
  "^probabilities +(1\.000000|0\.99[0-9]+) +[0-9.e-]+ +100\.00% \(1/1\)$" \
  "^Conv +4 +0$" "^Relu +4 +0$" "^Softmax +0 +1$" "^total +13 +1$"
expect "quantize --report" 0 "static minmax int8 1 4 True" /usr/bin/python3 -c "import json, sys
r = json.load(open(sys.argv[1]))
conv = [op for op in r['op_types'] if op['op_type'] == 'Conv'][0]
out = r['outputs'][0]
print(r['mode'], r['method'], r['weight_type'], r['calibration_sets'], conv['quantized'],
      out['cosine'] > 0.99 and out['top1_agreement'] == 1.0)" "$quant/q.json"
expect "quantize writes QDQ that onnx checks" 0 "Q 10 DQ 20 int8 5 int32 5 float ops 14" \
  /usr/bin/python3 -c "import onnx, sys, collections
m = onnx.load(sys.argv[1])
onnx.checker.check_model(m, full_check=True)
ops = collections.Counter(n.op_type for n in m.graph.node)
types = collections.Counter(i.data_type for i in m.graph.initializer if i.name.endswith('_quantized'))
print('Q', ops['QuantizeLinear'], 'DQ', ops['DequantizeLinear'], 'int8', types[3], 'int32',
      types[6], 'float ops', sum(ops.values()) - ops['QuantizeLinear'] - ops['DequantizeLinear'])" \
  "$quant/q.onnx"
expect "the engine fuses the quantized model" 0 "com.microsoft:QLinearConv" \
  "$ort" run "$quant/q.onnx" --input "image=$image" --verbose
expect "the quantized model stays close to ORT's float outputs" 0 "OK" "$ort" run "$quant/q.onnx" \
  --input "image=$image" --expected-dir "$data/demo/expected" --output-format npy --atol 0.01
expect "quantize: percentile, per channel, symmetric activations, test_data_set folders" 0 \
  "percentile calibration, int8 weights per channel, symmetric int8 activations" \
  "$ort" quantize "$tiny" -o "$quant/p.onnx" --calibrate "$quant/sets" --method percentile \
  --percentile 99.9 --per-channel --symmetric-activations -x 1 --log-level error
expect "quantize: two --calibrate folders" 0 "on 3 input sets" "$ort" quantize "$tiny" \
  -o "$quant/two.onnx" --calibrate "$quant/sets" --calibrate "$quant/cal"
expect "quantize: per-channel weights are stored per output channel" 0 "axis 0 scales 32 zero 3" \
  /usr/bin/python3 -c "import onnx, sys
m = onnx.load(sys.argv[1])
dq = [n for n in m.graph.node if n.op_type == 'DequantizeLinear' and n.input[0].endswith('weight_quantized')][0]
scale = [i for i in m.graph.initializer if i.name == dq.input[1]][0]
zero = [i for i in m.graph.initializer if i.name == dq.input[2]][0]
print('axis', dq.attribute[0].i, 'scales', scale.dims[0], 'zero', zero.data_type)" "$quant/p.onnx"
"$ort" quantize "$tiny" -o "$quant/e.onnx" --calibrate "$quant/cal" --method entropy \
  --weight-type uint8 --op-types Conv,Relu --exclude-nodes /down/down.0/Conv > "$quant/e.txt" 2>&1
matches "quantize: entropy, uint8 weights, op types and excluded nodes" "$quant/e.txt" \
  "entropy calibration, uint8 weights\)$" "^Conv +3 +1$" "^Relu +2 +2$" "^Add +0 +1$" \
  "^Gemm +0 +1$"
expect "quantize without --calibrate warns and uses random inputs" 0 \
  "WARNING: ort quantize: no --calibrate directory given" "$ort" quantize "$tiny" \
  -o "$quant/r.onnx" --seed 3 --free-dim batch=2
expect "quantize --mode dynamic" 0 "(dynamic quantization, int8 weights per channel)" \
  "$alias_dir/ort-quantize" "$tiny" -o "$quant/d.onnx" --mode dynamic --per-channel \
  --calibrate "$quant/cal" --op-types Gemm,MatMul
expect "dynamic mode writes integer MatMuls" 0 "DynamicQuantizeLinear 1 MatMulInteger 1 Gemm 0" \
  /usr/bin/python3 -c "import onnx, sys, collections
m = onnx.load(sys.argv[1])
onnx.checker.check_model(m, full_check=True)
ops = collections.Counter(n.op_type for n in m.graph.node)
print('DynamicQuantizeLinear', ops['DynamicQuantizeLinear'], 'MatMulInteger',
      ops['MatMulInteger'], 'Gemm', ops['Gemm'])" "$quant/d.onnx"
expect "a dynamically quantized model matches ORT" 0 "OK" "$ort" run "$quant/d.onnx" \
  --input "image=$image" --expected-dir "$data/demo/expected" --output-format npy --atol 0.01
one_line "quantize: missing model" "$ort" quantize "$work/missing.onnx" -o "$quant/x.onnx"
one_line "quantize: missing calibration dir" "$ort" quantize "$tiny" -o "$quant/x.onnx" \
  --calibrate "$quant/none"
expect "quantize: mismatched input names" 2 "matches no model input (mismatched input names" \
  "$ort" quantize "$tiny" -o "$quant/x.onnx" --calibrate "$quant/misnamed"
one_line "quantize: op type that cannot be quantized" "$ort" quantize "$tiny" -o "$quant/x.onnx" \
  --calibrate "$quant/cal" --op-types Conv,Softmax
one_line "quantize: dynamic mode and a static op type" "$ort" quantize "$tiny" -o "$quant/x.onnx" \
  --mode dynamic --op-types Conv
one_line "quantize: dynamic mode and a calibration method" "$ort" quantize "$tiny" \
  -o "$quant/x.onnx" --mode dynamic --method entropy
one_line "quantize: no -o" "$ort" quantize "$tiny" --calibrate "$quant/cal"
test -e "$quant/x.onnx" && { echo "FAIL a failed quantize wrote its output"; failures=$((failures + 1)); }

# The CUDA provider: --precision needs it; optimizing for it and reporting placement need no GPU.
one_line "precision without the CUDA provider" "$ort" run "$tiny" --seed 1 --precision fp16
if "$ort" optimize "$tiny" -o "$opt/cuda.onnx" -e cuda > "$opt/cuda.txt" 2>&1; then
  matches "optimize -e cuda places every node on the GPU" "$opt/cuda.txt" \
    "^  cuda +[0-9]+  " "^  cpu +0  " "copies per run: 1 to the device, 1 to the host"
  expect "a model optimized for CUDA runs on the CPU" 0 "OK" "$ort" run "$opt/cuda.onnx" \
    --input "image=$image" --expected-dir "$data/demo/expected" --output-format npy
else
  grep -q "unknown execution provider 'cuda'" "$opt/cuda.txt" ||
    { echo "FAIL optimize -e cuda:"; sed 's/^/    /' "$opt/cuda.txt"; failures=$((failures + 1)); }
fi

if [ "$failures" -ne 0 ]; then
  echo "$failures CLI test(s) failed"
  exit 1
fi
echo "all CLI tests passed"
