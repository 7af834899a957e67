#include "providers/cuda/cuda_provider.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "lib/ir/model.h"
#include "lib/optimizer/graph_optimizer.h"
#include "lib/session/inference_session.h"
#include "lib/session/memcpy_insertion.h"
#include "providers/cpu/cpu_provider.h"
#include "test/providers/cuda/cuda_test_util.h"

namespace ort {
namespace {

// x -> Sin (CPU: no CUDA kernel) -> c -> Relu -> r -> Add(r, bias) -> y -> Reshape -> z, the
// last three on the GPU.
std::unique_ptr<Model> SinReluAddModel() {
  auto model = EmptyModel();
  Graph& graph = model->graph();
  graph.set_inputs({"x"});
  graph.set_outputs({"z"});
  graph.SetValueType("x", KnownTensorType(DataType::kFloat, {1, 1, 2, 2}));
  graph.AddInitializer("bias", Tensor::FromVector<float>(TensorShape{1}, {-1.0f}));
  graph.AddInitializer("shape", Tensor::FromVector<int64_t>(TensorShape{1}, {4}));
  graph.AddNode({"sin", "Sin", "", {"x"}, {"c"}, {}});
  graph.AddNode({"relu", "Relu", "", {"c"}, {"r"}, {}});
  graph.AddNode({"add", "Add", "", {"r", "bias"}, {"y"}, {}});
  graph.AddNode({"reshape", "Reshape", "", {"y", "shape"}, {"z"}, {}});
  graph.ResolveOuterScope();
  return model;
}

}  // namespace

TEST_CASE("The CUDA provider claims what its kernels serve, with or without a device",
          "[cuda][partition]") {
  auto model = SinReluAddModel();
  CudaWithCpuFallback providers;
  PartitionOnCuda(model->graph(), &providers);
  CheckOnGpu(model->graph(), [](const Node& node) { return node.op_type() != "Sin"; });
  auto counts = InsertMemcpyNodes(model->graph(), providers.providers());
  REQUIRE(counts.ok());
  // c goes up on every run and the bias once; z, the graph output, comes down. Reshape's shape
  // stays on the host.
  CHECK(counts->to_device == 1);
  CHECK(counts->weights == 1);
  CHECK(counts->to_host == 1);
  const Node* reshape = nullptr;
  for (const Node* node : model->graph().Nodes()) {
    if (node->op_type() == "Reshape") reshape = node;
  }
  REQUIRE(reshape != nullptr);
  CHECK(reshape->inputs()[1] == "shape");
  CHECK(providers.cuda.allocator()->Info().ToString() == "gpu:0");
}

TEST_CASE("Fusions into ops the CUDA provider runs serve it; CPU-only ones do not",
          "[cuda][optimizer]") {
  // y = Relu(Gemm(Relu(Conv(x, w)), b)): Conv + Relu becomes FusedConv (a CUDA kernel), Gemm +
  // Relu stays apart (FusedGemm is CPU-only, as in ONNX Runtime), nothing goes NCHWc.
  Model model;
  model.opsets()[""] = 17;
  Graph& graph = model.graph();
  graph.set_inputs({"x"});
  graph.set_outputs({"y"});
  graph.SetValueType("x", KnownTensorType(DataType::kFloat, {1, 8, 1, 1}));
  graph.AddInitializer(
      "w", Tensor::FromVector<float>(TensorShape{8, 8, 1, 1}, std::vector<float>(64, 0.5f)));
  graph.AddInitializer("shape", Tensor::FromVector<int64_t>(TensorShape{2}, {1, 8}));
  graph.AddInitializer("b",
                       Tensor::FromVector<float>(TensorShape{8, 4}, std::vector<float>(32, 0.25f)));
  graph.AddNode({"conv", "Conv", "", {"x", "w"}, {"c"}, {}});
  graph.AddNode({"relu1", "Relu", "", {"c"}, {"r"}, {}});
  graph.AddNode({"flat", "Reshape", "", {"r", "shape"}, {"f"}, {}});
  graph.AddNode({"gemm", "Gemm", "", {"f", "b"}, {"g"}, {}});
  graph.AddNode({"relu2", "Relu", "", {"g"}, {"y"}, {}});
  graph.ResolveOuterScope();
  CudaWithCpuFallback providers;
  REQUIRE(OptimizeGraph(model, {.level = OptimizationLevel::kAll, .strict = true},
                        providers.providers())
              .ToString() == "OK");
  std::vector<std::string> ops;
  for (const Node* node : graph.Nodes()) ops.push_back(node->op_type());
  std::sort(ops.begin(), ops.end());
  CHECK(ops == std::vector<std::string>{"FusedConv", "Gemm", "Relu", "Reshape"});
  PartitionOnCuda(graph, &providers);
  CheckOnGpu(graph, [](const Node&) { return true; });
}

TEST_CASE("Matrix precision names", "[cuda]") {
  CHECK(*ParseMatrixPrecision("fp32") == MatrixPrecision::kFp32);
  CHECK(*ParseMatrixPrecision("bf16") == MatrixPrecision::kBf16);
  CHECK_FALSE(ParseMatrixPrecision("fp8").ok());
  CudaProviderOptions options;
  options.precision = MatrixPrecision::kTf32;
  CudaExecutionProvider cuda(options);
  CHECK(cuda.FloatGemmComputeType() == CUBLAS_COMPUTE_32F_FAST_TF32);
  CHECK(cuda.FloatConvMathType() == CUDNN_TENSOR_OP_MATH);
  CHECK(CudaExecutionProvider().FloatGemmComputeType() == CUBLAS_COMPUTE_32F);
  CHECK(CudaExecutionProvider().FloatConvMathType() == CUDNN_FMA_MATH);
}

TEST_CASE("Shape arithmetic stays on the host without copies", "[cuda][partition]") {
  // y = Reshape(Relu(x), Concat(Gather(Shape(x), [0]), [-1])).
  auto model = EmptyModel();
  Graph& graph = model->graph();
  graph.set_inputs({"x"});
  graph.set_outputs({"y"});
  graph.SetValueType("x", KnownTensorType(DataType::kFloat, {2, 3}));
  graph.AddInitializer("first", Tensor::FromVector<int64_t>(TensorShape{1}, {0}));
  graph.AddInitializer("rest", Tensor::FromVector<int64_t>(TensorShape{1}, {-1}));
  graph.AddNode({"relu", "Relu", "", {"x"}, {"r"}, {}});
  graph.AddNode({"shape", "Shape", "", {"x"}, {"s"}, {}});
  graph.AddNode({"gather", "Gather", "", {"s", "first"}, {"g"}, {}});
  graph.AddNode({"concat", "Concat", "", {"g", "rest"}, {"dims"}, {}})
      .SetAttribute(Attribute::Int("axis", 0));
  graph.AddNode({"reshape", "Reshape", "", {"r", "dims"}, {"y"}, {}});
  CudaWithCpuFallback providers;
  PartitionOnCuda(graph, &providers);
  CheckOnGpu(graph, [](const Node& node) {
    return node.op_type() == "Relu" || node.op_type() == "Reshape";
  });
  auto counts = InsertMemcpyNodes(graph, providers.providers());
  REQUIRE(counts.ok());
  CHECK(counts->to_device == 1);  // x for Relu
  CHECK(counts->to_host == 1);    // y
}

TEST_CASE("Nodes whose results only the host reads stay on the host", "[cuda][partition]") {
  // y = Expand(Relu(x), Cast(dims, int64)): Cast reads a graph input and only Expand's host
  // shape input reads it, so it runs on the host; a lone Cast whose result is a graph output
  // stays on the device.
  auto model = std::make_unique<Model>();
  model->opsets()[""] = 17;
  Graph& graph = model->graph();
  graph.set_inputs({"x", "dims"});
  graph.set_outputs({"y", "z"});
  graph.SetValueType("x", ValueType::Tensor(DataType::kFloat, SymbolicShape{Dimension::Known(2)}));
  graph.SetValueType("dims",
                     ValueType::Tensor(DataType::kInt32, SymbolicShape{Dimension::Known(2)}));
  graph.AddNode({"relu", "Relu", "", {"x"}, {"r"}, {}});
  graph.AddNode({"cast", "Cast", "", {"dims"}, {"shape"}, {}})
      .SetAttribute(Attribute::Int("to", static_cast<int64_t>(DataType::kInt64)));
  graph.AddNode({"expand", "Expand", "", {"r", "shape"}, {"y"}, {}});
  graph.AddNode({"cast_out", "Cast", "", {"dims"}, {"z"}, {}})
      .SetAttribute(Attribute::Int("to", static_cast<int64_t>(DataType::kFloat)));
  CudaWithCpuFallback providers;
  PartitionOnCuda(graph, &providers);
  CheckOnGpu(graph, [](const Node& node) { return node.name() != "cast"; });
  auto counts = InsertMemcpyNodes(graph, providers.providers());
  REQUIRE(counts.ok());
  CHECK(counts->to_device == 2);  // x for Relu, dims for cast_out
  CHECK(counts->to_host == 2);    // y and z
}

TEST_CASE("Type constraints keep other element types on the CPU", "[cuda][partition]") {
  auto model = EmptyModel();
  Graph& graph = model->graph();
  graph.set_inputs({"a", "b"});
  graph.set_outputs({"c"});
  const auto int_type = KnownTensorType(DataType::kInt64, {2});
  graph.SetValueType("a", int_type);
  graph.SetValueType("b", int_type);
  graph.AddNode({"add", "Add", "", {"a", "b"}, {"c"}, {}});
  PartitionOnCuda(graph);
  CHECK(graph.Nodes()[0]->provider() == "cpu");
}

TEST_CASE("Creating the CUDA provider without a device fails with the reason", "[cuda]") {
  auto created = CreateCudaProvider({});
  if (HasGpu()) {
    CHECK(created.ok());
  } else {
    REQUIRE_FALSE(created.ok());
    CHECK_THAT(created.status().message(), Catch::Contains("the CUDA provider cannot run here"));
  }
}

TEST_CASE("A model runs across the GPU and the CPU", "[cuda][gpu]") {
  if (!HasGpu()) return;
  InferenceSession session;
  auto cuda = CreateCudaProvider({});
  REQUIRE(cuda.ok());
  REQUIRE(session.RegisterProvider(std::move(cuda).value()).ok());
  REQUIRE(session.RegisterProvider(std::make_unique<CpuExecutionProvider>()).ok());
  REQUIRE(session.Load(SinReluAddModel()).ok());
  REQUIRE(session.Initialize().ToString() == "OK");
  std::vector<NamedValue> feeds;
  feeds.emplace_back(
      "x", Value(Tensor::FromVector<float>(TensorShape{1, 1, 2, 2}, {-1.0f, 0.5f, 2.0f, -3.0f})));
  std::vector<Value> outputs;
  REQUIRE(session.Run(RunOptions{}, feeds, {}, &outputs).ToString() == "OK");
  // relu(sin x) - 1.
  const Tensor& z = outputs[0].tensor();
  REQUIRE(z.shape() == TensorShape({4}));
  const float expected[] = {-1.0f, std::sin(0.5f) - 1.0f, std::sin(2.0f) - 1.0f, -1.0f};
  for (int i = 0; i < 4; ++i) CHECK(z.Data<float>()[i] == Approx(expected[i]));
}

TEST_CASE("CUDA elementwise kernels broadcast like numpy", "[cuda][gpu]") {
  if (!HasGpu()) return;
  // [2, 3] + [3] and [2, 1] * [1, 3], hand-derived.
  Tensor sum =
      RunOneNode("Add", {{"a", Tensor::FromVector<float>(TensorShape{2, 3}, {1, 2, 3, 4, 5, 6})},
                         {"b", Tensor::FromVector<float>(TensorShape{3}, {10, 20, 30})}});
  const float sums[] = {11, 22, 33, 14, 25, 36};
  for (int i = 0; i < 6; ++i) CHECK(sum.Data<float>()[i] == sums[i]);
  Tensor product =
      RunOneNode("Mul", {{"a", Tensor::FromVector<float>(TensorShape{2, 1}, {2, 3})},
                         {"b", Tensor::FromVector<float>(TensorShape{1, 3}, {1, 10, 100})}});
  REQUIRE(product.shape() == TensorShape({2, 3}));
  const float products[] = {2, 20, 200, 3, 30, 300};
  for (int i = 0; i < 6; ++i) CHECK(product.Data<float>()[i] == products[i]);
  // sigmoid(0) = 0.5, sigmoid(2) = 0.880797 in float16.
  Tensor sigmoid = RunOneNode(
      "Sigmoid",
      {{"x", Tensor::FromVector<Float16>(TensorShape{2}, {Float16(0.0f), Float16(2.0f)})}});
  CHECK(static_cast<float>(sigmoid.Data<Float16>()[0]) == 0.5f);
  CHECK(static_cast<float>(sigmoid.Data<Float16>()[1]) == Approx(0.880797f).epsilon(1e-3));
}

TEST_CASE("CUDA MatMul and Gemm match hand-computed products", "[cuda][gpu]") {
  if (!HasGpu()) return;
  // Two [2, 3] matrices times one [3, 2]: one GEMM over the folded batch.
  Tensor folded = RunOneNode(
      "MatMul",
      {{"a", Tensor::FromVector<float>(TensorShape{2, 2, 3}, {1, 2, 3, 4, 5, 6, 1, 0, 0, 0, 1, 0})},
       {"b", Tensor::FromVector<float>(TensorShape{3, 2}, {1, 0, 0, 1, 1, 1})}});
  const float folded_expected[] = {4, 5, 10, 11, 1, 0, 0, 1};
  for (int i = 0; i < 8; ++i) CHECK(folded.Data<float>()[i] == folded_expected[i]);
  // Per-batch B: [2, 1, 2] x [2, 2, 1].
  Tensor batched =
      RunOneNode("MatMul", {{"a", Tensor::FromVector<float>(TensorShape{2, 1, 2}, {1, 2, 3, 4})},
                            {"b", Tensor::FromVector<float>(TensorShape{2, 2, 1}, {5, 6, 7, 8})}});
  CHECK(batched.Data<float>()[0] == 17.0f);
  CHECK(batched.Data<float>()[1] == 53.0f);
  // Gemm: 2 * A B^T + 0.5 * c, with A [1, 2], B [3, 2] and c [3].
  std::vector<Attribute> attributes;
  attributes.push_back(Attribute::Int("transB", 1));
  attributes.push_back(Attribute::Float("alpha", 2.0f));
  attributes.push_back(Attribute::Float("beta", 0.5f));
  Tensor gemm = RunOneNode("Gemm",
                           {{"a", Tensor::FromVector<float>(TensorShape{1, 2}, {1, 2})},
                            {"b", Tensor::FromVector<float>(TensorShape{3, 2}, {1, 0, 0, 1, 1, 1})},
                            {"c", Tensor::FromVector<float>(TensorShape{3}, {2, 4, 6})}},
                           std::move(attributes));
  const float gemm_expected[] = {3, 6, 9};
  for (int i = 0; i < 3; ++i) CHECK(gemm.Data<float>()[i] == gemm_expected[i]);
}

TEST_CASE("CUDA Transpose, Expand and Softmax", "[cuda][gpu]") {
  if (!HasGpu()) return;
  Tensor transposed = RunOneNode(
      "Transpose", {{"x", Tensor::FromVector<int64_t>(TensorShape{2, 3}, {1, 2, 3, 4, 5, 6})}});
  REQUIRE(transposed.shape() == TensorShape({3, 2}));
  const int64_t transposed_expected[] = {1, 4, 2, 5, 3, 6};
  for (int i = 0; i < 6; ++i) CHECK(transposed.Data<int64_t>()[i] == transposed_expected[i]);
  Tensor expanded =
      RunOneNode("Expand", {{"x", Tensor::FromVector<float>(TensorShape{2, 1}, {7, 8})},
                            {"shape", Tensor::FromVector<int64_t>(TensorShape{3}, {2, 2, 3})}});
  REQUIRE(expanded.shape() == TensorShape({2, 2, 3}));
  const float expanded_expected[] = {7, 7, 7, 8, 8, 8, 7, 7, 7, 8, 8, 8};
  for (int i = 0; i < 12; ++i) CHECK(expanded.Data<float>()[i] == expanded_expected[i]);
  // softmax([0, ln 2, ln 3]) = [1, 2, 3] / 6 on each row.
  const float ln2 = std::log(2.0f), ln3 = std::log(3.0f);
  Tensor softmax = RunOneNode(
      "Softmax", {{"x", Tensor::FromVector<float>(TensorShape{2, 3}, {0, ln2, ln3, ln3, 0, ln2})}});
  const float softmax_expected[] = {1, 2, 3, 3, 1, 2};
  for (int i = 0; i < 6; ++i) {
    CHECK(softmax.Data<float>()[i] == Approx(softmax_expected[i] / 6.0f));
  }
}

TEST_CASE("CUDA LayerNormalization, Gather and Concat", "[cuda][gpu]") {
  if (!HasGpu()) return;
  // Row [1, 2, 3, 4]: mean 2.5, variance 1.25; a constant row normalizes to 0.
  Tensor normalized =
      RunOneNode("LayerNormalization",
                 {{"x", Tensor::FromVector<float>(TensorShape{2, 4}, {1, 2, 3, 4, 2, 2, 2, 2})},
                  {"scale", Tensor::FromVector<float>(TensorShape{4}, {1, 1, 1, 1})},
                  {"bias", Tensor::FromVector<float>(TensorShape{4}, {0, 0, 0, 1})}});
  const float inverse = 1.0f / std::sqrt(1.25f + 1e-5f);
  const float normalized_expected[] = {
      -1.5f * inverse, -0.5f * inverse, 0.5f * inverse, 1.5f * inverse + 1, 0, 0, 0, 1};
  for (int i = 0; i < 8; ++i) {
    CHECK(normalized.Data<float>()[i] == Approx(normalized_expected[i]).margin(1e-5));
  }
  // Rows 0 and -1 (= 2) of a [3, 2] table.
  Tensor gathered = RunOneNode(
      "Gather", {{"data", Tensor::FromVector<int64_t>(TensorShape{3, 2}, {1, 2, 3, 4, 5, 6})},
                 {"indices", Tensor::FromVector<int64_t>(TensorShape{2}, {0, -1})}});
  REQUIRE(gathered.shape() == TensorShape({2, 2}));
  const int64_t gathered_expected[] = {1, 2, 5, 6};
  for (int i = 0; i < 4; ++i) CHECK(gathered.Data<int64_t>()[i] == gathered_expected[i]);
  std::vector<Attribute> axis;
  axis.push_back(Attribute::Int("axis", 1));
  Tensor joined = RunOneNode("Concat",
                             {{"a", Tensor::FromVector<float>(TensorShape{2, 1}, {1, 4})},
                              {"b", Tensor::FromVector<float>(TensorShape{2, 2}, {2, 3, 5, 6})}},
                             std::move(axis));
  REQUIRE(joined.shape() == TensorShape({2, 3}));
  for (int i = 0; i < 6; ++i) CHECK(joined.Data<float>()[i] == static_cast<float>(i + 1));
}

}  // namespace ort
