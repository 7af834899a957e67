#include <onnx/onnx_pb.h>
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "lib/onnx/model_loader.h"
#include "test/optimizer/optimizer_test_util.h"

namespace ort {
namespace {

// Models are built as protos: the IR cannot hold most of these defects (an untyped or repeated
// attribute, an empty op type), and the loader must refuse them before onnx's inference sees them.
onnx::ValueInfoProto TensorValue(const std::string& name, onnx::TensorProto::DataType elem_type,
                                 std::vector<int64_t> dims) {
  onnx::ValueInfoProto value;
  value.set_name(name);
  auto* tensor = value.mutable_type()->mutable_tensor_type();
  tensor->set_elem_type(elem_type);
  for (int64_t dim : dims) tensor->mutable_shape()->add_dim()->set_dim_value(dim);
  return value;
}

onnx::ValueInfoProto FloatValue(const std::string& name, std::vector<int64_t> dims) {
  return TensorValue(name, onnx::TensorProto::FLOAT, std::move(dims));
}

onnx::ValueInfoProto UntypedValue(const std::string& name) {
  onnx::ValueInfoProto value;
  value.set_name(name);
  return value;
}

onnx::NodeProto MakeNode(const std::string& op_type, std::vector<std::string> inputs,
                         std::vector<std::string> outputs, const std::string& name) {
  onnx::NodeProto node;
  node.set_op_type(op_type);
  node.set_name(name);
  for (const auto& input : inputs) node.add_input(input);
  for (const auto& output : outputs) node.add_output(output);
  return node;
}

void AddInts(onnx::NodeProto& node, const std::string& name, std::vector<int64_t> values) {
  auto* attribute = node.add_attribute();
  attribute->set_name(name);
  attribute->set_type(onnx::AttributeProto::INTS);
  for (int64_t value : values) attribute->add_ints(value);
}

void AddInt(onnx::NodeProto& node, const std::string& name, int64_t value) {
  auto* attribute = node.add_attribute();
  attribute->set_name(name);
  attribute->set_type(onnx::AttributeProto::INT);
  attribute->set_i(value);
}

void AddGraph(onnx::NodeProto& node, const std::string& name, onnx::GraphProto graph) {
  auto* attribute = node.add_attribute();
  attribute->set_name(name);
  attribute->set_type(onnx::AttributeProto::GRAPH);
  *attribute->mutable_g() = std::move(graph);
}

// A body graph passing `inputs` untyped values through Identity nodes to `outputs` outputs.
onnx::GraphProto Body(int inputs, int outputs) {
  onnx::GraphProto graph;
  graph.set_name("body");
  for (int i = 0; i < inputs; ++i) *graph.add_input() = UntypedValue("in" + std::to_string(i));
  for (int i = 0; i < outputs; ++i) {
    const std::string name = "out" + std::to_string(i);
    *graph.add_node() = MakeNode("Identity", {"x"}, {name}, "id" + std::to_string(i));
    *graph.add_output() = UntypedValue(name);
  }
  return graph;
}

struct TestModel {
  onnx::ModelProto proto;
  onnx::GraphProto& graph;

  // Input x: float[1, 2, 4, 4]; initializer w: float[3, 2, 2, 2] (a Conv weight).
  explicit TestModel(int64_t opset = 17) : graph(*proto.mutable_graph()) {
    proto.set_ir_version(8);
    auto* import = proto.add_opset_import();
    import->set_version(opset);
    graph.set_name("g");
    *graph.add_input() = FloatValue("x", {1, 2, 4, 4});
    auto* weight = graph.add_initializer();
    weight->set_name("w");
    weight->set_data_type(onnx::TensorProto::FLOAT);
    for (int64_t dim : {3, 2, 2, 2}) weight->add_dims(dim);
    for (int i = 0; i < 24; ++i) weight->add_float_data(1.0f);
  }

  onnx::NodeProto& Add(onnx::NodeProto node) {
    for (const auto& output : node.output()) *graph.add_output() = UntypedValue(output);
    *graph.add_node() = std::move(node);
    return *graph.mutable_node(graph.node_size() - 1);
  }

