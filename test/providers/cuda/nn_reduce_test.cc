// The CUDA pooling, BatchNormalization and Reduce kernels against hand-derived values.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>
#include <vector>

#include "test/providers/cuda/cuda_test_util.h"

namespace ort {
namespace {

Tensor Floats(TensorShape shape, const std::vector<float>& values) {
  return Tensor::FromVector<float>(std::move(shape), std::span<const float>(values));
}

Tensor Halves(TensorShape shape, const std::vector<float>& values) {
  std::vector<Float16> halves;
  for (float value : values) halves.push_back(Float16(value));
  return Tensor::FromVector<Float16>(std::move(shape), std::span<const Float16>(halves));
}

Tensor Int64s(std::vector<int64_t> values) {
  const auto count = static_cast<int64_t>(values.size());
  return Tensor::FromVector<int64_t>(TensorShape{count}, std::span<const int64_t>(values));
}

// Attribute is move-only, so no initializer list.
template <typename... A>
std::vector<Attribute> Attributes(A&&... attributes) {
  std::vector<Attribute> list;
  (list.push_back(std::forward<A>(attributes)), ...);
  return list;
}

// float or float16 outputs, compared in float.
void CheckValues(const Tensor& actual, const TensorShape& shape,
                 const std::vector<float>& expected) {
  REQUIRE(actual.shape() == shape);
  REQUIRE(actual.NumElements() == static_cast<int64_t>(expected.size()));
  for (size_t i = 0; i < expected.size(); ++i) {
    INFO("element " << i);
    const float value = actual.dtype() == DataType::kFloat16
                            ? static_cast<float>(actual.Data<Float16>()[i])
                            : actual.Data<float>()[i];
    CHECK(value == Approx(expected[i]).epsilon(1e-3).margin(1e-4));
  }
}

std::vector<float> Iota(int64_t count, float first) {
  std::vector<float> values;
  for (int64_t i = 0; i < count; ++i) values.push_back(first + static_cast<float>(i));
  return values;
}

}  // namespace

TEST_CASE("MaxPool with Indices and training BatchNormalization stay on the CPU",
          "[cuda][partition]") {
  auto model = EmptyModel(15);
  Graph& graph = model->graph();
  graph.set_inputs({"x", "scale", "bias", "mean", "var"});
  graph.set_outputs({"pooled", "indices", "plain", "normalized", "trained", "running_mean"});
  graph.SetValueType("x", KnownTensorType(DataType::kFloat, {1, 2, 2, 2}));
  for (const char* name : {"scale", "bias", "mean", "var", "running_mean"}) {
    graph.SetValueType(name, KnownTensorType(DataType::kFloat, {2}));
  }
  graph.SetValueType("indices", KnownTensorType(DataType::kInt64, {1, 2, 1, 1}));
  graph.AddNode({"with_indices",
                 "MaxPool",
                 "",
                 {"x"},
                 {"pooled", "indices"},
                 Attributes(Attribute::Ints("kernel_shape", {2, 2}))});
  graph.AddNode({"plain",
                 "MaxPool",
                 "",
                 {"x"},
                 {"plain"},
                 Attributes(Attribute::Ints("kernel_shape", {2, 2}))});
  graph.AddNode({"inference",
                 "BatchNormalization",
                 "",
                 {"x", "scale", "bias", "mean", "var"},
                 {"normalized"},
                 {}});
  graph.AddNode({"training",
                 "BatchNormalization",
                 "",
                 {"x", "scale", "bias", "mean", "var"},
                 {"trained", "running_mean"},
                 Attributes(Attribute::Int("training_mode", 1))});
  PartitionOnCuda(graph);
  CheckOnGpu(graph,
             [](const Node& node) { return node.name() == "plain" || node.name() == "inference"; });
}

TEST_CASE("CUDA MaxPool over windows, strides and ceil_mode", "[cuda][gpu]") {
  if (!HasGpu()) return;
  // 1..16 in a 4x4 plane, 2x2 windows at stride 2: each window's bottom-right value.
  const std::vector<float> plane = Iota(16, 1);
  for (bool half : {false, true}) {
    INFO((half ? "float16" : "float"));
    Tensor x = half ? Halves(TensorShape{1, 1, 4, 4}, plane) : Floats({1, 1, 4, 4}, plane);
    Tensor y = RunOneNode(
        "MaxPool", {{"x", std::move(x)}},
        Attributes(Attribute::Ints("kernel_shape", {2, 2}), Attribute::Ints("strides", {2, 2})));
    CHECK(y.dtype() == (half ? DataType::kFloat16 : DataType::kFloat));
    CheckValues(y, TensorShape{1, 1, 2, 2}, {6, 8, 14, 16});
  }
  // 1-D, kernel 2, stride 2 over 5 values: ceil_mode adds a third window holding only x[4].
  Tensor ceil =
      RunOneNode("MaxPool", {{"x", Floats({1, 1, 5}, {1, 5, 2, 4, 3})}},
                 Attributes(Attribute::Ints("kernel_shape", {2}), Attribute::Ints("strides", {2}),
                            Attribute::Int("ceil_mode", 1)));
  CheckValues(ceil, TensorShape{1, 1, 3}, {5, 4, 3});
  // SAME_UPPER with kernel 3 and dilation 1 on 4 values pads one on each side.
  Tensor same = RunOneNode("MaxPool", {{"x", Floats({1, 1, 4}, {3, 1, 4, 2})}},
                           Attributes(Attribute::Ints("kernel_shape", {3}),
                                      Attribute::String("auto_pad", "SAME_UPPER")));
  CheckValues(same, TensorShape{1, 1, 4}, {3, 4, 4, 4});
}

TEST_CASE("CUDA AveragePool with pads, with and without count_include_pad", "[cuda][gpu]") {
  if (!HasGpu()) return;
  // 1..9 in a 3x3 plane, 2x2 windows at stride 1 with one pad on every side: a 4x4 output whose
  // windows hold 1, 2 or 4 input values and always 4 padded positions.
  const std::vector<float> exclude = {1,   1.5, 2.5, 3,   2.5, 3,   4,   4.5,
                                      5.5, 6,   7,   7.5, 7,   7.5, 8.5, 9};
  const std::vector<float> include = {0.25, 0.75, 1.25, 0.75, 1.25, 3,    4,    2.25,
                                      2.75, 6,    7,    3.75, 1.75, 3.75, 4.25, 2.25};
  for (int64_t count_include_pad : {0, 1}) {
    INFO("count_include_pad " << count_include_pad);
    Tensor y = RunOneNode(
        "AveragePool", {{"x", Floats({1, 1, 3, 3}, Iota(9, 1))}},
        Attributes(Attribute::Ints("kernel_shape", {2, 2}), Attribute::Ints("pads", {1, 1, 1, 1}),
                   Attribute::Int("count_include_pad", count_include_pad)));
    CheckValues(y, TensorShape{1, 1, 4, 4}, count_include_pad != 0 ? include : exclude);
  }
  // 3-D: one 2x2x2 window over 1..8 in float16.
  Tensor cube = RunOneNode("AveragePool", {{"x", Halves({1, 1, 2, 2, 2}, Iota(8, 1))}},
                           Attributes(Attribute::Ints("kernel_shape", {2, 2, 2})));
  CheckValues(cube, TensorShape{1, 1, 1, 1, 1}, {4.5f});
}

TEST_CASE("CUDA GlobalAveragePool and GlobalMaxPool reduce whole planes", "[cuda][gpu]") {
  if (!HasGpu()) return;
  Tensor small =
      RunOneNode("GlobalAveragePool", {{"x", Floats({1, 2, 2, 2}, {1, 2, 3, 4, 10, 20, 30, 40})}});
  CheckValues(small, TensorShape{1, 2, 1, 1}, {2.5f, 25});
  // Two 56x56 planes, more values than a block's threads: plane 0 cycles 0..3 (mean 1.5, max 3),
  // plane 1 cycles -1..-89 (max -1), and its mean is summed here.
  constexpr int64_t kPlane = 56 * 56;
  std::vector<float> values;
  double plane1_sum = 0;
  for (int64_t i = 0; i < kPlane; ++i) values.push_back(static_cast<float>(i % 4));
  for (int64_t i = 0; i < kPlane; ++i) {
    values.push_back(-static_cast<float>(i % 89) - 1);
    plane1_sum += values.back();
  }
  const auto plane1_mean = static_cast<float>(plane1_sum / kPlane);
  Tensor mean = RunOneNode("GlobalAveragePool", {{"x", Floats({1, 2, 56, 56}, values)}});
  CheckValues(mean, TensorShape{1, 2, 1, 1}, {1.5f, plane1_mean});
  Tensor max = RunOneNode("GlobalMaxPool", {{"x", Halves({1, 2, 56, 56}, values)}});
  CheckValues(max, TensorShape{1, 2, 1, 1}, {3, -1});
}

TEST_CASE("CUDA BatchNormalization uses the running statistics", "[cuda][gpu]") {
  if (!HasGpu()) return;
  // Channel 0: (x - 1.5) / sqrt(0.25) -> [-1, 1]; channel 1: (x - 3) / sqrt(4) * 2 + 1 -> [1, 2].
  const std::vector<float> x = {1, 2, 3, 4};
  auto run = [&](Tensor input) {
    return RunOneNode("BatchNormalization",
                      {{"x", std::move(input)},
                       {"scale", Floats({2}, {1, 2})},
                       {"bias", Floats({2}, {0, 1})},
                       {"mean", Floats({2}, {1.5f, 3})},
                       {"var", Floats({2}, {0.25f, 4})}},
                      Attributes(Attribute::Float("epsilon", 0.0f)), 15);
  };
  CheckValues(run(Floats({1, 2, 1, 2}, x)), TensorShape{1, 2, 1, 2}, {-1, 1, 1, 2});
  // float16 data with float parameters (opset 15's T1 and T2).
  Tensor half = run(Halves({1, 2, 1, 2}, x));
  CHECK(half.dtype() == DataType::kFloat16);
  CheckValues(half, TensorShape{1, 2, 1, 2}, {-1, 1, 1, 2});
  // Rank 2: each row is one image of two channels.
  CheckValues(run(Floats({2, 2}, {2, 5, 1, 3})), TensorShape{2, 2}, {1, 3, -1, 1});
}

TEST_CASE("CUDA ReduceMean, ReduceMax and ReduceMin over attribute axes", "[cuda][gpu]") {
  if (!HasGpu()) return;
  const std::vector<float> x = {1, 5, -2, 7, 0, 3};
  Tensor mean = RunOneNode("ReduceMean", {{"x", Floats({2, 3}, {1, 2, 3, 4, 5, 6})}},
                           Attributes(Attribute::Ints("axes", {-1})));
  CheckValues(mean, TensorShape{2, 1}, {2, 5});
  Tensor half_mean = RunOneNode("ReduceMean", {{"x", Halves({2, 3}, {1, 2, 3, 4, 5, 6})}},
                                Attributes(Attribute::Ints("axes", {1})));
  CheckValues(half_mean, TensorShape{2, 1}, {2, 5});
  Tensor max = RunOneNode("ReduceMax", {{"x", Floats({2, 3}, x)}},
                          Attributes(Attribute::Ints("axes", {1}), Attribute::Int("keepdims", 0)));
  CheckValues(max, TensorShape{2}, {5, 7});
  Tensor min = RunOneNode("ReduceMin", {{"x", Floats({2, 3}, x)}},
                          Attributes(Attribute::Ints("axes", {0}), Attribute::Int("keepdims", 0)));
  CheckValues(min, TensorShape{3}, {1, 0, -2});
  // No axes: everything.
  Tensor all = RunOneNode("ReduceMax", {{"x", Floats({2, 3}, x)}});
  CheckValues(all, TensorShape{1, 1}, {7});
}

TEST_CASE("CUDA ReduceSum and the opset-18 reductions take axes as an input", "[cuda][gpu]") {
  if (!HasGpu()) return;
  // x[a][b][c] = 1 + 6a + 2b + c; summing a and c leaves 18 + 8b.
  Tensor sum =
      RunOneNode("ReduceSum", {{"x", Floats({2, 3, 2}, Iota(12, 1))}, {"axes", Int64s({0, 2})}},
                 Attributes(Attribute::Int("keepdims", 0)));
  CheckValues(sum, TensorShape{3}, {18, 26, 34});
  Tensor kept =
      RunOneNode("ReduceSum", {{"x", Halves({2, 3, 2}, Iota(12, 1))}, {"axes", Int64s({2, 0})}});
  CheckValues(kept, TensorShape{1, 3, 1}, {18, 26, 34});
  // Rows longer than a warp: 1000 ones and 1000 twos.
  std::vector<float> rows(2000, 1.0f);
  std::fill(rows.begin() + 1000, rows.end(), 2.0f);
  Tensor long_rows =
      RunOneNode("ReduceSum", {{"x", Floats({2, 1000}, rows)}, {"axes", Int64s({1})}});
  CheckValues(long_rows, TensorShape{2, 1}, {1000, 2000});
  Tensor mean = RunOneNode(
      "ReduceMean", {{"x", Floats({2, 3}, {1, 2, 3, 4, 5, 6})}, {"axes", Int64s({-1})}}, {}, 18);
  CheckValues(mean, TensorShape{2, 1}, {2, 5});
  Tensor squares = RunOneNode("ReduceSumSquare",
                              {{"x", Floats({2, 2}, {3, 4, 6, 8})}, {"axes", Int64s({1})}}, {}, 18);
  CheckValues(squares, TensorShape{2, 1}, {25, 100});
  Tensor norms =
      RunOneNode("ReduceL2", {{"x", Floats({2, 2}, {3, 4, 6, 8})}, {"axes", Int64s({1})}},
                 Attributes(Attribute::Int("keepdims", 0)), 18);
  CheckValues(norms, TensorShape{2}, {5, 10});
  // noop_with_empty_axes without axes reduces each element alone: ReduceSumSquare squares.
  Tensor noop = RunOneNode("ReduceSumSquare", {{"x", Floats({3}, {1, -2, 3})}},
                           Attributes(Attribute::Int("noop_with_empty_axes", 1)), 18);
  CheckValues(noop, TensorShape{3}, {1, 4, 9});
}

TEST_CASE("CUDA reductions of empty sets give ONNX's identities", "[cuda][gpu]") {
  if (!HasGpu()) return;
  Tensor sum = RunOneNode("ReduceSum", {{"x", Floats({0, 3}, {})}, {"axes", Int64s({0})}},
                          Attributes(Attribute::Int("keepdims", 0)));
  CheckValues(sum, TensorShape{3}, {0, 0, 0});
  Tensor max = RunOneNode("ReduceMax", {{"x", Floats({0, 2}, {})}},
                          Attributes(Attribute::Ints("axes", {0}), Attribute::Int("keepdims", 0)));
  REQUIRE(max.shape() == TensorShape({2}));
  CHECK(max.Data<float>()[0] == -std::numeric_limits<float>::infinity());
  CHECK(max.Data<float>()[1] == -std::numeric_limits<float>::infinity());
  Tensor mean = RunOneNode("ReduceMean", {{"x", Floats({0, 2}, {})}},
                           Attributes(Attribute::Ints("axes", {0}), Attribute::Int("keepdims", 0)));
  REQUIRE(mean.shape() == TensorShape({2}));
  CHECK(std::isnan(mean.Data<float>()[0]));
}

}  // namespace ort
