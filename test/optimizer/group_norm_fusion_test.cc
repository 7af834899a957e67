// The session-only group norm fusion: torch's GroupNorm export (Reshape to groups,
// InstanceNormalization, Reshape back, per-channel Mul and Add, SiLU) into com.microsoft GroupNorm,
// checked against the unfused graph's outputs; the look-alikes that must stay unfused; and models
// optimized for saving, which keep the plain ops (onnxruntime has no GroupNorm kernel) until a
// session loads them.
#include <filesystem>

#include "lib/onnx/model_loader.h"
#include "lib/onnx/model_proto.h"
#include "lib/optimizer/graph_optimizer.h"
#include "providers/cpu/cpu_provider.h"
#include "test/optimizer/optimizer_test_util.h"

namespace ort::test {
namespace {

struct GroupNormOptions {
  int64_t channels = 8;
  int64_t groups = 4;
  bool affine = true;
  bool silu = true;
  // InstanceNormalization's own per-group scale and bias are not ones and zeros.
  bool group_affine = false;
  // The view back is [N, C, H * W] rather than x's own shape.
  bool flat_restore = false;
  // A Mul by a per-pixel constant ([W]) follows the affine.
  bool pixel_mul = false;
  // A com.microsoft QuickGelu without alpha (1.702: CLIP's QuickGELU, not SiLU) follows.
  bool default_quick_gelu = false;
  // x is [N, C, W] (GroupNorm over a sequence, as audio models have).
  bool one_dimensional = false;
};

Tensor Floats(std::vector<int64_t> dims, float first, float step) {
  const int64_t count = TensorShape(dims).NumElements();
  std::vector<float> values(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) values[i] = first + step * static_cast<float>(i);
  return Tensor::FromVector<float>(TensorShape(std::move(dims)), values);
}

constexpr int64_t kWidth = 5;

Model GroupNormModel(const GroupNormOptions& options) {
  Model model = MakeModel(14);
  Graph& graph = model.graph();
  const int64_t c = options.channels, g = options.groups;
  SymbolicShape x_shape{Dimension::Symbol("b"), Dimension::Known(c), Dimension::Symbol("h"),
                        Dimension::Known(kWidth)};
  if (options.one_dimensional) x_shape.erase(x_shape.begin() + 2);
  graph.SetValueType("x", ValueType::Tensor(DataType::kFloat, x_shape));
  const std::vector<int64_t> channel_dims =
      options.one_dimensional ? std::vector<int64_t>{c, 1} : std::vector<int64_t>{c, 1, 1};
  graph.AddNode(
      {"split", "Reshape", "", {"x", Ints(graph, "group_view", {0, g, -1})}, {"grouped"}, {}});
  graph.AddInitializer("in_scale",
                       options.group_affine ? Floats({g}, 0.5f, 0.25f) : Floats({g}, 1, 0));
  graph.AddInitializer("in_bias",
                       options.group_affine ? Floats({g}, -0.5f, 0.375f) : Floats({g}, 0, 0));
  std::vector<Attribute> epsilon;
  epsilon.push_back(Attribute::Float("epsilon", 1e-5f));
  graph.AddNode({"norm",
                 "InstanceNormalization",
                 "",
                 {"grouped", "in_scale", "in_bias"},
                 {"normed"},
                 std::move(epsilon)});
  std::string restore_target = "x_shape";
  if (options.flat_restore) {
    restore_target = Ints(graph, "flat_view", {0, c, -1});
  } else {
    graph.AddNode({"shape", "Shape", "", {"x"}, {"x_shape"}, {}});
  }
  graph.AddNode({"merge", "Reshape", "", {"normed", restore_target}, {"restored"}, {}});
  std::string last = "restored";
  if (options.affine) {
    graph.AddInitializer("gamma", Floats(channel_dims, 0.75f, 0.125f));
    graph.AddInitializer("beta", Floats(channel_dims, -0.25f, 0.0625f));
    graph.AddNode({"scale", "Mul", "", {last, "gamma"}, {"scaled"}, {}});
    graph.AddNode({"shift", "Add", "", {"scaled", "beta"}, {"shifted"}, {}});
    last = "shifted";
  }
  if (options.pixel_mul) {
    graph.AddInitializer("pixels", Floats({kWidth}, 1, 0.5f));
    graph.AddNode({"pixel_mul", "Mul", "", {last, "pixels"}, {"per_pixel"}, {}});
    last = "per_pixel";
  }
  if (options.silu) {
    graph.AddNode({"sigmoid", "Sigmoid", "", {last}, {"gate"}, {}});
    graph.AddNode({"silu", "Mul", "", {last, "gate"}, {"activated"}, {}});
    last = "activated";
  }
  if (options.default_quick_gelu) {
    model.opsets()[std::string(kMsDomain)] = 1;
    graph.AddNode({"quick_gelu", "QuickGelu", std::string(kMsDomain), {last}, {"quick"}, {}});
    last = "quick";
  }
  graph.set_inputs({"x"});
  graph.set_outputs({last});
  graph.ResolveOuterScope();
  InferModelTypes(model);
  return model;
}

std::vector<NamedValue> Feeds(int64_t channels, int64_t height = 3) {
  return {{"x", Value(RandomTensor({2, channels, height, kWidth}, 7))}};
}

}  // namespace

TEST_CASE("fuse_group_norm turns torch's GroupNorm and its SiLU into one GroupNorm",
          "[optimizer][fusion]") {
  const std::vector<std::pair<std::string, GroupNormOptions>> forms{
      {"affine and SiLU", {}},
      {"affine only", {.silu = false}},
      {"no affine, no activation", {.affine = false, .silu = false}},
      {"InstanceNormalization's own scale and bias", {.group_affine = true}},
      {"a [N, C, W] sequence", {.one_dimensional = true}},
  };
  for (const auto& [name, options] : forms) {
    SECTION(name) {
      Model model = GroupNormModel(options);
      OptimizeExtended(model);
      REQUIRE(CountOps(model.graph(), "GroupNorm") == 1);
      REQUIRE(model.graph().NodeCount() == 1);
      const Node& fused = *model.graph().Nodes()[0];
      CHECK(fused.domain() == "com.microsoft");
      CHECK(fused.inputs()[0] == "x");
      CHECK(fused.FindAttribute("groups")->i == 4);
      CHECK(fused.FindAttribute("channels_last")->i == 0);
      CHECK(fused.FindAttribute("activation")->i == (options.silu ? 1 : 0));
      const std::vector<NamedValue> feeds =
          options.one_dimensional
              ? std::vector<NamedValue>{{"x", Value(RandomTensor({2, 8, kWidth}, 7))}}
              : Feeds(8);
      CheckSameOutputs([&options] { return GroupNormModel(options); }, feeds, 1);
    }
  }
}

TEST_CASE("fuse_group_norm leaves look-alikes and what follows the affine", "[optimizer][fusion]") {
  SECTION("groups straddling channels") {
    // 6 channels in 4 groups of 1.5 channels each, which per-channel gamma cannot express.
    const GroupNormOptions options{.channels = 6, .groups = 4, .silu = false};
    Model model = GroupNormModel(options);
    OptimizeExtended(model);
    CHECK(CountOps(model.graph(), "GroupNorm") == 0);
    CHECK(CountOps(model.graph(), "InstanceNormalization") == 1);
    CHECK(RunOnCpu(GroupNormModel(options), OptimizationLevel::kExtended, Feeds(6, 2)).output ==
          RunOnCpu(GroupNormModel(options), OptimizationLevel::kDisable, Feeds(6, 2)).output);
  }
  SECTION("a view back to another shape") {
    Model model = GroupNormModel({.silu = false, .flat_restore = true});
    OptimizeExtended(model);
    CHECK(CountOps(model.graph(), "GroupNorm") == 0);
  }
  SECTION("a per-pixel Mul stays outside, and the SiLU after it too") {
    const GroupNormOptions options{.pixel_mul = true};
    Model model = GroupNormModel(options);
    OptimizeExtended(model);
    REQUIRE(OpTypes(model.graph()) == Ops{"GroupNorm", "Mul", "QuickGelu"});
    for (const Node* node : model.graph().Nodes()) {
      if (node->op_type() == "GroupNorm") CHECK(node->FindAttribute("activation")->i == 0);
    }
    CheckSameOutputs([&options] { return GroupNormModel(options); }, Feeds(8), 3);
  }
  SECTION("a QuickGelu of the default alpha, which is not SiLU") {
    const GroupNormOptions options{.silu = false, .default_quick_gelu = true};
    Model model = GroupNormModel(options);
    OptimizeExtended(model);
    REQUIRE(OpTypes(model.graph()) == Ops{"GroupNorm", "QuickGelu"});
    CheckSameOutputs([&options] { return GroupNormModel(options); }, Feeds(8), 2);
  }
}

TEST_CASE("Saved models keep the plain group norm ops; sessions on them fuse",
          "[optimizer][fusion][record]") {
  CHECK(IsSessionOnlyPass("session_fusions"));
  CHECK_FALSE(IsSessionOnlyPass("extended_fusions"));
  const auto directory = TempDirectory("group_norm_saved");
  const std::string path = (directory / "optimized.onnx").string();
  {
    SessionOptions options;
    options.optimization_level = OptimizationLevel::kExtended;
    InferenceSession session(options);
    REQUIRE(session.RegisterProvider(std::make_unique<CpuExecutionProvider>()).ok());
    REQUIRE(session.Load(std::make_unique<Model>(GroupNormModel({}))).ok());
    REQUIRE(session.OptimizeForSaving().ok());
    CHECK(CountOps(session.model().graph(), "GroupNorm") == 0);
    CHECK(CountOps(session.model().graph(), "InstanceNormalization") == 1);
    REQUIRE(SaveModel(session.model(), path).ok());
  }
  auto loaded = LoadModel(path);
  REQUIRE(loaded.ok());
  SessionOptions options;
  options.optimization_level = OptimizationLevel::kExtended;
  const auto session = MakeCpuSession(std::move(*loaded), options);
  Ops executed;
  for (const Node* node : session->ExecutionOrder()) executed.push_back(node->op_type());
  CHECK(executed == Ops{"GroupNorm"});
  std::filesystem::remove_all(directory);
}

}  // namespace ort::test