  // The load error's message; "" when the model loads.
  std::string Error() const {
    const std::string bytes = proto.SerializeAsString();
    auto model = LoadModelFromBytes(bytes.data(), bytes.size(), ".");
    if (model.ok()) return "";
    CHECK(model.status().code() == StatusCode::kInvalidModel);
    return model.status().message();
  }
};

void AddInitializer(onnx::GraphProto& graph, const std::string& name, std::vector<int64_t> dims,
                    std::vector<float> values) {
  auto* tensor = graph.add_initializer();
  tensor->set_name(name);
  tensor->set_data_type(onnx::TensorProto::FLOAT);
  for (int64_t dim : dims) tensor->add_dims(dim);
  for (float value : values) tensor->add_float_data(value);
}

void AddInt64s(onnx::GraphProto& graph, const std::string& name, std::vector<int64_t> values) {
  auto* tensor = graph.add_initializer();
  tensor->set_name(name);
  tensor->set_data_type(onnx::TensorProto::INT64);
  tensor->add_dims(static_cast<int64_t>(values.size()));
  for (int64_t value : values) tensor->add_int64_data(value);
}

const std::string kLabel = "model (in memory): ";

std::string ConvError(const std::function<void(onnx::NodeProto&)>& edit) {
  TestModel model;
  onnx::NodeProto conv = MakeNode("Conv", {"x", "w"}, {"y"}, "conv1");
  edit(conv);
  model.Add(conv);
  return model.Error();
}

}  // namespace

TEST_CASE("Conv and pool geometry is checked before inference divides by it",
          "[onnx][validation]") {
  CHECK(ConvError([](auto& conv) {
          AddInts(conv, "strides", {0, 0});
        }) == kLabel + "node 'conv1' (Conv): attribute 'strides' must be positive, got 0");
  CHECK(ConvError([](auto& conv) {
          AddInts(conv, "dilations", {1, -1});
        }) == kLabel + "node 'conv1' (Conv): attribute 'dilations' must be positive, got -1");
  CHECK(ConvError([](auto& conv) {
          AddInts(conv, "pads", {0, 0, -1, 0});
        }) == kLabel + "node 'conv1' (Conv): attribute 'pads' must not be negative, got -1");
  CHECK(ConvError([](auto& conv) { AddInt(conv, "group", 0); }) ==
        kLabel + "node 'conv1' (Conv): attribute 'group' must be at least 1, got 0");
  CHECK(ConvError([](auto& conv) {
          AddInts(conv, "strides", {1, 1, 1});
        }) ==
        kLabel + "node 'conv1' (Conv): attribute 'strides' has 3 values; 2 spatial axes need 2");
  CHECK(ConvError([](auto& conv) {
          AddInts(conv, "pads", {1, 1});
        }) ==
        kLabel +
            "node 'conv1' (Conv): attribute 'pads' has 2 values; 2 spatial axes need 4 (a begin "
            "and an end each)");
  CHECK(ConvError([](auto& conv) { AddInts(conv, "kernel_shape", {2}); }) ==
        kLabel +
            "node 'conv1' (Conv): attribute 'kernel_shape' has 1 values but input 'x' has 2 "
            "spatial axes");
  CHECK(ConvError([](auto& conv) { AddInts(conv, "strides", {2, 2}); }).empty());

  TestModel transposed;
  auto* weight = transposed.graph.mutable_initializer(0);
  weight->clear_dims();
  weight->add_dims(24);
  transposed.Add(MakeNode("ConvTranspose", {"x", "w"}, {"y"}, "deconv"));
  CHECK(transposed.Error() ==
        kLabel +
            "node 'deconv' (ConvTranspose): weight 'w' has rank 1; it needs an output- and an "
            "input-channel axis");

  TestModel pool;
  auto& max_pool = pool.Add(MakeNode("MaxPool", {"x"}, {"y"}, "pool"));
  AddInts(max_pool, "kernel_shape", {2, 0});
  CHECK(pool.Error() ==
        kLabel + "node 'pool' (MaxPool): attribute 'kernel_shape' must be positive, got 0");
}

TEST_CASE("Attributes must have their schema's type and be there when required",
          "[onnx][validation]") {
  CHECK(ConvError([](auto& conv) { AddInt(conv, "strides", 1); }) ==
        kLabel + "node 'conv1' (Conv): attribute 'strides' must be INTS, got INT");
  CHECK(ConvError([](auto& conv) {
          AddInt(conv, "group", 1);
          AddInt(conv, "group", 1);
        }) == kLabel + "node 'conv1' (Conv): attribute 'group' is given twice");
  CHECK(ConvError([](auto& conv) { conv.add_attribute()->set_name("group"); }) ==
        kLabel + "node 'conv1' (Conv): attribute 'group' has no type");
  // An attribute the schema lacks is most often a misspelt one, whose default would apply.
  CHECK(ConvError([](auto& conv) { AddInt(conv, "stride", 3); }) ==
        kLabel +
            "node 'conv1' (Conv): attribute 'stride' is not one Conv (opset 11) has; it has: "
            "auto_pad, dilations, group, kernel_shape, pads, strides");

  TestModel pool;
  pool.Add(MakeNode("MaxPool", {"x"}, {"y"}, "pool"));
  CHECK(pool.Error() ==
        kLabel + "node 'pool' (MaxPool): required attribute 'kernel_shape' is missing");
}

TEST_CASE("Transpose perm and axis attributes fit the declared rank", "[onnx][validation]") {
  const auto error = [](const std::string& op, const std::string& attribute,
                        std::vector<int64_t> values, int64_t opset = 17) {
    TestModel model(opset);
    auto& node = model.Add(MakeNode(op, {"x"}, {"y"}, "n"));
    if (values.size() == 1 && attribute == "axis") {
      AddInt(node, attribute, values[0]);
    } else {
      AddInts(node, attribute, values);
    }
    return model.Error();
  };
  CHECK(error("Transpose", "perm", {0, 0, 1, 2}) ==
        kLabel +
            "node 'n' (Transpose): attribute 'perm' [0, 0, 1, 2] is not a permutation of 0..3");
  CHECK(error("Transpose", "perm", {1, 0}) ==
        kLabel + "node 'n' (Transpose): attribute 'perm' has 2 values but input 'x' has rank 4");
  CHECK(error("Transpose", "perm", {0, 2, 3, 1}).empty());
  CHECK(error("Softmax", "axis", {4}) ==
        kLabel +
            "node 'n' (Softmax): attribute 'axis' holds axis 4, outside [-4, 3] for input 'x' of "
            "rank 4");
  CHECK(error("Softmax", "axis", {-4}).empty());
  // Flatten's axis may equal the rank; Unsqueeze's axes index its (larger) output.
  CHECK(error("Flatten", "axis", {4}).empty());
  CHECK(error("Unsqueeze", "axes", {4, -6}, 11).empty());
  CHECK(error("Unsqueeze", "axes", {5}, 11) ==
        kLabel +
            "node 'n' (Unsqueeze): attribute 'axes' holds axis 5, outside [-5, 4] for input 'x' of "
            "rank 4");
  CHECK(error("ReduceSum", "axes", {1, -3}, 11) ==
        kLabel + "node 'n' (ReduceSum): attribute 'axes' [1, -3] names an axis twice");
}

TEST_CASE("Control-flow bodies must fit their node", "[onnx][validation]") {
  const auto scan = [](int64_t num_scan_inputs, onnx::GraphProto body, bool with_body = true) {
    TestModel model;
    auto& node = model.Add(MakeNode("Scan", {"x"}, {"y"}, "scan"));
    AddInt(node, "num_scan_inputs", num_scan_inputs);
    if (with_body) AddGraph(node, "body", std::move(body));
    return model.Error();
  };
  CHECK(scan(1, Body(1, 1), false) ==
        kLabel + "node 'scan' (Scan): required attribute 'body' is missing");
  CHECK(scan(1, Body(1, 1)).empty());
  CHECK(scan(0, Body(1, 1)) ==
        kLabel +
            "node 'scan' (Scan): attribute 'num_scan_inputs' is 0, but the node has 1 state and "
            "scan inputs");
  CHECK(scan(2, Body(1, 1)).find("'num_scan_inputs' is 2") != std::string::npos);
  CHECK(scan(1, Body(2, 1)) ==
        kLabel +
            "node 'scan' (Scan): attribute 'body' takes 2 inputs, but this Scan passes it 1 (0 "
            "state values, 1 scan slices)");
  CHECK(scan(1, Body(1, 2)) ==
        kLabel + "node 'scan' (Scan): attribute 'body' returns 2 outputs but the node has 1");

  TestModel scan_axes;
  auto& axes_node = scan_axes.Add(MakeNode("Scan", {"x"}, {"y"}, "scan"));
  AddInt(axes_node, "num_scan_inputs", 1);
  AddGraph(axes_node, "body", Body(1, 1));
  AddInts(axes_node, "scan_input_axes", {0, 1});
  CHECK(scan_axes.Error() ==
        kLabel + "node 'scan' (Scan): attribute 'scan_input_axes' has 2 values for 1 scan inputs");

  const auto loop = [](onnx::GraphProto body) {
    TestModel model;
    *model.graph.add_input() = TensorValue("n", onnx::TensorProto::INT64, {});
    auto& node = model.Add(MakeNode("Loop", {"n", "", "x"}, {"y"}, "loop"));
    AddGraph(node, "body", std::move(body));
    return model.Error();
  };
  CHECK(loop(Body(3, 2)).empty());
  CHECK(loop(Body(2, 2)) ==
        kLabel +
            "node 'loop' (Loop): attribute 'body' takes 2 inputs, but a Loop carrying 1 values "
            "needs 3 (iteration number, condition, then the carried values)");
  CHECK(loop(Body(3, 3)).find("returns 3 outputs, but this Loop needs 2") != std::string::npos);

  TestModel branches;
  *branches.graph.add_input() = FloatValue("c", {});
  auto& node = branches.Add(MakeNode("If", {"c"}, {"y"}, "if"));
  AddGraph(node, "then_branch", Body(0, 1));
  AddGraph(node, "else_branch", Body(0, 2));
  CHECK(branches.Error() ==
        kLabel + "node 'if' (If): attribute 'else_branch' returns 2 outputs but the node has 1");
}

TEST_CASE("Nodes inside bodies are validated too", "[onnx][validation]") {
  TestModel model;
  *model.graph.add_input() = FloatValue("c", {});
  onnx::GraphProto branch;
  branch.set_name("then");
  auto* conv = branch.add_node();
  *conv = MakeNode("Conv", {"x", "w"}, {"b"}, "inner");
  AddInts(*conv, "strides", {1, 0});
  *branch.add_output() = UntypedValue("b");
  auto& node = model.Add(MakeNode("If", {"c"}, {"y"}, "if"));
  AddGraph(node, "then_branch", std::move(branch));
  AddGraph(node, "else_branch", Body(0, 1));
  CHECK(model.Error() ==
        kLabel + "node 'inner' (Conv): attribute 'strides' must be positive, got 0");
}

TEST_CASE("Node outputs neither repeat nor shadow graph inputs and initializers",
          "[onnx][validation]") {
  TestModel shadow_input;
  shadow_input.Add(MakeNode("Relu", {"x"}, {"x"}, "relu"));
  CHECK(shadow_input.Error() ==
        kLabel +
            "node 'relu' (Relu): output 'x' has the name of a graph input of graph 'g'; a node may "
            "not redefine it");

  TestModel shadow_initializer;
  shadow_initializer.Add(MakeNode("Relu", {"x"}, {"w"}, "relu"));
  CHECK(shadow_initializer.Error().find("output 'w' has the name of an initializer") !=
        std::string::npos);

  TestModel twice;
  twice.Add(MakeNode("Relu", {"x"}, {"y"}, "a"));
  twice.graph.add_node()->CopyFrom(MakeNode("Relu", {"x"}, {"y"}, "b"));
  CHECK(twice.Error() ==
        kLabel + "node 'b' (Relu): output 'y' is also produced by node 'a' (Relu)");

  TestModel same_node;
  same_node.Add(MakeNode("Split", {"x"}, {"y", "y"}, "split"));
  CHECK(same_node.Error() ==
        kLabel + "node 'split' (Split): output 'y' is also produced by this node");

  TestModel no_op;
  no_op.Add(MakeNode("", {"x"}, {"y"}, ""));
  CHECK(no_op.Error() == kLabel + "node 0 of graph 'g' has no op_type");
  TestModel named_no_op;
  named_no_op.Add(MakeNode("", {"x"}, {"y"}, "mystery"));
  CHECK(named_no_op.Error() == kLabel + "node 0 of graph 'g' ('mystery') has no op_type");
}

TEST_CASE("Opsets newer than onnx knows keep the checks older schemas still support",
          "[onnx][validation]") {
  // onnx 1.12 knows ai.onnx up to opset 17: its Relu still requires X at opset 21, but its Pad-13
  // predates Pad-18's fourth input (axes), which must load.
  TestModel relu(21);
  relu.Add(MakeNode("Relu", {}, {"y"}, "relu"));
  CHECK(relu.Error() == kLabel + "node 'relu' (Relu): required input 0 ('X') is missing");
  TestModel pad(21);
  AddInt64s(pad.graph, "pads", {1, 1, 1, 1});
  AddInt64s(pad.graph, "axes", {2, 3});
  pad.Add(MakeNode("Pad", {"x", "pads", "", "axes"}, {"y"}, "pad"));
  CHECK(pad.Error().empty());
}

TEST_CASE("Ranks only inference learns do not crash onnx's conv inference", "[onnx][validation]") {
  // The Conv's input is a Reshape's output: validation cannot see its rank (3) differ from the
  // weight's (4), and onnx 1.12 indexed past it. Inference stops for the node; the loader goes on
  // (the kernels refuse the node when a session places it).
  for (const char* op : {"Conv", "ConvTranspose"}) {
    TestModel model;
    AddInt64s(model.graph, "shape", {1, 2, 16});
    model.graph.add_node()->CopyFrom(MakeNode("Reshape", {"x", "shape"}, {"r"}, "reshape"));
    model.Add(MakeNode(op, {"r", "w"}, {"y"}, "conv"));
    CHECK(model.Error().empty());
  }
  TestModel flat_weight;
  AddInt64s(flat_weight.graph, "flat", {24});
  flat_weight.graph.add_node()->CopyFrom(MakeNode("Reshape", {"w", "flat"}, {"wr"}, "reshape"));
  flat_weight.Add(MakeNode("ConvTranspose", {"x", "wr"}, {"y"}, "deconv"));
  CHECK(flat_weight.Error().empty());
}

TEST_CASE("Legal but unusual nodes go through optimization at level all", "[onnx][validation]") {
  // Older opsets where an input was an attribute, and optional inputs and outputs left out, after a
  // Conv with 8 channels so that the NCHWc layout and the fusions look at them.
  const auto optimize = [](int64_t opset, std::vector<onnx::NodeProto> nodes,
                           const std::function<void(onnx::GraphProto&)>& constants = {}) {
    TestModel model(opset);
    *model.graph.mutable_input(0) = FloatValue("x", {1, 8, 8, 8});
    model.graph.mutable_initializer()->Clear();
    AddInitializer(model.graph, "w", {8, 8, 3, 3}, std::vector<float>(8 * 8 * 9, 0.01f));
    onnx::NodeProto conv = MakeNode("Conv", {"x", "w"}, {"c"}, "conv");
    AddInts(conv, "pads", {1, 1, 1, 1});
    *model.graph.add_node() = conv;
    if (constants) constants(model.graph);
    for (auto& node : nodes) model.Add(std::move(node));
    const std::string bytes = model.proto.SerializeAsString();
    auto loaded = LoadModelFromBytes(bytes.data(), bytes.size(), ".");
    INFO(loaded.status().ToString());
    REQUIRE(loaded.ok());
    test::MakeCpuSession(std::move(*loaded));
  };
  const auto scales = [](onnx::GraphProto& graph) {
    AddInitializer(graph, "scales", {4}, {1, 1, 2, 2});
  };
  SECTION("Resize-10 reads its scales from input 1") {
    optimize(10, {MakeNode("Resize", {"c", "scales"}, {"y"}, "resize")}, scales);
  }
  SECTION("Upsample-7 holds its scales in an attribute") {
    onnx::NodeProto upsample = MakeNode("Upsample", {"c"}, {"y"}, "upsample");
    auto* attribute = upsample.add_attribute();
    attribute->set_name("scales");
    attribute->set_type(onnx::AttributeProto::FLOATS);
    for (float value : {1.0f, 1.0f, 2.0f, 2.0f}) attribute->add_floats(value);
    optimize(7, {upsample});
  }
  SECTION("Resize-13 with sizes only") {
    optimize(13, {MakeNode("Resize", {"c", "", "", "sizes"}, {"y"}, "resize")},
             [](onnx::GraphProto& graph) {
               AddInt64s(graph, "sizes", {1, 8, 16, 16});
             });
  }
  SECTION("Split-13 without split, Clip-11 with only a maximum, Dropout with its mask") {
    optimize(13,
             {MakeNode("Split", {"c", ""}, {"s0", "s1"}, "split"),
              MakeNode("Clip", {"s0", "", "six"}, {"y"}, "clip"),
              MakeNode("Dropout", {"s1"}, {"z", "mask"}, "dropout")},
             [](onnx::GraphProto& graph) { AddInitializer(graph, "six", {}, {6}); });
  }
  SECTION("Clip-6, ReduceMean-1 and Squeeze-1 hold their bounds and axes in attributes") {
    onnx::NodeProto clip = MakeNode("Clip", {"c"}, {"clipped"}, "clip");
    auto* min = clip.add_attribute();
    min->set_name("min");
    min->set_type(onnx::AttributeProto::FLOAT);
    min->set_f(0);
    onnx::NodeProto reduce = MakeNode("ReduceMean", {"clipped"}, {"r"}, "reduce");
    AddInts(reduce, "axes", {2, 3});
    onnx::NodeProto squeeze = MakeNode("Squeeze", {"r"}, {"y"}, "squeeze");
    AddInts(squeeze, "axes", {2, 3});
    optimize(10, {clip, reduce, squeeze});
  }
  SECTION("Squeeze-11 holds its axes in an attribute") {
    onnx::NodeProto reduce = MakeNode("ReduceMean", {"c"}, {"r"}, "reduce");
    AddInts(reduce, "axes", {2, 3});
    onnx::NodeProto squeeze = MakeNode("Squeeze", {"r"}, {"y"}, "squeeze");
    AddInts(squeeze, "axes", {2, 3});
    optimize(11, {reduce, squeeze});
  }
}

TEST_CASE("Inputs sharing a type variable must have one type", "[onnx][validation]") {
  TestModel concat;
  *concat.graph.add_input() = TensorValue("i", onnx::TensorProto::INT32, {1, 2, 4, 4});
  AddInt(concat.Add(MakeNode("Concat", {"x", "i"}, {"y"}, "cat")), "axis", 0);
  CHECK(concat.Error() == kLabel +
                              "node 'cat' (Concat): input 1 'i' has type tensor(int32) but input "
                              "0 'x' has type tensor(float); Concat needs both to be the same "
                              "type 'T'");

  // The third input of a variadic Sum, and a mismatch known only after inference typed the Cast.
  TestModel sum;
  sum.Add(MakeNode("Cast", {"x"}, {"d"}, "cast")).add_attribute()->CopyFrom([] {
    onnx::AttributeProto to;
    to.set_name("to");
    to.set_type(onnx::AttributeProto::INT);
    to.set_i(onnx::TensorProto::DOUBLE);
    return to;
  }());
  sum.Add(MakeNode("Sum", {"x", "x", "d"}, {"s"}, "sum"));
  CHECK(sum.Error().find("node 'sum' (Sum): input 2 'd' has type tensor(double) but input 0 'x' "
                         "has type tensor(float)") != std::string::npos);

  TestModel relu;
  *relu.graph.add_input() = TensorValue("b", onnx::TensorProto::BOOL, {2});
  relu.Add(MakeNode("Relu", {"b"}, {"r"}, "relu"));
  CHECK(relu.Error() == kLabel +
                            "node 'relu' (Relu): input 0 'b' has type tensor(bool), which Relu "
                            "(opset 14) does not accept for 'X'");
}

TEST_CASE("Loop's carried values may each have their own type", "[onnx][validation]") {
  TestModel model;
  *model.graph.add_input() = TensorValue("n", onnx::TensorProto::INT64, {});
  *model.graph.add_input() = TensorValue("i", onnx::TensorProto::INT32, {2});
  auto& node = model.Add(MakeNode("Loop", {"n", "", "x", "i"}, {"y", "z"}, "loop"));
  onnx::GraphProto body;
  body.set_name("body");
  for (const char* name : {"iter", "cond", "a", "b"}) *body.add_input() = UntypedValue(name);
  *body.add_node() = MakeNode("Identity", {"cond"}, {"cond_out"}, "keep");
  *body.add_node() = MakeNode("Identity", {"a"}, {"a_out"}, "pass_a");
  *body.add_node() = MakeNode("Identity", {"b"}, {"b_out"}, "pass_b");
  for (const char* name : {"cond_out", "a_out", "b_out"}) *body.add_output() = UntypedValue(name);
  AddGraph(node, "body", std::move(body));
  CHECK(model.Error().empty());
}

}  // namespace ort

