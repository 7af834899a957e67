#!/usr/bin/python3
"""Writes the malformed models and tensor files of the bad-input matrix (test/apps/bad_input_test.sh)
into test/data/bad_inputs/. Each is small and breaks one rule; the test expects `ort` to refuse it
with exit code 2 and one line naming the problem. Needs Debian's python3-onnx:
    /usr/bin/python3 tools/bad_inputs/make_bad_inputs.py test/data/bad_inputs
"""
import os
import struct
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
F = TensorProto.FLOAT


def vi(name, shape, elem=F):
    return helper.make_tensor_value_info(name, elem, shape)


def model(nodes, inputs, outputs, initializers=(), opset=17, ir=8, domains=()):
    graph = helper.make_graph(nodes, "g", inputs, outputs, list(initializers))
    opsets = [helper.make_opsetid("", opset)] + [helper.make_opsetid(d, v) for d, v in domains]
    m = helper.make_model(graph, opset_imports=opsets)
    m.ir_version = ir
    return m


def save(name, m):
    with open(os.path.join(out, name + ".onnx"), "wb") as f:
        f.write(m.SerializeToString())


def one(op, inputs=("x",), outputs=("y",), in_shape=(1, 1, 4, 4), out_shape=None, **attrs):
    node = helper.make_node(op, list(inputs), list(outputs), name="n0", **attrs)
    return model([node], [vi("x", list(in_shape))], [vi(outputs[0], out_shape)])


def conv(**attrs):
    w = numpy_helper.from_array(np.ones((1, 1, 3, 3), np.float32), "w")
    node = helper.make_node("Conv", ["x", "w"], ["y"], name="conv", **attrs)
    return model([node], [vi("x", [1, 1, 8, 8])], [vi("y", None)], [w])


def conv_transpose(**attrs):
    w = numpy_helper.from_array(np.ones((1, 1, 3, 3), np.float32), "w")
    node = helper.make_node("ConvTranspose", ["x", "w"], ["y"], name="deconv", **attrs)
    return model([node], [vi("x", [1, 1, 4, 4])], [vi("y", None)], [w])


def const_shape_model(op, shape_values, in_shape=(2,), extra_inputs=()):
    shape = numpy_helper.from_array(np.array(shape_values, np.int64), "s")
    node = helper.make_node(op, ["x", "s"] + list(extra_inputs), ["y"], name="n0")
    return model([node], [vi("x", list(in_shape))], [vi("y", None)], [shape])


def body_graph(n_in, n_out, name="body"):
    ins = [vi("b_in%d" % i, None) for i in range(n_in)]
    nodes = [helper.make_node("Identity", ["b_in%d" % (i % max(n_in, 1))] if n_in else [],
                              ["b_out%d" % i]) for i in range(n_out)]
    return helper.make_graph(nodes, name, ins, [vi("b_out%d" % i, None) for i in range(n_out)])


# --- files that are not models ---------------------------------------------------------------
open(os.path.join(out, "empty.onnx"), "wb").close()
with open(os.path.join(out, "random_bytes.onnx"), "wb") as f:
    f.write(np.random.default_rng(1).integers(0, 256, 4096, dtype=np.uint8).tobytes())
