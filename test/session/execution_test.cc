// The executor end to end: memory patterns and in-place outputs in sequential mode, and parallel
// mode, each checked against values computed here with plain loops.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>

#include "lib/ir/model.h"
#include "lib/session/inference_session.h"
#include "providers/cpu/cpu_provider.h"
#include "test/optimizer/optimizer_test_util.h"

namespace ort {
namespace {

using test::MakeCpuSession;

constexpr int64_t kWidth = 32;

ValueType Rows(int64_t width = kWidth) {
  return ValueType::Tensor(DataType::kFloat,
                           SymbolicShape{Dimension::Symbol("batch"), Dimension::Known(width)});
}

std::vector<float> Ramp(size_t count, float scale, float offset) {
  std::vector<float> values(count);
  for (size_t i = 0; i < count; ++i) {
    values[i] = scale * static_cast<float>(static_cast<int>(i % 17) - 8) + offset;
  }
  return values;
}

// Two branches from x [batch, 32]: tanh(relu(x W1)) and sigmoid(x W2), added; the relu result
// is also an output through a Reshape view, which must survive the in-place Tanh after it.
std::unique_ptr<Model> TwoBranchModel() {
  auto model = std::make_unique<Model>();
  model->opsets()[""] = 14;
  model->path = "two_branches";
  Graph& graph = model->graph();
  graph.set_inputs({"x"});
  graph.set_outputs({"y", "relu_flat"});
  graph.SetValueType("x", Rows());
  for (const char* name : {"m1", "r1", "t1", "m2", "s2", "y"}) graph.SetValueType(name, Rows());
  const auto w1 = Ramp(kWidth * kWidth, 0.01f, 0.0f);
  const auto w2 = Ramp(kWidth * kWidth, -0.02f, 0.01f);
  graph.AddInitializer("w1", Tensor::FromVector<float>({kWidth, kWidth}, w1));
  graph.AddInitializer("w2", Tensor::FromVector<float>({kWidth, kWidth}, w2));
  graph.AddInitializer("flat", Tensor::FromVector<int64_t>({1}, {-1}));
  graph.AddNode({"matmul1", "MatMul", "", {"x", "w1"}, {"m1"}, {}});
  graph.AddNode({"relu1", "Relu", "", {"m1"}, {"r1"}, {}});
  graph.AddNode({"flatten_relu", "Reshape", "", {"r1", "flat"}, {"relu_flat"}, {}});
  graph.AddNode({"tanh1", "Tanh", "", {"r1"}, {"t1"}, {}});
  graph.AddNode({"matmul2", "MatMul", "", {"x", "w2"}, {"m2"}, {}});
  graph.AddNode({"sigmoid2", "Sigmoid", "", {"m2"}, {"s2"}, {}});
  graph.AddNode({"join", "Add", "", {"t1", "s2"}, {"y"}, {}});
  graph.ResolveOuterScope();
  return model;
}

struct Expected {
  std::vector<float> y;
  std::vector<float> relu;
};

Expected Compute(const std::vector<float>& x, int64_t batch) {
  const auto w1 = Ramp(kWidth * kWidth, 0.01f, 0.0f);
  const auto w2 = Ramp(kWidth * kWidth, -0.02f, 0.01f);
  Expected expected;
  for (int64_t r = 0; r < batch; ++r) {
    for (int64_t c = 0; c < kWidth; ++c) {
      double m1 = 0, m2 = 0;
      for (int64_t k = 0; k < kWidth; ++k) {
        m1 += double(x[r * kWidth + k]) * w1[k * kWidth + c];
        m2 += double(x[r * kWidth + k]) * w2[k * kWidth + c];
      }
      const double relu = std::max(m1, 0.0);
      expected.relu.push_back(static_cast<float>(relu));
      expected.y.push_back(static_cast<float>(std::tanh(relu) + 1.0 / (1.0 + std::exp(-m2))));
    }
  }
  return expected;
}

std::vector<Value> RunBatch(const InferenceSession& session, int64_t batch) {
  const auto x = Ramp(static_cast<size_t>(batch * kWidth), 0.1f, 0.05f * static_cast<float>(batch));
  std::vector<NamedValue> feeds{{"x", Value(Tensor::FromVector<float>({batch, kWidth}, x))}};
  std::vector<Value> outputs;
  Status status = session.Run({}, feeds, {}, &outputs);
  INFO(status.ToString());
  REQUIRE(status.ok());
  return outputs;
}

void CheckBatch(const std::vector<Value>& outputs, int64_t batch) {
  const auto x = Ramp(static_cast<size_t>(batch * kWidth), 0.1f, 0.05f * static_cast<float>(batch));
  const Expected expected = Compute(x, batch);
  REQUIRE(outputs.size() == 2);
  REQUIRE(outputs[0].tensor().shape() == TensorShape({batch, kWidth}));
  REQUIRE(outputs[1].tensor().shape() == TensorShape({batch * kWidth}));
  const float* y = outputs[0].tensor().Data<float>();
  const float* relu = outputs[1].tensor().Data<float>();
  for (size_t i = 0; i < expected.y.size(); ++i) {
    INFO("element " << i);
    CHECK(y[i] == Approx(expected.y[i]).margin(1e-5));
    CHECK(relu[i] == Approx(expected.relu[i]).margin(1e-5));
  }
}

bool SameBits(const Value& a, const Value& b) {
  const Tensor& ta = a.tensor();
  const Tensor& tb = b.tensor();
  return ta.shape() == tb.shape() && ta.dtype() == tb.dtype() &&
         std::memcmp(ta.RawData(), tb.RawData(), ta.SizeInBytes()) == 0;
}

}  // namespace

TEST_CASE("Sequential runs plan in-place outputs and reuse a memory pattern per input shape",
          "[session][execution]") {
  SessionOptions options;
  options.intra_op_threads = 1;
  auto session = MakeCpuSession(TwoBranchModel(), options);
  const SessionState& state = *session->state();
  // Tanh over Relu's result and Sigmoid over m2 are planned in place; the Reshape view of the
  // relu result makes Tanh's reuse unsafe at run time, which the executor must notice.
  CHECK(state.allocation_plan().in_place.size() >= 2);
  CHECK(state.MemoryPatternCount() == 0);

  CheckBatch(RunBatch(*session, 2), 2);
  CHECK(state.MemoryPatternCount() == 1);
  CheckBatch(RunBatch(*session, 2), 2);  // placed by the pattern
  CHECK(state.MemoryPatternCount() == 1);
  CheckBatch(RunBatch(*session, 5), 5);  // new shapes: a run without, then a new pattern
  CHECK(state.MemoryPatternCount() == 2);
  CheckBatch(RunBatch(*session, 5), 5);
  CheckBatch(RunBatch(*session, 2), 2);
  CHECK(state.MemoryPatternCount() == 2);
}

TEST_CASE("Without memory patterns every run allocates on its own", "[session][execution]") {
  SessionOptions options;
  options.enable_mem_pattern = false;
  auto session = MakeCpuSession(TwoBranchModel(), options);
  CheckBatch(RunBatch(*session, 3), 3);
  CheckBatch(RunBatch(*session, 3), 3);
  CHECK(session->state()->MemoryPatternCount() == 0);
}

TEST_CASE("Parallel mode gives the sequential results bit for bit", "[session][execution]") {
  SessionOptions sequential_options;
  sequential_options.intra_op_threads = 1;
  auto sequential = MakeCpuSession(TwoBranchModel(), sequential_options);
  SessionOptions parallel_options = sequential_options;
  parallel_options.execution_mode = ExecutionMode::kParallel;
  parallel_options.inter_op_threads = 2;
  auto parallel = MakeCpuSession(TwoBranchModel(), parallel_options);
  CHECK(parallel->state()->MemoryPatternCount() == 0);

  const auto reference = RunBatch(*sequential, 4);
  CheckBatch(reference, 4);
  for (int repeat = 0; repeat < 50; ++repeat) {
    const auto outputs = RunBatch(*parallel, 4);
    REQUIRE(SameBits(outputs[0], reference[0]));
    REQUIRE(SameBits(outputs[1], reference[1]));
  }
  CHECK(parallel->state()->MemoryPatternCount() == 0);
}

TEST_CASE("A failing node in parallel mode fails the run with its name", "[session][execution]") {
  auto model = std::make_unique<Model>();
  model->opsets()[""] = 14;
  Graph& graph = model->graph();
  graph.set_inputs({"x", "shape"});
  graph.set_outputs({"a", "b"});
  graph.AddNode({"fine", "Relu", "", {"x"}, {"a"}, {}});
  graph.AddNode({"bad_reshape", "Reshape", "", {"x", "shape"}, {"b"}, {}});
  graph.ResolveOuterScope();
  SessionOptions options;
  options.execution_mode = ExecutionMode::kParallel;
  options.inter_op_threads = 2;
  InferenceSession session(options);
  REQUIRE(session.RegisterProvider(std::make_unique<CpuExecutionProvider>()).ok());
  REQUIRE(session.Load(std::move(model)).ok());
  REQUIRE(session.Initialize().ok());
  std::vector<NamedValue> feeds{{"x", Value(Tensor::FromVector<float>({2, 3}, {1, 2, 3, 4, 5, 6}))},
                                {"shape", Value(Tensor::FromVector<int64_t>({1}, {4}))}};
  std::vector<Value> outputs;
  const Status status = session.Run({}, feeds, {}, &outputs);
  REQUIRE_FALSE(status.ok());
  CHECK(status.message().find("bad_reshape") != std::string::npos);
  feeds[1].second = Value(Tensor::FromVector<int64_t>({1}, {6}));
  REQUIRE(session.Run({}, feeds, {}, &outputs).ok());
  CHECK(outputs[1].tensor().shape() == TensorShape({6}));
}

TEST_CASE("Dynamic values of different shapes but equal symbolic sizes share a buffer",
          "[session][execution]") {
  // relu(x) [batch,seq,8] -> [8,batch,seq] -> [seq,8,batch] -> y [batch,seq,8]: the third value
  // fits where the first one lived, although no two of the three shapes are spelled alike.
  auto model = std::make_unique<Model>();
  model->opsets()[""] = 14;
  Graph& graph = model->graph();
  graph.set_inputs({"x"});
  graph.set_outputs({"y"});
  const auto shape = [](std::vector<Dimension> dims) {
    return ValueType::Tensor(DataType::kFloat, SymbolicShape(std::move(dims)));
  };
  const Dimension batch = Dimension::Symbol("batch"), seq = Dimension::Symbol("seq");
  const Dimension eight = Dimension::Known(8);
  graph.SetValueType("x", shape({batch, seq, eight}));
  graph.SetValueType("a", shape({batch, seq, eight}));
  graph.SetValueType("b", shape({eight, batch, seq}));
  graph.SetValueType("c", shape({seq, eight, batch}));
  graph.SetValueType("y", shape({batch, seq, eight}));
  const auto rotate = [] {
    std::vector<Attribute> attributes;
    attributes.push_back(Attribute::Ints("perm", {2, 0, 1}));
    return attributes;
  };
  graph.AddNode({"relu", "Relu", "", {"x"}, {"a"}, {}});
  graph.AddNode({"rotate1", "Transpose", "", {"a"}, {"b"}, rotate()});
  graph.AddNode({"rotate2", "Transpose", "", {"b"}, {"c"}, rotate()});
  graph.AddNode({"rotate3", "Transpose", "", {"c"}, {"y"}, rotate()});
  graph.ResolveOuterScope();
  SessionOptions options;
  options.optimization_level = OptimizationLevel::kDisable;
  options.intra_op_threads = 1;
  auto session = MakeCpuSession(std::move(model), options);
  CHECK(session->state()->allocation_plan().CountBuffers(PlannedBuffer::Kind::kShared) == 2);

  for (int run = 0; run < 2; ++run) {  // without, then with the memory pattern
    const std::vector<float> x = Ramp(3 * 5 * 8, 0.5f, 0.25f);
    std::vector<NamedValue> feeds{{"x", Value(Tensor::FromVector<float>({3, 5, 8}, x))}};
    std::vector<Value> outputs;
    REQUIRE(session->Run({}, feeds, {}, &outputs).ok());
    REQUIRE(outputs[0].tensor().shape() == TensorShape({3, 5, 8}));
    const float* y = outputs[0].tensor().Data<float>();
    for (size_t i = 0; i < x.size(); ++i) CHECK(y[i] == std::max(x[i], 0.0f));
  }
}

}  // namespace ort