namespace ort {

// onnx's inference copies raw_data whole into a buffer of the whole elements it holds.
TEST_CASE("Graph inputs and initializers have unique names", "[onnx][validation]") {
  TestModel inputs;
  *inputs.graph.add_input() = FloatValue("x", {1, 2, 4, 4});
  inputs.Add(MakeNode("Relu", {"x"}, {"y"}, "relu"));
  CHECK(inputs.Error() == kLabel + "graph 'g' lists input 'x' twice");

  TestModel initializers;
  *initializers.graph.add_initializer() = initializers.graph.initializer(0);
  initializers.Add(MakeNode("Relu", {"x"}, {"y"}, "relu"));
  CHECK(initializers.Error() == kLabel + "graph 'g' has two initializers named 'w'");
}

TEST_CASE("Inline tensors hold exactly the bytes their dims need", "[onnx][validation]") {
  TestModel initializer;
  initializer.graph.mutable_initializer(0)->set_raw_data(std::string(17, '\0'));
  initializer.Add(MakeNode("Relu", {"x"}, {"y"}, "relu"));
  CHECK(initializer.Error() ==
        kLabel + "graph 'g': tensor 'w' (float[3,2,2,2]) has 17 bytes of data, expected 96");

  TestModel constant;
  auto& node = constant.Add(MakeNode("Constant", {}, {"c"}, "axes"));
  auto* value = node.add_attribute();
  value->set_name("value");
  value->set_type(onnx::AttributeProto::TENSOR);
  value->mutable_t()->set_data_type(onnx::TensorProto::INT64);
  value->mutable_t()->set_raw_data(std::string(17, '\0'));
  CHECK(constant.Error() == kLabel +
                                "node 'axes' (Constant): attribute 'value': tensor '' (int64[]) "
                                "has 17 bytes of data, expected 8");
}

}  // namespace ort