good = one("Relu").SerializeToString()
with open(os.path.join(out, "truncated.onnx"), "wb") as f:
    f.write(good[: len(good) // 2])
m = one("Relu")
m.ClearField("graph")
save("no_graph", m)
m = one("Relu")
m.ir_version = 99
save("ir_version_99", m)
m = one("Relu")
del m.opset_import[:]
save("no_opset_import", m)
save("opset_99", one("Relu") if False else model([helper.make_node("Relu", ["x"], ["y"])],
                                                 [vi("x", [2])], [vi("y", [2])], opset=99))

# --- nodes off their schema --------------------------------------------------------------------
save("unknown_op", one("NoSuchOp"))
m = one("Relu")
m.graph.node[0].domain = "com.example"
save("unknown_domain", m)
m = one("Relu")
m.graph.node[0].op_type = ""
save("empty_op_type", m)
save("relu_without_input", one("Relu", inputs=()))
save("softmax_without_input", one("Softmax", inputs=()))
save("resize_without_input", one("Resize", inputs=()))
save("relu_with_two_inputs", one("Relu", inputs=("x", "x")))
m = one("Shape", out_shape=[4])
m.graph.node[0].output.append("extra")
save("shape_with_two_outputs", m)
save("conv_zero_stride", conv(strides=[0, 0]))
save("conv_negative_stride", conv(strides=[-1, 1]))
save("conv_zero_dilation", conv(dilations=[0, 1]))
save("conv_zero_kernel_shape", conv(kernel_shape=[0, 0]))
save("conv_negative_pads", conv(pads=[-1, 0, 0, 0]))
save("conv_pads_wrong_length", conv(pads=[1, 1]))
save("conv_strides_wrong_length", conv(strides=[1, 1, 1]))
save("conv_zero_group", conv(group=0))
save("conv_strides_as_floats", conv(strides=[1.0, 1.0]))
save("conv_transpose_zero_stride", conv_transpose(strides=[0, 0]))
save("conv_transpose_zero_dilation", conv_transpose(dilations=[0, 0]))
save("maxpool_without_kernel_shape", one("MaxPool"))
save("maxpool_zero_stride", one("MaxPool", kernel_shape=[2, 2], strides=[0, 0]))
save("averagepool_zero_kernel", one("AveragePool", kernel_shape=[0, 2]))
save("transpose_perm_repeats", one("Transpose", perm=[0, 0, 1, 2]))
save("transpose_perm_out_of_range", one("Transpose", perm=[0, 1, 2, 7]))
save("transpose_perm_too_short", one("Transpose", perm=[1, 0]))
save("softmax_axis_out_of_range", one("Softmax", axis=9))
save("concat_axis_out_of_range", one("Concat", inputs=("x", "x"), axis=-7))
save("flatten_axis_out_of_range", one("Flatten", axis=9))
save("softmax_misspelt_attribute", one("Softmax", axes=1))
m = model([helper.make_node("Concat", ["x", "i"], ["y"], name="cat", axis=0)],
          [vi("x", [2]), vi("i", [2], TensorProto.INT32)], [vi("y", None)])
save("concat_mixed_types", m)
m = model([helper.make_node("Where", ["c", "x", "i"], ["y"], name="where")],
          [vi("c", [2], TensorProto.BOOL), vi("x", [2], TensorProto.INT8),
           vi("i", [2], TensorProto.INT64)], [vi("y", None, TensorProto.INT8)])
save("where_mixed_types", m)
m = model([helper.make_node("Sqrt", ["i"], ["y"], name="sqrt")],
          [vi("i", [2], TensorProto.INT64)], [vi("y", None)])
save("sqrt_of_int64", m)
save("op_before_its_opset", model([helper.make_node("Celu", ["x"], ["y"], name="celu")],
                                  [vi("x", [2])], [vi("y", [2])], opset=10))
w = numpy_helper.from_array(np.ones((3, 4), np.float32), "w")
save("gemm_string_input", model([helper.make_node("Gemm", ["x", "w"], ["y"], name="gemm")],
                                [vi("x", [2, 3], TensorProto.STRING)], [vi("y", None)], [w]))
save("gathernd_negative_batch_dims", model([helper.make_node("GatherND", ["x", "i"], ["y"], name="g",
                                                             batch_dims=-1000)],
                                           [vi("x", [2, 2]), vi("i", [2, 1], TensorProto.INT64)],
                                           [vi("y", None)]))
save("cast_to_undefined", one("Cast", to=0))
save("constant_without_value", model([helper.make_node("Constant", [], ["y"], name="c")], [],
                                     [vi("y", None)]))
save("scan_without_body", one("Scan", num_scan_inputs=1))
save("scan_too_many_scan_inputs",
     one("Scan", num_scan_inputs=5, body=body_graph(1, 1)))
save("scan_zero_scan_inputs", one("Scan", num_scan_inputs=0, body=body_graph(1, 1)))
save("loop_without_body",
     model([helper.make_node("Loop", ["", ""], [], name="loop")], [], [vi("x", [1])]))
m = model([helper.make_node("If", ["c"], ["y"], name="if", then_branch=body_graph(0, 1))],
          [vi("c", [], TensorProto.BOOL)], [vi("y", None)])
save("if_without_else", m)
m = model([helper.make_node("If", ["c"], ["y"], name="if", then_branch=body_graph(0, 2),
                            else_branch=body_graph(0, 2))],
          [vi("c", [], TensorProto.BOOL)], [vi("y", None)])
save("if_branch_output_count", m)
m = model([helper.make_node("Loop", ["", "c", "x"], ["y"], name="loop", body=body_graph(1, 2))],
          [vi("c", [], TensorProto.BOOL), vi("x", [2])], [vi("y", None)])
save("loop_body_input_count", m)

# --- graphs that break SSA ---------------------------------------------------------------------
save("output_shadows_input", model([helper.make_node("Relu", ["x"], ["x"], name="r")],
                                   [vi("x", [2])], [vi("x", [2])]))
save("output_shadows_initializer",
     model([helper.make_node("Relu", ["x"], ["w"], name="r")], [vi("x", [2])], [vi("w", [2])],
           [numpy_helper.from_array(np.ones(2, np.float32), "w")]))
save("duplicate_node_outputs", model([helper.make_node("Relu", ["x"], ["y"], name="a"),
                                      helper.make_node("Neg", ["x"], ["y"], name="b")],
                                     [vi("x", [2])], [vi("y", [2])]))
save("cycle", model([helper.make_node("Relu", ["b"], ["a"], name="a"),
                     helper.make_node("Neg", ["a"], ["b"], name="b")],
                    [vi("x", [2])], [vi("a", [2])]))
save("undefined_node_input", model([helper.make_node("Relu", ["nowhere"], ["y"], name="r")],
                                   [vi("x", [2])], [vi("y", [2])]))
save("graph_output_never_produced", model([helper.make_node("Relu", ["x"], ["y"], name="r")],
                                          [vi("x", [2])], [vi("z", [2])]))
save("duplicate_graph_inputs", model([helper.make_node("Add", ["x", "x"], ["y"], name="r")],
                                     [vi("x", [2]), vi("x", [2])], [vi("y", [2])]))

# --- tensors that lie about their size ---------------------------------------------------------
def init_model(tensor):
    return model([helper.make_node("Add", ["x", tensor.name], ["y"], name="add")],
                 [vi("x", [2])], [vi("y", None)], [tensor])


t = helper.make_tensor("w", F, [2], [1.0, 2.0])
t.dims[0] = 4
save("initializer_short_float_data", init_model(t))
t = helper.make_tensor("w", F, [2], b"\0" * 8, raw=True)
t.raw_data = b"\0" * 6
save("initializer_short_raw_data", init_model(t))
t = helper.make_tensor("w", F, [2], [1.0, 2.0])
t.dims[0] = -3
save("initializer_negative_dim", init_model(t))
t = helper.make_tensor("w", F, [1], [1.0])
t.ClearField("dims")
t.dims.extend([1 << 40, 1 << 40])
save("initializer_dims_overflow", init_model(t))
t = helper.make_tensor("w", F, [2], [1.0, 2.0])
t.data_type = 999
save("initializer_unknown_dtype", init_model(t))


def external(name, location, offset=0, length=8):
    t = helper.make_tensor("w", F, [2], [1.0, 2.0])
    t.ClearField("float_data")
    t.data_location = TensorProto.EXTERNAL
    for k, v in (("location", location), ("offset", str(offset)), ("length", str(length))):
        e = t.external_data.add()
        e.key, e.value = k, v
    save(name, init_model(t))


with open(os.path.join(out, "weights8.bin"), "wb") as f:
    f.write(struct.pack("<2f", 1.0, 2.0))
external("external_escapes_folder", "../weights8.bin")
external("external_absolute_path", "/etc/passwd")
external("external_missing_file", "no_such_weights.bin")
external("external_beyond_file_end", "weights8.bin", offset=4)
external("external_through_symlink", "link_to_passwd.bin")
external("external_special_file", "special.bin")
external("external_valid", "weights8.bin")
external("external_bad_offset", "weights8.bin", offset=-1)

# --- shapes too large to exist -----------------------------------------------------------------
save("reshape_product_overflows", const_shape_model("Reshape", [1 << 40, 1 << 40, 1 << 40]))
save("reshape_negative_dim", const_shape_model("Reshape", [-2, 1]))
save("reshape_two_minus_one", const_shape_model("Reshape", [-1, -1]))
save("expand_to_huge", const_shape_model("Expand", [1 << 31, 1 << 31, 4], in_shape=(1,)))
save("expand_product_overflows", const_shape_model("Expand", [1 << 40, 1 << 40, 1 << 40], in_shape=(1,)))
save("tile_huge_repeats", const_shape_model("Tile", [1 << 62], in_shape=(2,)))
cos = numpy_helper.from_array(np.array([1 << 40, 1 << 40], np.int64), "s")
save("constant_of_shape_huge", model([helper.make_node("ConstantOfShape", ["s"], ["y"], name="c")],
                                     [], [vi("y", None)], [cos]))
r = [numpy_helper.from_array(np.array(v, np.int64), n) for n, v in (("a", 0), ("b", 1 << 62), ("d", 1))]
save("range_huge", model([helper.make_node("Range", ["a", "b", "d"], ["y"], name="range")],
                         [], [vi("y", None, TensorProto.INT64)], r))
save("input_dim_2_pow_40", model([helper.make_node("Relu", ["x"], ["y"], name="r")],
                                 [vi("x", [1 << 40])], [vi("y", None)]))
save("input_dims_overflow", model([helper.make_node("Relu", ["x"], ["y"], name="r")],
                                  [vi("x", [1 << 40, 1 << 40])], [vi("y", None)]))
save("symbolic_input", model([helper.make_node("Relu", ["x"], ["y"], name="r")],
                             [vi("x", ["N"])], [vi("y", None)]))
save("add_float", model([helper.make_node("Add", ["a", "b"], ["y"], name="add")],
                        [vi("a", [2, 3]), vi("b", [2, 3])], [vi("y", [2, 3])]))
sl = [numpy_helper.from_array(np.array(v, np.int64), n)
      for n, v in (("starts", [0]), ("ends", [2]), ("axes", [0]), ("steps", [0]))]
save("slice_zero_step", model([helper.make_node("Slice", ["x", "starts", "ends", "axes", "steps"],
                                                ["y"], name="slice")],
                              [vi("x", [4])], [vi("y", None)], sl))
idx = numpy_helper.from_array(np.array([7], np.int64), "i")
save("gather_index_out_of_range", model([helper.make_node("Gather", ["x", "i"], ["y"], name="g")],
                                        [vi("x", [4])], [vi("y", None)], [idx]))
save("einsum_bad_equation", model([helper.make_node("Einsum", ["x"], ["y"], name="e",
                                                    equation="ij->k")],
                                  [vi("x", [2, 2])], [vi("y", None)]))

# --- tensor files ------------------------------------------------------------------------------
def npy(name, header_dict, payload):
    header = repr(header_dict).encode()
    header += b" " * ((64 - (10 + len(header) + 1) % 64) % 64) + b"\n"
    with open(os.path.join(out, name + ".npy"), "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header + payload)


npy("dim_2_pow_40", {"descr": "<f4", "fortran_order": False, "shape": (1 << 40,)}, b"\0" * 16)
npy("dims_overflow", {"descr": "<f4", "fortran_order": False, "shape": (1 << 40, 1 << 40)}, b"")
npy("short_data", {"descr": "<f4", "fortran_order": False, "shape": (2, 3)}, b"\0" * 8)
npy("unknown_dtype", {"descr": "<q16", "fortran_order": False, "shape": (2, 3)}, b"\0" * 8)
npy("negative_dim", {"descr": "<f4", "fortran_order": False, "shape": (-1, 3)}, b"")
npy("float_2x3", {"descr": "<f4", "fortran_order": False, "shape": (2, 3)}, b"\0" * 24)
npy("int64_2x3", {"descr": "<i8", "fortran_order": False, "shape": (2, 3)}, b"\0" * 48)
npy("float_3", {"descr": "<f4", "fortran_order": False, "shape": (3,)}, b"\0" * 12)
with open(os.path.join(out, "bad_magic.npy"), "wb") as f:
    f.write(b"NOTNUMPY" + b"\0" * 64)
t = helper.make_tensor("a", F, [0], b"", raw=True)
t.dims[0] = 1 << 40
with open(os.path.join(out, "pb_dim_2_pow_40.pb"), "wb") as f:
    f.write(t.SerializeToString())
with open(os.path.join(out, "pb_garbage.pb"), "wb") as f:
    f.write(b"\xff\xff\xff\xff garbage")
