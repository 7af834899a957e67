#include <catch2/catch.hpp>

#include <filesystem>

#include "lib/ir/model.h"
#include "lib/onnx/model_loader.h"
#include "lib/onnx/model_proto.h"
#include "lib/optimizer/optimization_record.h"
#include "lib/session/inference_session.h"
#include "providers/cpu/cpu_provider.h"
#include "test/optimizer/optimizer_test_util.h"

namespace ort {
namespace {

using test::MakeCpuSession;
using test::TempDirectory;

// out = -(x + w) with x [2, 300] behind two Identity nodes the basic level removes; w is large
// enough (1200 bytes) to go to external data.
std::unique_ptr<Model> IdentityModel(const OptimizationRecord& record) {
  auto model = std::make_unique<Model>();
  model->opsets()[""] = 14;
  model->path = "identity_model";
  Graph& graph = model->graph();
  graph.set_inputs({"x"});
  graph.set_outputs({"out"});
  graph.SetValueType("x",
                     ValueType::Tensor(DataType::kFloat,
                                       SymbolicShape{Dimension::Known(2), Dimension::Known(300)}));
  std::vector<float> weights(300);
  for (size_t i = 0; i < weights.size(); ++i) weights[i] = static_cast<float>(i) * 0.5f;
  graph.AddInitializer("w", Tensor::FromVector<float>({300}, weights));
  graph.AddNode({"id1", "Identity", "", {"x"}, {"a"}, {}});
  graph.AddNode({"id2", "Identity", "", {"a"}, {"b"}, {}});
  graph.AddNode({"add", "Add", "", {"b", "w"}, {"c"}, {}});
  graph.AddNode({"neg", "Neg", "", {"c"}, {"out"}, {}});
  graph.ResolveOuterScope();
  if (record.level != OptimizationLevel::kDisable) WriteOptimizationRecord(record, *model);
  return model;
}

struct Optimized {
  std::vector<std::string> levels;  // levels the session ran
  size_t nodes = 0;
  std::string recorded_level;
};

Optimized OptimizeWithRecord(const OptimizationRecord& record) {
  InferenceSession session;
  REQUIRE(session.RegisterProvider(std::make_unique<CpuExecutionProvider>()).ok());
  REQUIRE(session.Load(IdentityModel(record)).ok());
  Optimized result;
  const Status status = session.OptimizeForSaving([&result](const OptimizerStep& step) {
    if (step.kind == OptimizerStep::Kind::kLevel) result.levels.emplace_back(step.name);
  });
  INFO(status.ToString());
  REQUIRE(status.ok());
  result.nodes = session.model().graph().NodeCount();
  result.recorded_level = session.model().Metadata(kOptimizationLevelKey);
  return result;
}

}  // namespace

TEST_CASE("A session skips the levels a model's record says were applied", "[session][record]") {
  const Optimized fresh = OptimizeWithRecord({});
  CHECK(fresh.levels == std::vector<std::string>{"basic", "extended", "all"});
  CHECK(fresh.nodes == 2);
  CHECK(fresh.recorded_level == "all");

  // The record claims basic ran: its rules stay off, so the Identity nodes survive.
  const Optimized resumed = OptimizeWithRecord({OptimizationLevel::kBasic, {"cpu"}, {}});
  CHECK(resumed.levels == std::vector<std::string>{"extended", "all"});
  CHECK(resumed.nodes == 4);
  CHECK(resumed.recorded_level == "all");

  const Optimized done = OptimizeWithRecord({OptimizationLevel::kAll, {"cpu"}, {}});
  CHECK(done.levels.empty());
}

TEST_CASE("Other providers or re-enabled passes run recorded levels again", "[session][record]") {
  const Optimized other = OptimizeWithRecord({OptimizationLevel::kBasic, {"cuda"}, {}});
  CHECK(other.levels == std::vector<std::string>{"basic", "extended", "all"});
  CHECK(other.nodes == 2);

  const Optimized extended = OptimizeWithRecord({OptimizationLevel::kExtended, {"cuda"}, {}});
  CHECK(extended.levels == std::vector<std::string>{"extended", "all"});

  const Optimized enabled =
      OptimizeWithRecord({OptimizationLevel::kExtended, {"cpu"}, {"eliminate_identity"}});
  CHECK(enabled.levels == std::vector<std::string>{"basic", "extended", "all"});
  CHECK(enabled.nodes == 2);
}

TEST_CASE("A model optimized and saved reloads with its record and the same outputs",
          "[session][record]") {
  const auto directory = TempDirectory("offline_saved");
  const std::string path = (directory / "optimized.onnx").string();
  {
    SessionOptions options;
    options.optimization_level = OptimizationLevel::kBasic;
    InferenceSession session(options);
    REQUIRE(session.RegisterProvider(std::make_unique<CpuExecutionProvider>()).ok());
    REQUIRE(session.Load(IdentityModel({})).ok());
    REQUIRE(session.OptimizeForSaving().ok());
    CHECK_FALSE(session.Initialize().ok());
    SaveOptions save;
    save.external_data_threshold_bytes = 1024;
    REQUIRE(SaveModel(session.model(), path, save).ok());
  }
  CHECK(std::filesystem::file_size(directory / "optimized.onnx.data") == 1200);

  auto loaded = LoadModel(path);
  REQUIRE(loaded.ok());
  CHECK((*loaded)->Metadata(kOptimizationLevelKey) == "basic");
  CHECK((*loaded)->Metadata(kOptimizationProvidersKey) == "cpu");
  CHECK((*loaded)->graph().NodeCount() == 2);

  std::vector<float> input(600);
  for (size_t i = 0; i < input.size(); ++i) input[i] = static_cast<float>(i % 7) - 3.0f;
  std::vector<NamedValue> feeds{{"x", Value(Tensor::FromVector<float>({2, 300}, input))}};
  const auto session = MakeCpuSession(std::move(*loaded));
  std::vector<Value> outputs;
  REQUIRE(session->Run({}, feeds, {}, &outputs).ok());
  const float* out = outputs[0].tensor().Data<float>();
  for (size_t i = 0; i < input.size(); ++i) {
    INFO(i);
    REQUIRE(out[i] == -(input[i] + static_cast<float>(i % 300) * 0.5f));
  }
  std::filesystem::remove_all(directory);
}

TEST_CASE("Constants left by fusions above the basic level are dropped", "[session][record]") {
  // x * 0.5 * (1 + erf(x / sqrt(2))), which the extended level fuses into one Gelu node.
  auto model = std::make_unique<Model>();
  model->opsets()[""] = 14;
  Graph& graph = model->graph();
  graph.set_inputs({"x"});
  graph.set_outputs({"out"});
  graph.SetValueType("x", ValueType::Tensor(DataType::kFloat, SymbolicShape{Dimension::Known(4)}));
  graph.AddInitializer("sqrt2", Tensor::Scalar<float>(1.4142135f));
  graph.AddInitializer("one", Tensor::Scalar<float>(1.0f));
  graph.AddInitializer("half", Tensor::Scalar<float>(0.5f));
  graph.AddNode({"div", "Div", "", {"x", "sqrt2"}, {"d"}, {}});
  graph.AddNode({"erf", "Erf", "", {"d"}, {"e"}, {}});
  graph.AddNode({"add", "Add", "", {"e", "one"}, {"a"}, {}});
  graph.AddNode({"mul", "Mul", "", {"x", "a"}, {"m"}, {}});
  graph.AddNode({"half_mul", "Mul", "", {"m", "half"}, {"out"}, {}});
  graph.ResolveOuterScope();

  SessionOptions options;
  options.optimization_level = OptimizationLevel::kExtended;
  InferenceSession session(options);
  REQUIRE(session.RegisterProvider(std::make_unique<CpuExecutionProvider>()).ok());
  REQUIRE(session.Load(std::move(model)).ok());
  REQUIRE(session.OptimizeForSaving().ok());
  const Graph& optimized = session.model().graph();
  REQUIRE(optimized.NodeCount() == 1);
  CHECK(optimized.Nodes()[0]->op_type() == "Gelu");
  CHECK(optimized.initializers().empty());
  CHECK(session.model().opsets().at(std::string(kMsDomain)) == 1);
}

}  // namespace ort
