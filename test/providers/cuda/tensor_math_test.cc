// CUDA Cast, CastLike, Slice, Where, Pow and Clip against hand-derived values, and which of their
// nodes the CUDA provider claims (checked without a device).
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "test/providers/cuda/cuda_test_util.h"

namespace ort {
namespace {

std::vector<Attribute> CastTo(DataType type) {
  std::vector<Attribute> attributes;
  attributes.push_back(Attribute::Int("to", static_cast<int64_t>(type)));
  return attributes;
}

ValueType TensorOf(DataType type) { return KnownTensorType(type, {2, 3}); }

}  // namespace

TEST_CASE("The CUDA provider claims Cast, Slice, Where, Pow and Clip of the types it serves",
          "[cuda][partition]") {
  auto model = EmptyModel();
  Graph& graph = model->graph();
  graph.set_inputs({"x", "condition", "half"});
  graph.set_outputs({"as_int", "as_text", "sliced", "selected", "power", "mixed_power", "clipped"});
  graph.SetValueType("x", TensorOf(DataType::kFloat));
  graph.SetValueType("condition", TensorOf(DataType::kBool));
  graph.SetValueType("half", TensorOf(DataType::kFloat16));
  // The Cast outputs' types, as type inference records them.
  graph.SetValueType("as_int", TensorOf(DataType::kInt64));
  graph.SetValueType("as_text", TensorOf(DataType::kString));
  graph.AddInitializer("starts", Tensor::FromVector<int64_t>(TensorShape{1}, {1}));
  graph.AddInitializer("ends", Tensor::FromVector<int64_t>(TensorShape{1}, {2}));
  graph.AddNode({"cast_int", "Cast", "", {"x"}, {"as_int"}, CastTo(DataType::kInt64)});
  graph.AddNode({"cast_text", "Cast", "", {"x"}, {"as_text"}, CastTo(DataType::kString)});
  graph.AddNode({"slice", "Slice", "", {"x", "starts", "ends"}, {"sliced"}, {}});
  graph.AddNode({"where", "Where", "", {"condition", "x", "x"}, {"selected"}, {}});
  graph.AddNode({"pow", "Pow", "", {"x", "x"}, {"power"}, {}});
  // A float base with a float16 exponent (opset 12+) is not a pair the GPU kernel serves.
  graph.AddNode({"mixed_pow", "Pow", "", {"x", "half"}, {"mixed_power"}, {}});
  graph.AddNode({"clip", "Clip", "", {"x"}, {"clipped"}, {}});
  PartitionOnCuda(graph);
  CheckOnGpu(graph, [](const Node& node) {
    return node.name() != "cast_text" && node.name() != "mixed_pow";
  });
}

TEST_CASE("CUDA Cast converts like the CPU kernel", "[cuda][gpu]") {
  if (!HasGpu()) return;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // Truncation toward zero, NaN to 0.
  Tensor truncated = RunOneNode(
      "Cast",
      {{"x", Tensor::FromVector<float>(TensorShape{6}, {-2.7f, -0.5f, 0, 1.9f, 3e9f, nan})}},
      CastTo(DataType::kInt64));
  REQUIRE(truncated.dtype() == DataType::kInt64);
  const int64_t truncated_expected[] = {-2, 0, 0, 1, 3000000000, 0};
  for (int i = 0; i < 6; ++i) CHECK(truncated.Data<int64_t>()[i] == truncated_expected[i]);
  // Beyond int8's range the value wraps: 300 = 256 + 44.
  Tensor wrapped =
      RunOneNode("Cast", {{"x", Tensor::FromVector<float>(TensorShape{2}, {300.7f, -1.5f})}},
                 CastTo(DataType::kInt8));
  CHECK(wrapped.Data<int8_t>()[0] == 44);
  CHECK(wrapped.Data<int8_t>()[1] == -1);
  // 2^24 + 1 rounds to 2^24 in float.
  Tensor widened = RunOneNode(
      "Cast",
      {{"x", Tensor::FromVector<int64_t>(TensorShape{4}, {-3, 0, 16777217, int64_t{1} << 40})}},
      CastTo(DataType::kFloat));
  const float widened_expected[] = {-3.0f, 0.0f, 16777216.0f, 1099511627776.0f};
  for (int i = 0; i < 4; ++i) CHECK(widened.Data<float>()[i] == widened_expected[i]);
  // Rounded to nearest even once; 1e5 overflows float16 to infinity.
  const float to_half[] = {1.0f, 0.1f, -65504.0f, 1e5f};
  Tensor halves =
      RunOneNode("Cast",
                 {{"x", Tensor::FromVector<float>(
                            TensorShape{4}, {to_half[0], to_half[1], to_half[2], to_half[3]})}},
                 CastTo(DataType::kFloat16));
  REQUIRE(halves.dtype() == DataType::kFloat16);
  for (int i = 0; i < 4; ++i) CHECK(halves.Data<Float16>()[i].bits == Float16(to_half[i]).bits);
  CHECK(std::isinf(static_cast<float>(halves.Data<Float16>()[3])));
  // Anything nonzero, NaN included, is true.
  Tensor truth = RunOneNode(
      "Cast", {{"x", Tensor::FromVector<float>(TensorShape{4}, {0.0f, -0.0f, 0.25f, nan})}},
      CastTo(DataType::kBool));
  const bool truth_expected[] = {false, false, true, true};
  for (int i = 0; i < 4; ++i) CHECK(truth.Data<bool>()[i] == truth_expected[i]);
  // CastLike takes the second input's type.
  Tensor like =
      RunOneNode("CastLike", {{"x", Tensor::FromVector<int32_t>(TensorShape{2}, {7, -7})},
                              {"like", Tensor::FromVector<double>(TensorShape{1}, {0.0})}});
  REQUIRE(like.dtype() == DataType::kDouble);
  CHECK(like.Data<double>()[0] == 7.0);
  CHECK(like.Data<double>()[1] == -7.0);
}

TEST_CASE("CUDA Slice clamps bounds and walks negative steps", "[cuda][gpu]") {
  if (!HasGpu()) return;
  std::vector<float> values(12);
  for (int i = 0; i < 12; ++i) values[i] = static_cast<float>(i);
  // data[r][c] = 4r + c, shape [3, 4]. Axis 1 from its last column backwards by 2 (the end clamps
  // to before the first column): columns 3, 1. Axis 0 by 2 with the end clamped to 3: rows 0, 2.
  Tensor sliced = RunOneNode(
      "Slice",
      {{"data", Tensor::FromVector<float>(TensorShape{3, 4}, std::span<const float>(values))},
       {"starts", Tensor::FromVector<int64_t>(TensorShape{2}, {-1, 0})},
       {"ends", Tensor::FromVector<int64_t>(TensorShape{2}, {-1000, 10})},
       {"axes", Tensor::FromVector<int64_t>(TensorShape{2}, {-1, 0})},
       {"steps", Tensor::FromVector<int64_t>(TensorShape{2}, {-2, 2})}},
      {}, 13);
  REQUIRE(sliced.shape() == TensorShape({2, 2}));
  const float sliced_expected[] = {3, 1, 11, 9};
  for (int i = 0; i < 4; ++i) CHECK(sliced.Data<float>()[i] == sliced_expected[i]);
  // Opset 9 takes attributes; the end past the axis means its end.
  std::vector<Attribute> attributes;
  attributes.push_back(Attribute::Ints("starts", {1}));
  attributes.push_back(Attribute::Ints("ends", {1000}));
  attributes.push_back(Attribute::Ints("axes", {1}));
  Tensor columns = RunOneNode(
      "Slice", {{"data", Tensor::FromVector<int64_t>(TensorShape{2, 3}, {1, 2, 3, 4, 5, 6})}},
      std::move(attributes), 9);
  REQUIRE(columns.shape() == TensorShape({2, 2}));
  const int64_t columns_expected[] = {2, 3, 5, 6};
  for (int i = 0; i < 4; ++i) CHECK(columns.Data<int64_t>()[i] == columns_expected[i]);
  // A start after the end selects nothing.
  Tensor empty = RunOneNode("Slice",
                            {{"data", Tensor::FromVector<float>(TensorShape{3}, {1, 2, 3})},
                             {"starts", Tensor::FromVector<int64_t>(TensorShape{1}, {2})},
                             {"ends", Tensor::FromVector<int64_t>(TensorShape{1}, {1})}},
                            {}, 13);
  CHECK(empty.shape() == TensorShape({0}));
}

TEST_CASE("CUDA Where broadcasts its three inputs", "[cuda][gpu]") {
  if (!HasGpu()) return;
  // condition [2, 1], X [1, 3], Y a scalar.
  Tensor selected =
      RunOneNode("Where", {{"c", Tensor::FromVector<bool>(TensorShape{2, 1}, {true, false})},
                           {"x", Tensor::FromVector<float>(TensorShape{1, 3}, {1, 2, 3})},
                           {"y", Tensor::Scalar<float>(-1.0f)}});
  REQUIRE(selected.shape() == TensorShape({2, 3}));
  const float selected_expected[] = {1, 2, 3, -1, -1, -1};
  for (int i = 0; i < 6; ++i) CHECK(selected.Data<float>()[i] == selected_expected[i]);
  // condition [3] and X [3] along the rows of Y [2, 3].
  Tensor mixed = RunOneNode(
      "Where", {{"c", Tensor::FromVector<bool>(TensorShape{3}, {true, false, true})},
                {"x", Tensor::FromVector<int64_t>(TensorShape{3}, {10, 20, 30})},
                {"y", Tensor::FromVector<int64_t>(TensorShape{2, 3}, {-1, -2, -3, -4, -5, -6})}});
  REQUIRE(mixed.shape() == TensorShape({2, 3}));
  const int64_t mixed_expected[] = {10, -2, 30, 10, -5, 30};
  for (int i = 0; i < 6; ++i) CHECK(mixed.Data<int64_t>()[i] == mixed_expected[i]);
}

TEST_CASE("CUDA Pow keeps the sign of negative bases", "[cuda][gpu]") {
  if (!HasGpu()) return;
  // (-2)^3, 3^2, 4^0.5 and 0^0.
  Tensor power =
      RunOneNode("Pow", {{"x", Tensor::FromVector<float>(TensorShape{4}, {-2, 3, 4, 0})},
                         {"y", Tensor::FromVector<float>(TensorShape{4}, {3, 2, 0.5f, 0})}});
  const float power_expected[] = {-8, 9, 2, 1};
  for (int i = 0; i < 4; ++i) CHECK(power.Data<float>()[i] == Approx(power_expected[i]));
  Tensor squares =
      RunOneNode("Pow", {{"x", Tensor::FromVector<float>(TensorShape{2, 2}, {1, -2, 3, 4})},
                         {"y", Tensor::Scalar<float>(2.0f)}});
  REQUIRE(squares.shape() == TensorShape({2, 2}));
  const float squares_expected[] = {1, 4, 9, 16};
  for (int i = 0; i < 4; ++i) CHECK(squares.Data<float>()[i] == squares_expected[i]);
  Tensor halves = RunOneNode(
      "Pow", {{"x", Tensor::FromVector<Float16>(TensorShape{2}, {Float16(2.0f), Float16(-3.0f)})},
              {"y", Tensor::FromVector<Float16>(TensorShape{2}, {Float16(3.0f), Float16(2.0f)})}});
  CHECK(static_cast<float>(halves.Data<Float16>()[0]) == 8.0f);
  CHECK(static_cast<float>(halves.Data<Float16>()[1]) == 9.0f);
}

TEST_CASE("CUDA Clip takes attributes before opset 11 and inputs after", "[cuda][gpu]") {
  if (!HasGpu()) return;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<Attribute> bounds;
  bounds.push_back(Attribute::Float("min", -1.0f));
  bounds.push_back(Attribute::Float("max", 2.0f));
  Tensor attributes = RunOneNode(
      "Clip", {{"x", Tensor::FromVector<float>(TensorShape{4}, {-3.0f, 0.5f, 5.0f, nan})}},
      std::move(bounds), 6);
  CHECK(attributes.Data<float>()[0] == -1.0f);
  CHECK(attributes.Data<float>()[1] == 0.5f);
  CHECK(attributes.Data<float>()[2] == 2.0f);
  CHECK(std::isnan(attributes.Data<float>()[3]));
  Tensor inputs = RunOneNode("Clip",
                             {{"x", Tensor::FromVector<float>(TensorShape{3}, {-3.0f, 0.5f, 5.0f})},
                              {"min", Tensor::Scalar<float>(0.0f)},
                              {"max", Tensor::Scalar<float>(1.0f)}},
                             {}, 13);
  const float inputs_expected[] = {0.0f, 0.5f, 1.0f};
  for (int i = 0; i < 3; ++i) CHECK(inputs.Data<float>()[i] == inputs_expected[i]);
  // Only a min: no upper bound.
  Tensor floor_only =
      RunOneNode("Clip",
                 {{"x", Tensor::FromVector<Float16>(
                            TensorShape{3}, {Float16(-3.0f), Float16(0.5f), Float16(60000.0f)})},
                  {"min", Tensor::Scalar<Float16>(Float16(-1.0f))}},
                 {}, 13);
  const float floor_expected[] = {-1.0f, 0.5f, 60000.0f};
  for (int i = 0; i < 3; ++i) {
    CHECK(static_cast<float>(floor_only.Data<Float16>()[i]) ==
          static_cast<float>(Float16(floor_expected[i])));
  }
}

}  // namespace ort
