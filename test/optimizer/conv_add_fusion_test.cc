// The all level's Conv + Add (+ activation) fusion into FusedConv with Z: the nodes and attributes
// left, the cases that must stay unfused, and outputs equal to the unfused model's (Z in place
// over an intermediate, and Z the very value X is).
#include "test/optimizer/optimizer_test_util.h"

namespace ort::test {
namespace {

struct ConvAddOptions {
  std::string activation{};  // the sum's only reader; none when empty
  bool bias = true;
  bool z_first = false;                     // Add(z, c) rather than Add(c, z)
  std::vector<int64_t> z_dims{1, 2, 3, 3};  // the conv output's shape unless broadcasting
  bool fused_conv = false;                  // the conv is a FusedConv without activation
  bool z_is_x = false;                      // the Add sums the conv's own input
  bool pointwise = false;        // a 1x1 kernel, whose GEMM reads X itself after Y is first written
  bool conv_read_twice = false;  // Neg(c) is a second graph output
  bool conv_is_output = false;
  bool sum_read_twice = false;  // Neg(s) is a second graph output
  DataType type = DataType::kFloat;
  std::string batch{};    // names the batch dimension when not empty
  std::string z_batch{};  // names Z's batch dimension when not empty
};

ValueType TensorOf(DataType type, const std::vector<int64_t>& dims, const std::string& batch) {
  SymbolicShape shape;
  for (int64_t dim : dims) shape.push_back(Dimension::Known(dim));
  if (!batch.empty()) shape[0] = Dimension::Symbol(batch);
  return ValueType::Tensor(type, shape);
}

// y = Neg(act(Add(Conv(Sigmoid(in), W [2,2,3,3], B, pads 1), Tanh(zin)))) on in [1,2,3,3]: X, Z and
// the fused output are intermediates, so the output may take the buffer of Z dying there.
Model ConvAddModel(const ConvAddOptions& options) {
  Model model = MakeModel(14);
  Graph& graph = model.graph();
  const std::vector<int64_t> dims{1, 2, 3, 3};
  const DataType type = options.type;
  for (const char* name : {"in", "x", "c", "s", "r", "y", "n", "m"}) {
    graph.SetValueType(name, TensorOf(type, dims, options.batch));
  }
  graph.SetValueType("zin", TensorOf(type, options.z_dims, options.z_batch));
  graph.SetValueType("z", TensorOf(type, options.z_dims, options.z_batch));
  if (type == DataType::kFloat) {
    const int64_t kernel = options.pointwise ? 1 : 3;
    graph.AddInitializer("W", RandomTensor({2, 2, kernel, kernel}, 1, -0.5f, 0.5f));
    graph.AddInitializer("B", RandomTensor({2}, 2));
  } else {
    graph.AddInitializer("W", Tensor::FromVector<double>({2, 2, 1, 1}, {0.5, 2, -1, 1}));
    graph.AddInitializer("B", Tensor::FromVector<double>({2}, {1, -1}));
  }
  graph.AddNode({"sigmoid", "Sigmoid", "", {"in"}, {"x"}, {}});
  std::vector<std::string> inputs{"in"}, outputs{"y"};
  std::string z = "x";
  if (!options.z_is_x) {
    inputs.push_back("zin");
    graph.AddNode({"tanh", "Tanh", "", {"zin"}, {"z"}, {}});
    z = "z";
  }
  std::vector<std::string> conv_inputs{"x", "W"};
  if (options.bias) conv_inputs.push_back("B");
  std::string domain;
  if (options.fused_conv) {
    domain = kMsDomain;
    model.opsets()[domain] = 1;
  }
  Node& conv = graph.AddNode(
      {"conv", options.fused_conv ? "FusedConv" : "Conv", domain, conv_inputs, {"c"}, {}});
  if (type == DataType::kFloat && !options.pointwise) {
    conv.SetAttribute(Attribute::Ints("pads", {1, 1, 1, 1}));
  }
  const std::string sum = options.activation.empty() ? "r" : "s";
  graph.AddNode(
      {"add",
       "Add",
       "",
       options.z_first ? std::vector<std::string>{z, "c"} : std::vector<std::string>{"c", z},
       {sum},
       {}});
  if (!options.activation.empty()) {
    Node& act = graph.AddNode({"act", options.activation, "", {"s"}, {"r"}, {}});
    if (options.activation == "LeakyRelu") act.SetAttribute(Attribute::Float("alpha", 0.3f));
  }
  graph.AddNode({"neg", "Neg", "", {"r"}, {"y"}, {}});
  if (options.conv_read_twice) {
    graph.AddNode({"neg_c", "Neg", "", {"c"}, {"n"}, {}});
    outputs.push_back("n");
  }
  if (options.sum_read_twice) {
    graph.AddNode({"neg_s", "Neg", "", {sum}, {"m"}, {}});
    outputs.push_back("m");
  }
  if (options.conv_is_output) outputs.push_back("c");
  graph.set_inputs(inputs);
  graph.set_outputs(outputs);
  return model;
}

// The model optimized at the all level runs `fused_nodes` nodes and gives the unoptimized output.
void CheckSameOutputsAtAll(const ConvAddOptions& options, size_t fused_nodes) {
  std::vector<NamedValue> feeds{{"in", Value(RandomTensor({1, 2, 3, 3}, 5))},
                                {"zin", Value(RandomTensor(options.z_dims, 6))}};
  if (options.z_is_x) feeds.pop_back();  // no zin input
  CheckSameOutputs([options] { return ConvAddModel(options); }, feeds, fused_nodes, 1e-5f,
                   OptimizationLevel::kAll);
}

const Node& FusedProducer(const Model& model, const std::string& value) {
  const Node* node = model.graph().Producer(value);
  REQUIRE(node != nullptr);
  REQUIRE(node->op_type() == "FusedConv");
  CHECK(node->domain() == kMsDomain);
  return *node;
}

}  // namespace

TEST_CASE("fuse_conv_add_activation folds Conv + Add into FusedConv with Z",
          "[optimizer][fusion]") {
  Model model = ConvAddModel({});
  OptimizeAll(model);
  CHECK(CountOps(model.graph(), "Conv") == 0);
  CHECK(CountOps(model.graph(), "Add") == 0);
  const Node& fused = FusedProducer(model, "r");
  CHECK(fused.inputs() == std::vector<std::string>{"x", "W", "B", "z"});
  CHECK(fused.FindAttribute("activation") == nullptr);
  CHECK(fused.FindAttribute("pads")->ints == std::vector<int64_t>{1, 1, 1, 1});
  CheckSameOutputsAtAll({}, 4);

  const ConvAddOptions swapped{.bias = false, .z_first = true};
  Model unbiased = ConvAddModel(swapped);
  OptimizeAll(unbiased);
  CHECK(FusedProducer(unbiased, "r").inputs() == std::vector<std::string>{"x", "W", "", "z"});
  CheckSameOutputsAtAll(swapped, 4);

  // One symbol names the same size throughout a graph, as onnxruntime assumes.
  const ConvAddOptions symbolic{.activation = "Relu", .batch = "n", .z_batch = "n"};
  Model batched = ConvAddModel(symbolic);
  OptimizeAll(batched);
  CHECK(FusedProducer(batched, "r").inputs().size() == 4);
  CheckSameOutputsAtAll(symbolic, 4);

  // onnxruntime runs it at its level 3 only, and the pass can be turned off by its name.
  Model extended = ConvAddModel({});
  OptimizeExtended(extended);
  CHECK(CountOps(extended.graph(), "Add") == 1);
  for (const char* name : {"fuse_conv_add_activation", "all_level_fusions"}) {
    Model disabled = ConvAddModel({});
    OptimizeAll(disabled, {name});
    CHECK(CountOps(disabled.graph(), "FusedConv") == 0);
  }
}

TEST_CASE("fuse_conv_add_activation folds the activation only the sum reads",
          "[optimizer][fusion]") {
  const std::vector<std::pair<std::string, std::vector<float>>> cases{
      {"Relu", {}}, {"LeakyRelu", {0.3f}}, {"Sigmoid", {}}, {"HardSigmoid", {0.2f, 0.5f}}};
  for (const auto& [act, params] : cases) {
    INFO(act);
    const ConvAddOptions options{.activation = act};
    Model model = ConvAddModel(options);
    OptimizeAll(model);
    const Node& fused = FusedProducer(model, "r");
    CHECK(fused.inputs() == std::vector<std::string>{"x", "W", "B", "z"});
    CHECK(fused.FindAttribute("activation")->s == act);
    const Attribute* fused_params = fused.FindAttribute("activation_params");
    CHECK((fused_params == nullptr ? std::vector<float>{} : fused_params->floats) == params);
    CheckSameOutputsAtAll(options, 4);
  }

  const ConvAddOptions fused_conv{.activation = "Relu", .fused_conv = true};
  Model from_fused = ConvAddModel(fused_conv);
  OptimizeAll(from_fused);
  CHECK(FusedProducer(from_fused, "r").FindAttribute("activation")->s == "Relu");
  CHECK(CountOps(from_fused.graph(), "FusedConv") == 1);
  CheckSameOutputsAtAll(fused_conv, 4);

  // Z and X are one value dying at the fused node: the output must not take its buffer.
  const ConvAddOptions z_is_x{.activation = "Relu", .z_is_x = true, .pointwise = true};
  Model same = ConvAddModel(z_is_x);
  OptimizeAll(same);
  CHECK(FusedProducer(same, "r").inputs() == std::vector<std::string>{"x", "W", "B", "x"});
  CheckSameOutputsAtAll(z_is_x, 3);
}

TEST_CASE("fuse_conv_add_activation leaves shared, broadcast and non-float sums",
          "[optimizer][fusion]") {
  const std::vector<std::pair<std::string, ConvAddOptions>> unfused{
      {"conv read twice", {.activation = "Relu", .conv_read_twice = true}},
      {"conv output kept", {.activation = "Relu", .conv_is_output = true}},
      {"Z broadcast", {.z_dims = {1, 2, 1, 1}}},
      {"Z of lower rank", {.z_dims = {2, 3, 3}}},
      {"Z of another batch symbol", {.batch = "n", .z_batch = "m"}},
      {"Z of a fixed batch", {.batch = "n", .z_batch = {}}},
      {"double", {.type = DataType::kDouble}}};
  for (const auto& [name, options] : unfused) {
    INFO(name);
    Model model = ConvAddModel(options);
    OptimizeAll(model);
    CHECK(CountOps(model.graph(), "FusedConv") == 0);
    CHECK(CountOps(model.graph(), "Add") == 1);
  }

  // A sum read twice keeps its activation, as in onnxruntime; Conv + Add still fuse.
  const ConvAddOptions shared_sum{.activation = "Relu", .sum_read_twice = true};
  Model model = ConvAddModel(shared_sum);
  OptimizeAll(model);
  const Node& fused = FusedProducer(model, "s");
  CHECK(fused.FindAttribute("activation") == nullptr);
  CHECK(CountOps(model.graph(), "Relu") == 1);
  CheckSameOutputsAtAll(shared_sum, 6);
}

}  // namespace ort::test
