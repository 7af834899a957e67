#include <catch2/catch.hpp>

#include <thread>

#include "lib/ir/model.h"
#include "lib/session/inference_session.h"
#include "providers/cpu/cpu_provider.h"
#include "test/optimizer/optimizer_test_util.h"

namespace ort {
namespace {

using test::BatchedAddModel;

using test::MakeCpuSession;

}  // namespace

// out = matmul(a, w) with w a constant [3, 2]; with `also_output`, w is a graph output too.
std::unique_ptr<Model> MatMulModel(bool also_output) {
  auto model = std::make_unique<Model>();
  model->opsets()[""] = 14;
  model->path = "matmul_model";
  Graph& graph = model->graph();
  graph.set_inputs({"a"});
  graph.set_outputs(also_output ? std::vector<std::string>{"out", "w"}
                                : std::vector<std::string>{"out"});
  graph.SetValueType("a", ValueType::Tensor(DataType::kFloat, SymbolicShape{Dimension::Known(1),
                                                                            Dimension::Known(3)}));
  graph.AddInitializer("w", Tensor::FromVector<float>({3, 2}, {1, 0, 0, 1, 1, 1}));
  graph.AddNode({"matmul", "MatMul", "", {"a", "w"}, {"out"}, {}});
  graph.ResolveOuterScope();
  return model;
}

TEST_CASE("Weights that every reader pre-packed are freed unless the session profiles",
          "[session]") {
  for (const bool also_output : {false, true}) {
    for (const bool profiling : {false, true}) {
      SessionOptions options;
      options.enable_profiling = profiling;
      InferenceSession session(options);
      REQUIRE(session.RegisterProvider(std::make_unique<CpuExecutionProvider>()).ok());
      REQUIRE(session.Load(MatMulModel(also_output)).ok());
      REQUIRE(session.Initialize().ok());
      INFO("also_output " << also_output << " profiling " << profiling);
      const bool freed = !also_output && !profiling;
      CHECK((session.model().graph().GetInitializer("w") == nullptr) == freed);
      std::vector<NamedValue> feeds{{"a", Value(Tensor::FromVector<float>({1, 3}, {1, 2, 3}))}};
      std::vector<Value> outputs;
      REQUIRE(session.Run({}, feeds, {}, &outputs).ok());
      const float* out = outputs[0].tensor().Data<float>();
      CHECK(out[0] == 4.0f);
      CHECK(out[1] == 5.0f);
      if (also_output) CHECK(outputs[1].tensor().Data<float>()[5] == 1.0f);
    }
  }
}

TEST_CASE("A Conv's constant weights are freed once packed by the first run", "[session]") {
  // y = conv1d(x, w): x [1, 1, 4], w [2, 1, 2] constant, no padding.
  auto model = std::make_unique<Model>();
  model->opsets()[""] = 11;
  model->path = "conv_model";
  Graph& graph = model->graph();
  graph.set_inputs({"x"});
  graph.set_outputs({"y"});
  graph.SetValueType("x", ValueType::Tensor(DataType::kFloat,
                                            SymbolicShape{Dimension::Known(1), Dimension::Known(1),
                                                          Dimension::Known(4)}));
  const Tensor w = Tensor::FromVector<float>({2, 1, 2}, {1, 2, -1, 0.5f});
  graph.AddInitializer("w", w);
  graph.AddNode({"conv", "Conv", "", {"x", "w"}, {"y"}, {}});
  graph.ResolveOuterScope();
  SessionOptions options;
  options.optimization_level = OptimizationLevel::kDisable;
  InferenceSession session(options);
  REQUIRE(session.RegisterProvider(std::make_unique<CpuExecutionProvider>()).ok());
  REQUIRE(session.Load(std::move(model)).ok());
  REQUIRE(session.Initialize().ok());
  CHECK(session.model().graph().GetInitializer("w") == nullptr);
  CHECK_FALSE(w.HasExclusiveBuffer());
  std::vector<NamedValue> feeds{{"x", Value(Tensor::FromVector<float>({1, 1, 4}, {1, 2, 3, 4}))}};
  std::vector<Value> outputs;
  REQUIRE(session.Run({}, feeds, {}, &outputs).ok());
  CHECK(w.HasExclusiveBuffer());
  const Tensor& y = outputs[0].tensor();
  REQUIRE(y.shape() == TensorShape({1, 2, 3}));
  const std::vector<float> expected{5, 8, 11, 0, -0.5f, -1};
  for (size_t i = 0; i < expected.size(); ++i) CHECK(y.Data<float>()[i] == expected[i]);
}

TEST_CASE("Run checks feeds against the declared inputs", "[session]") {
  auto session = MakeCpuSession(BatchedAddModel());
  std::vector<Value> outputs;
  std::vector<NamedValue> none;
  CHECK(session->Run({}, none, {}, &outputs).message().find("required input 'a'") !=
        std::string::npos);
  std::vector<NamedValue> wrong_type{{"a", Value(Tensor::FromVector<int32_t>({1, 3}, {1, 2, 3}))}};
  CHECK(session->Run({}, wrong_type, {}, &outputs).message().find("element type float") !=
        std::string::npos);
  std::vector<NamedValue> wrong_dim{{"a", Value(Tensor::FromVector<float>({1, 2}, {1, 2}))}};
  CHECK(session->Run({}, wrong_dim, {}, &outputs).message().find("dimension 1 differs") !=
        std::string::npos);
  std::vector<NamedValue> unknown{{"zz", Value(Tensor::Scalar<float>(1))}};
  CHECK(session->Run({}, unknown, {}, &outputs).message().find("'zz' is not an input") !=
        std::string::npos);
  std::vector<NamedValue> good{{"a", Value(Tensor::FromVector<float>({1, 3}, {1, 2, 3}))}};
  std::vector<std::string> bad_output{"nope"};
  CHECK_FALSE(session->Run({}, good, bad_output, &outputs).ok());
}

// A model whose one input is its output, declared `type`.
std::unique_ptr<Model> PassThroughModel(ValueType type) {
  auto model = std::make_unique<Model>();
  model->opsets()[""] = 15;
  model->path = "pass_through";
  Graph& graph = model->graph();
  graph.set_inputs({"v"});
  graph.set_outputs({"v"});
  graph.SetValueType("v", std::move(type));
  graph.ResolveOuterScope();
  return model;
}

TEST_CASE("Run checks sequence, optional and map feeds against their declared types", "[session]") {
  const auto run = [](ValueType type, Value value) {
    auto session = MakeCpuSession(PassThroughModel(std::move(type)));
    std::vector<NamedValue> feeds{{"v", std::move(value)}};
    std::vector<Value> outputs;
    return session->Run({}, feeds, {}, &outputs).message();
  };
  const auto floats = ValueType::Tensor(DataType::kFloat);
  const auto float_sequence = [] {
    return TensorSequence{DataType::kFloat, {Tensor::FromVector<float>({2}, {1, 2})}};
  };
  CHECK(run(ValueType::SequenceOf(floats), float_sequence()).empty());
  CHECK(run(ValueType::SequenceOf(floats),
            TensorSequence{DataType::kInt64, {Tensor::FromVector<int64_t>({1}, {1})}}) ==
        "pass_through: input 'v' expects seq(tensor(float)), got seq(int64) of 1");
  CHECK(run(ValueType::SequenceOf(floats), Tensor::FromVector<float>({1}, {1})) ==
        "pass_through: input 'v' expects seq(tensor(float)), got float[1]");

  const auto optional = ValueType::OptionalOf(
      ValueType::Tensor(DataType::kFloat, SymbolicShape{Dimension::Known(2)}));
  CHECK(run(optional, NoneValue{optional}).empty());
  CHECK(run(optional, Tensor::FromVector<float>({2}, {1, 2})).empty());
  CHECK(run(optional, Tensor::FromVector<float>({3}, {1, 2, 3})).find("dimension 0 differs") !=
        std::string::npos);
  CHECK(run(optional, Tensor::FromVector<int32_t>({2}, {1, 2})).find("element type float") !=
        std::string::npos);

  ValueType map;
  map.kind = ValueType::Kind::kMap;
  map.elem_type = DataType::kInt64;
  map.element = std::make_shared<const ValueType>(floats);
  CHECK(run(map, Tensor::FromVector<float>({1}, {1})) ==
        "pass_through: input 'v' is declared map(int64,tensor(float)), a kind of value this engine "
        "does not "
        "run");
}

TEST_CASE("Run is safe from several threads at once", "[session]") {
  SessionOptions options;
  options.intra_op_threads = 2;
  auto session = MakeCpuSession(BatchedAddModel(), options);
  std::vector<std::thread> threads;
  std::atomic<int> correct{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int repeat = 0; repeat < 100; ++repeat) {
        const float base = static_cast<float>(t * 1000 + repeat);
        std::vector<NamedValue> feeds{
            {"a", Value(Tensor::FromVector<float>({2, 3}, {base, base, base, base, base, base}))}};
        std::vector<Value> outputs;
        if (!session->Run({}, feeds, {}, &outputs).ok()) return;
        const float* out = outputs[0].tensor().Data<float>();
        if (out[0] == base + 10 && out[4] == base + 20 && out[5] == base + 30) ++correct;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  CHECK(correct.load() == 400);
}

TEST_CASE("Free dimension overrides fix symbolic input dimensions", "[session]") {
  SessionOptions options;
  options.free_dimension_overrides["batch"] = 2;
  auto session = MakeCpuSession(BatchedAddModel(), options);
  CHECK(session->InputInfos()[0].type.ToString() == "tensor(float)[2,3]");
  std::vector<Value> outputs;
  std::vector<NamedValue> one_row{{"a", Value(Tensor::FromVector<float>({1, 3}, {1, 2, 3}))}};
  CHECK_FALSE(session->Run({}, one_row, {}, &outputs).ok());
}

TEST_CASE("A terminated run stops with an error", "[session]") {
  auto session = MakeCpuSession(BatchedAddModel());
  std::atomic<bool> stop{true};
  RunOptions run_options;
  run_options.terminate = &stop;
  std::vector<NamedValue> feeds{{"a", Value(Tensor::FromVector<float>({1, 3}, {1, 2, 3}))}};
  std::vector<Value> outputs;
  CHECK(session->Run(run_options, feeds, {}, &outputs).message().find("terminated") !=
        std::string::npos);
}

TEST_CASE("Initialize requires a model and runs once", "[session]") {
  InferenceSession session;
  CHECK_FALSE(session.Initialize().ok());
  auto ready = MakeCpuSession(BatchedAddModel());
  CHECK_FALSE(ready->Initialize().ok());
}

}  // namespace ort

namespace ort {

TEST_CASE("Outputs come from the CPU arena, and shrinking returns its free regions", "[session]") {
  auto session = MakeCpuSession(BatchedAddModel());
  auto* arena = dynamic_cast<ArenaAllocator*>(session->providers()[0]->allocator().get());
  REQUIRE(arena != nullptr);
  // 2 x 1024 floats: the output occupies one 8 KiB chunk of the arena while the caller holds it.
  std::vector<float> ones(2 * 1024, 1.0f);
  SECTION("bytes in use follow the live output") {
    std::vector<NamedValue> feeds{{"a", Value(Tensor::FromVector<float>(
                                            {2 * 1024 / 3, 3}, {ones.data(), 2 * 1024 / 3 * 3}))}};
    std::vector<Value> outputs;
    REQUIRE(session->Run({}, feeds, {}, &outputs).ok());
    CHECK(session->ArenaBytesInUse() >= outputs[0].tensor().SizeInBytes());
    outputs.clear();
    CHECK(session->ArenaBytesInUse() == 0);
    CHECK(arena->GetStats().total_reserved_bytes > 0);
  }
  SECTION("a shrinking run leaves only what live outputs need") {
    std::vector<NamedValue> feeds{{"a", Value(Tensor::FromVector<float>({1, 3}, {1, 2, 3}))}};
    std::vector<Value> outputs;
    REQUIRE(session->Run({}, feeds, {}, &outputs).ok());
    outputs.clear();
    RunOptions shrink;
    shrink.shrink_arenas = true;
    REQUIRE(session->Run(shrink, feeds, {}, &outputs).ok());
    // The output of the shrinking run is still alive, so its region stays; nothing else does.
    CHECK(arena->GetStats().num_regions == 1);
  }
}

TEST_CASE("Without the arena, tensors come from the plain CPU allocator", "[session]") {
  CpuProviderOptions options;
  options.use_arena = false;
  CpuExecutionProvider provider(options);
  CHECK(dynamic_cast<ArenaAllocator*>(provider.allocator().get()) == nullptr);
}

}  // namespace ort
