// The basic level's fuse_pad rule: zero padding of the spatial axes folds into the Conv or the
// AveragePool reading it (which then counts it), outputs equal to the unfused model's; padding
// of other values, modes or axes, and pools that would count it differently, stay.
#include "test/optimizer/optimizer_test_util.h"

namespace ort::test {
namespace {

struct PadOptions {
  std::string consumer = "AveragePool";
  std::vector<int64_t> pads{0, 0, 1, 2, 0, 0, 1, 0};  // begins of N C H W, then ends
  float value = 0.0f;
  std::string mode{};                  // constant when empty
  std::vector<int64_t> consumer_pads;  // none when empty
  bool count_include_pad = false;
  bool ceil_mode = false;
};

// y = consumer(Pad(x)) on x [1, 4, 5, 6]; the Conv is 4 -> 4 channels, 3x3; the pool 3x3.
Model PadModel(const PadOptions& options) {
  Model model = MakeModel(14);
  Graph& graph = model.graph();
  graph.SetValueType("x", FloatTensor({1, 4, 5, 6}));
  graph.AddInitializer(
      "pads", Tensor::FromVector<int64_t>(TensorShape({static_cast<int64_t>(options.pads.size())}),
                                          std::span<const int64_t>(options.pads)));
  graph.AddInitializer("value", Tensor::Scalar<float>(options.value));
  Node& pad = graph.AddNode({"pad", "Pad", "", {"x", "pads", "value"}, {"p"}, {}});
  if (!options.mode.empty()) pad.SetAttribute(Attribute::String("mode", options.mode));
  std::vector<std::string> inputs{"p"};
  if (options.consumer == "Conv") {
    graph.AddInitializer("w", RandomTensor({4, 4, 3, 3}, 3, -0.5f, 0.5f));
    inputs.push_back("w");
  }
  Node& consumer = graph.AddNode({"consumer", options.consumer, "", inputs, {"y"}, {}});
  consumer.SetAttribute(Attribute::Ints("kernel_shape", {3, 3}));
  if (!options.consumer_pads.empty()) {
    consumer.SetAttribute(Attribute::Ints("pads", options.consumer_pads));
  }
  if (options.count_include_pad) consumer.SetAttribute(Attribute::Int("count_include_pad", 1));
  if (options.ceil_mode) consumer.SetAttribute(Attribute::Int("ceil_mode", 1));
  graph.set_inputs({"x"});
  graph.set_outputs({"y"});
  return model;
}

const std::vector<NamedValue>& Feeds() {
  static const std::vector<NamedValue> feeds{{"x", Value(RandomTensor({1, 4, 5, 6}, 7))}};
  return feeds;
}

std::vector<int64_t> PadsAfterBasic(const PadOptions& options) {
  Model model = PadModel(options);
  OptimizeBasic(model);
  REQUIRE(CountOps(model.graph(), "Pad") == 0);
  const Node& consumer = *model.graph().Producer("y");
  return consumer.FindAttribute("pads")->ints;
}

TEST_CASE("fuse_pad folds zero padding into AveragePool, counted", "[optimizer]") {
  PadOptions options;
  CHECK(PadsAfterBasic(options) == std::vector<int64_t>{1, 2, 1, 0});
  Model model = PadModel(options);
  OptimizeBasic(model);
  CHECK(model.graph().Producer("y")->FindAttribute("count_include_pad")->i == 1);
  CheckSameOutputs([options] { return PadModel(options); }, Feeds(), 1, 1e-5f,
                   OptimizationLevel::kBasic);
  // Padding the pool counts already adds up.
  options.consumer_pads = {1, 0, 0, 1};
  options.count_include_pad = true;
  CHECK(PadsAfterBasic(options) == std::vector<int64_t>{2, 2, 1, 1});
  CheckSameOutputs([options] { return PadModel(options); }, Feeds(), 1, 1e-5f,
                   OptimizationLevel::kBasic);
}

TEST_CASE("fuse_pad folds zero padding into Conv's pads", "[optimizer]") {
  PadOptions options;
  options.consumer = "Conv";
  options.consumer_pads = {0, 1, 0, 1};
  CHECK(PadsAfterBasic(options) == std::vector<int64_t>{1, 3, 1, 1});
  CheckSameOutputs([options] { return PadModel(options); }, Feeds(), 1, 1e-5f,
                   OptimizationLevel::kBasic);
}

TEST_CASE("fuse_pad leaves other values, modes, axes and pools counting otherwise", "[optimizer]") {
  PadOptions options;
  SECTION("a nonzero value") { options.value = 1.0f; }
  SECTION("reflecting padding") { options.mode = "reflect"; }
  SECTION("padding channels") { options.pads = {0, 1, 1, 1, 0, 0, 1, 1}; }
  SECTION("cropping") { options.pads = {0, 0, -1, 1, 0, 0, 1, 1}; }
  SECTION("a pool whose own padding is not counted") { options.consumer_pads = {1, 1, 1, 1}; }
  SECTION("a pool with ceil_mode") { options.ceil_mode = true; }
  Model model = PadModel(options);
  OptimizeBasic(model);
  CHECK(CountOps(model.graph(), "Pad") == 1);
}

}  // namespace
}  // namespace ort::test
