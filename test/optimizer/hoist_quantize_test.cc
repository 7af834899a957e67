// hoist_quantize: a QuantizeLinear after Reshape/Transpose moves before them, which then move
// 8-bit values, with outputs unchanged (quantizing commutes with rearranging); it stays where the
// rearranged float has another reader, where the input is a constant, and where a
// DequantizeLinear feeds the op (drop_qdq_data_movement's case).
#include "test/optimizer/optimizer_test_util.h"

namespace ort::test {
namespace {

struct HoistOptions {
  bool float_output = false;  // the Transpose's float result is a second graph output
  bool constant_input = false;
};

// y = DQ(Q(Transpose(Reshape(a + bias, [2, 12]), [1, 0]))); with `constant_input` the Reshape
// reads the constant bias itself and `a` is added after the DequantizeLinear.
Model HoistModel(const HoistOptions& options) {
  Model model = MakeModel(13);
  Graph& graph = model.graph();
  graph.SetValueType("a", FloatTensor({2, 3, 4}));
  graph.AddInitializer("bias", RandomTensor({2, 3, 4}, 3));
  graph.AddInitializer("scale", Tensor::Scalar<float>(0.03f));
  graph.AddInitializer("zero", Tensor::Scalar<uint8_t>(110));
  const std::string shape = Ints(graph, "shape", {2, 12});
  std::string rearranged = "bias";
  if (!options.constant_input) {
    graph.AddNode({"add", "Add", "", {"a", "bias"}, {"s"}, {}});
    rearranged = "s";
  }
  graph.AddNode({"reshape", "Reshape", "", {rearranged, shape}, {"r"}, {}});
  Node& transpose = graph.AddNode({"transpose", "Transpose", "", {"r"}, {"t"}, {}});
  transpose.SetAttribute(Attribute::Ints("perm", {1, 0}));
  graph.AddNode({"q", "QuantizeLinear", "", {"t", "scale", "zero"}, {"tq"}, {}});
  graph.AddNode({"dq", "DequantizeLinear", "", {"tq", "scale", "zero"}, {"d"}, {}});
  std::string y = "d";
  if (options.constant_input) {
    graph.AddInitializer(
        "ones", Tensor::FromVector<float>(TensorShape({12, 2}), std::vector<float>(24, 1.0f)));
    graph.AddNode({"add", "Add", "", {"d", "ones"}, {"y"}, {}});
    y = "y";
  }
  graph.set_inputs({"a"});
  graph.set_outputs(options.float_output ? std::vector<std::string>{y, "t"}
                                         : std::vector<std::string>{y});
  return model;
}

}  // namespace

TEST_CASE("A QuantizeLinear moves before the Reshape and Transpose it quantizes",
          "[optimizer][qdq]") {
  Model model = HoistModel({});
  OptimizeExtended(model);
  CHECK(OpTypes(model.graph()) ==
        Ops{"Add", "QuantizeLinear", "Reshape", "Transpose", "DequantizeLinear"});
  const std::vector<NamedValue> feeds{{"a", Value(RandomTensor({2, 3, 4}, 9))}};
  const CpuRun plain = RunOnCpu(HoistModel({}), OptimizationLevel::kDisable, feeds);
  const CpuRun hoisted = RunOnCpu(HoistModel({}), OptimizationLevel::kExtended, feeds);
  CheckClose(hoisted.output, plain.output, 0.0, 0.0);
}

TEST_CASE("A QuantizeLinear stays after a rearrangement read elsewhere or of a constant",
          "[optimizer][qdq]") {
  Model shared = HoistModel({.float_output = true});
  OptimizeExtended(shared);
  CHECK(OpTypes(shared.graph()) ==
        Ops{"Add", "Reshape", "Transpose", "QuantizeLinear", "DequantizeLinear"});
  // The constant chain folds whole instead of quantizing the bias on every run.
  Model constant = HoistModel({.constant_input = true});
  OptimizeExtended(constant);
  CHECK(CountOps(constant.graph(), "Reshape") == 0);
  CHECK(CountOps(constant.graph(), "QuantizeLinear") == 0);
}

}  // namespace ort::test
