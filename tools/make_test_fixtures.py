#!/usr/bin/python3
"""Writes the small models the CLI and loader tests use into test/data/models.

Usage: make_test_fixtures.py OUT_DIR
"""
import os
import sys

import numpy as np
import onnx
from onnx import AttributeProto, TensorProto, helper, numpy_helper


def save(model, directory, name):
    onnx.save(model, os.path.join(directory, name))


def add_model(opset=14, op_type="Add", domain=""):
    nodes = [helper.make_node(op_type, ["a", "b"], ["c"], name="the_node", domain=domain)]
    graph = helper.make_graph(
        nodes, "add",
        [helper.make_tensor_value_info("a", TensorProto.FLOAT, [2, 3]),
         helper.make_tensor_value_info("b", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("c", TensorProto.FLOAT, [2, 3])])
    imports = [helper.make_opsetid("", opset)]
    if domain:
        imports.append(helper.make_opsetid(domain, 1))
    return helper.make_model(graph, opset_imports=imports, producer_name="ort-tests")


def external_data_models(directory):
    """A model whose initializer lives in weights.bin, plus two whose locations escape."""
    weights = np.arange(6, dtype=np.float32).reshape(2, 3)
    with open(os.path.join(directory, "weights.bin"), "wb") as stream:
        stream.write(b"\0" * 64)
        stream.write(weights.tobytes())
    for name, location in [("external_data.onnx", "weights.bin"),
                           ("external_escape.onnx", "../models/weights.bin"),
                           ("external_absolute.onnx", "/etc/passwd")]:
        tensor = TensorProto(name="w", data_type=TensorProto.FLOAT, dims=[2, 3])
        tensor.data_location = TensorProto.EXTERNAL
        for key, value in [("location", location), ("offset", "64"), ("length", "24")]:
            entry = tensor.external_data.add()
            entry.key, entry.value = key, value
        graph = helper.make_graph(
            [helper.make_node("Add", ["a", "w"], ["c"], name="add_weights")], "external",
            [helper.make_tensor_value_info("a", TensorProto.FLOAT, [2, 3])],
            [helper.make_tensor_value_info("c", TensorProto.FLOAT, [2, 3])], [tensor])
        save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)]), directory, name)


def local_function_model():
    """Calls model-local functions: nested (Twice calls ScaledAdd), directly, and in an If branch.

    With a=[1,2,3], b=[10,20,30]: twice = [34,68,102], scaled = [18,36,54], branch = [13,26,39].
    """
    alpha = helper.make_attribute_ref("value_float", "alpha", AttributeProto.FLOAT) \
        if hasattr(helper, "make_attribute_ref") else None
    if alpha is None:
        alpha = AttributeProto(name="value_float", ref_attr_name="alpha", type=AttributeProto.FLOAT)
    constant = helper.make_node("Constant", [], ["k"])
    constant.attribute.append(alpha)
    scaled_add = helper.make_function(
        "custom.fn", "ScaledAdd", ["X", "Y"], ["Z"],
        [constant, helper.make_node("Mul", ["X", "k"], ["m"]), helper.make_node("Add", ["m", "Y"], ["Z"])],
        [helper.make_opsetid("", 14)], ["alpha"])
    inner = [helper.make_node("ScaledAdd", ["X", "Y"], ["t"], domain="custom.fn"),
             helper.make_node("ScaledAdd", ["t", "Y"], ["Z"], domain="custom.fn")]
    for call in inner:
        ref = AttributeProto(name="alpha", ref_attr_name="alpha", type=AttributeProto.FLOAT)
        call.attribute.append(ref)
    twice = helper.make_function("custom.fn", "Twice", ["X", "Y"], ["Z"], inner,
                                 [helper.make_opsetid("", 14), helper.make_opsetid("custom.fn", 1)],
                                 ["alpha"])
    vector = [3]
    branch = helper.make_graph(
        [helper.make_node("ScaledAdd", ["a", "b"], ["r"], domain="custom.fn", alpha=3.0)], "then",
        [], [helper.make_tensor_value_info("r", TensorProto.FLOAT, vector)])
    otherwise = helper.make_graph(
        [helper.make_node("Identity", ["a"], ["r2"])], "else",
        [], [helper.make_tensor_value_info("r2", TensorProto.FLOAT, vector)])
    nodes = [
        helper.make_node("Twice", ["a", "b"], ["twice"], name="twice_call", domain="custom.fn", alpha=2.0),
        helper.make_node("ScaledAdd", ["twice", "a"], ["scaled"], domain="custom.fn", alpha=0.5),
        helper.make_node("Constant", [], ["cond"], value=numpy_helper.from_array(np.array(True))),
        helper.make_node("If", ["cond"], ["branch"], then_branch=branch, else_branch=otherwise),
    ]
    graph = helper.make_graph(
        nodes, "local_functions",
        [helper.make_tensor_value_info(name, TensorProto.FLOAT, vector) for name in ["a", "b"]],
        [helper.make_tensor_value_info(name, TensorProto.FLOAT, vector)
         for name in ["twice", "scaled", "branch"]])
    return helper.make_model(graph, functions=[scaled_add, twice], producer_name="ort-tests",
                             opset_imports=[helper.make_opsetid("", 14), helper.make_opsetid("custom.fn", 1)])


def unnamed_nodes_model():
    """Unnamed and duplicate-named nodes, which the engine names "<name or op type>_<position>":
    Relu_0, twin, twin_2, Relu_3 and, since Relu_0 is taken by then, Relu_0_4."""
    nodes = [helper.make_node("Relu", ["x"], ["r"]),
             helper.make_node("Neg", ["r"], ["n"], name="twin"),
             helper.make_node("Abs", ["n"], ["a"], name="twin"),
             helper.make_node("Relu", ["a"], ["r2"]),
             helper.make_node("Sigmoid", ["r2"], ["y"], name="Relu_0")]
    graph = helper.make_graph(
        nodes, "unnamed_nodes", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)],
                             producer_name="ort-tests")


def main():
    directory = sys.argv[1]
    os.makedirs(directory, exist_ok=True)
    save(add_model(), directory, "add.onnx")
    save(add_model(op_type="NoSuchOp"), directory, "unknown_op.onnx")
    save(add_model(op_type="NoSuchOp", domain="com.example"), directory, "unknown_domain_op.onnx")
    save(add_model(opset=99), directory, "opset_99.onnx")
    external_data_models(directory)
    save(local_function_model(), directory, "local_functions.onnx")
    save(unnamed_nodes_model(), directory, "unnamed_nodes.onnx")
    np.save(os.path.join(directory, "a_2x3.npy"), np.arange(6, dtype=np.float32).reshape(2, 3))
    np.save(os.path.join(directory, "a_int_2x3.npy"), np.arange(6, dtype=np.int32).reshape(2, 3))
    np.save(os.path.join(directory, "a_3.npy"), np.arange(3, dtype=np.float32))
    for name in ["a", "b"]:
        with open(os.path.join(directory, name + "_2x3.pb"), "wb") as stream:
            stream.write(numpy_helper.from_array(np.ones((2, 3), np.float32), name).SerializeToString())
    # A .npy whose header promises 2x3 floats but holds only five.
    with open(os.path.join(directory, "a_2x3.npy"), "rb") as stream:
        complete = stream.read()
    with open(os.path.join(directory, "a_short_data.npy"), "wb") as stream:
        stream.write(complete[:-4])


if __name__ == "__main__":
    main()
