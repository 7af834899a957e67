// GPU tests of Conv/FusedConv (cuDNN), the normalizations, the GELU family and FusedMatMul,
// against hand-derived values (numpy for the GELU constants and the transposed products).
#include <catch2/catch.hpp>

#include <vector>

#include "test/providers/cuda/cuda_test_util.h"

namespace ort {
namespace {

void CheckValues(const Tensor& actual, const std::vector<float>& expected, double margin = 1e-5) {
  REQUIRE(actual.NumElements() == static_cast<int64_t>(expected.size()));
  for (size_t i = 0; i < expected.size(); ++i) {
    INFO("element " << i);
    CHECK(actual.Data<float>()[i] == Approx(expected[i]).margin(margin));
  }
}

Tensor Floats(std::vector<int64_t> dims, std::vector<float> values) {
  return Tensor::FromVector<float>(TensorShape(std::move(dims)), std::move(values));
}

}  // namespace

TEST_CASE("CUDA Conv: bias, asymmetric pads, groups, 1-D", "[cuda][gpu]") {
  if (!HasGpu()) return;
  const Tensor x = Floats({1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  const Tensor ones = Floats({1, 1, 2, 2}, {1, 1, 1, 1});
  // 2x2 window sums of 1..9, plus the bias.
  Tensor plain = RunOneNode("Conv", {{"x", x}, {"w", ones}, {"b", Floats({1}, {1})}});
  REQUIRE(plain.shape() == TensorShape({1, 1, 2, 2}));
  CheckValues(plain, {13, 17, 25, 29});
  // Padding only at the end of each axis: cuDNN sees a zero-padded copy.
  std::vector<Attribute> pads;
  pads.push_back(Attribute::Ints("pads", {0, 0, 1, 1}));
  Tensor padded = RunOneNode("Conv", {{"x", x}, {"w", ones}}, std::move(pads));
  REQUIRE(padded.shape() == TensorShape({1, 1, 3, 3}));
  CheckValues(padded, {12, 16, 9, 24, 28, 15, 15, 17, 9});
  std::vector<Attribute> groups;
  groups.push_back(Attribute::Int("group", 2));
  Tensor grouped =
      RunOneNode("Conv", {{"x", Floats({1, 2, 1, 1}, {1, 2})}, {"w", Floats({2, 1, 1, 1}, {3, 4})}},
                 std::move(groups));
  CheckValues(grouped, {3, 8});
  Tensor line = RunOneNode(
      "Conv", {{"x", Floats({1, 1, 4}, {1, 2, 3, 4})}, {"w", Floats({1, 1, 2}, {1, -1})}});
  REQUIRE(line.shape() == TensorShape({1, 1, 3}));
  CheckValues(line, {-1, -1, -1});
}

TEST_CASE("CUDA FusedConv adds Z and applies the activation", "[cuda][gpu]") {
  if (!HasGpu()) return;
  std::vector<Attribute> attributes;
  attributes.push_back(Attribute::String("activation", "Relu"));
  // relu(window sums + 1 - 20).
  Tensor fused = RunOneNode("com.microsoft:FusedConv",
                            {{"x", Floats({1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9})},
                             {"w", Floats({1, 1, 2, 2}, {1, 1, 1, 1})},
                             {"b", Floats({1}, {1})},
                             {"z", Floats({1, 1, 2, 2}, {-20, -20, -20, -20})}},
                            std::move(attributes));
  CheckValues(fused, {0, 0, 5, 9});
}

TEST_CASE("CUDA LayerNormalization before opset 17 and SkipLayerNormalization", "[cuda][gpu]") {
  if (!HasGpu()) return;
  // A fused LayerNormalization in an opset-14 model.
  Tensor normalized =
      RunOneNode("LayerNormalization",
                 {{"x", Floats({1, 2}, {1, 3})}, {"scale", Floats({2}, {1, 2})}}, {}, 14);
  CheckValues(normalized, {-1, 2}, 1e-4);
  // s = input + skip = [[2, 2], [3, 6]]: a constant row normalizes to beta, the other to -1, 1.
  Tensor skipped = RunOneNode("com.microsoft:SkipLayerNormalization",
                              {{"input", Floats({1, 2, 2}, {1, 2, 3, 5})},
                               {"skip", Floats({1, 2, 2}, {1, 0, 0, 1})},
                               {"gamma", Floats({2}, {1, 1})},
                               {"beta", Floats({2}, {0, 0.5f})}});
  CheckValues(skipped, {0, 0.5f, -1, 1.5f}, 1e-4);
}

TEST_CASE("CUDA GELU family", "[cuda][gpu]") {
  if (!HasGpu()) return;
  const Tensor x = Floats({4}, {1, -1, 0, 2});
  CheckValues(RunOneNode("com.microsoft:Gelu", {{"x", x}}),
              {0.8413447f, -0.1586553f, 0, 1.9544997f});
  CheckValues(RunOneNode("Gelu", {{"x", x}}, {}, 20), {0.8413447f, -0.1586553f, 0, 1.9544997f});
  CheckValues(RunOneNode("com.microsoft:FastGelu", {{"x", x}}),
              {0.8411920f, -0.1588080f, 0, 1.9545977f});
  // gelu(x + bias) with the bias over the last axis.
  CheckValues(RunOneNode("com.microsoft:BiasGelu", {{"x", Floats({2, 2}, {0.5f, -2, 1.5f, 1})},
                                                    {"bias", Floats({2}, {0.5f, 1})}}),
              {0.8413447f, -0.1586553f, 1.9544997f, 1.9544997f});
}

TEST_CASE("CUDA FusedMatMul transposes and scales; batched MatMul", "[cuda][gpu]") {
  if (!HasGpu()) return;
  std::vector<Attribute> attributes;
  attributes.push_back(Attribute::Int("transA", 1));
  attributes.push_back(Attribute::Float("alpha", 2.0f));
  // 2 A^T B with A stored [3, 2].
  Tensor scaled = RunOneNode(
      "com.microsoft:FusedMatMul",
      {{"a", Floats({3, 2}, {1, 2, 3, 4, 5, 6})}, {"b", Floats({3, 2}, {1, 0, 0, 1, 1, 1})}},
      std::move(attributes));
  REQUIRE(scaled.shape() == TensorShape({2, 2}));
  CheckValues(scaled, {12, 16, 16, 20});
  const Tensor a = Floats({2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7});
  const Tensor b = Floats({2, 2, 2}, {2, 3, 0, 1, 6, 7, 4, 5});
  CheckValues(RunOneNode("MatMul", {{"a", a}, {"b", b}}), {0, 1, 4, 9, 44, 53, 64, 77});
  std::vector<Attribute> trans_b;
  trans_b.push_back(Attribute::Int("transB", 1));
  CheckValues(RunOneNode("com.microsoft:FusedMatMul", {{"a", a}, {"b", b}}, std::move(trans_b)),
              {3, 1, 13, 3, 59, 41, 85, 59});
}

}  // namespace ort
