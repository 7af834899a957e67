// Scale and zero point as ONNX Runtime computes them, and weights and biases quantized with them.
#include <catch2/catch.hpp>

#include "lib/quantization/quant_params.h"

namespace ort {
namespace {

TEST_CASE("Asymmetric uint8 parameters cover the range widened to hold 0", "[quantization]") {
  QuantParams params = ComputeQuantParams({-1.0f, 3.0f}, DataType::kUint8, false);
  CHECK(params.type == DataType::kUint8);
  CHECK(params.scale == Approx(4.0 / 255));
  CHECK(params.zero_point == 64);  // rint(1 / (4 / 255)) = rint(63.75)

  params = ComputeQuantParams({0.5f, 2.0f}, DataType::kUint8, false);
  CHECK(params.scale == Approx(2.0 / 255));
  CHECK(params.zero_point == 0);

  params = ComputeQuantParams({-3.0f, -1.0f}, DataType::kUint8, false);
  CHECK(params.scale == Approx(3.0 / 255));
  CHECK(params.zero_point == 255);
  CHECK(QuantizeValue(0.0f, params) == 255);
  CHECK(QuantizeValue(-3.0f, params) == 0);
}

TEST_CASE("Symmetric parameters are int8 over [-max|x|, max|x|] with zero point 0",
          "[quantization]") {
  const QuantParams params = ComputeQuantParams({-1.0f, 3.0f}, DataType::kUint8, true);
  CHECK(params.type == DataType::kInt8);
  CHECK(params.scale == Approx(3.0 / 127));
  CHECK(params.zero_point == 0);
  CHECK(QuantizeValue(3.0f, params) == 127);
  CHECK(QuantizeValue(-3.0f, params) == -127);
  // Saturation at the type's bounds, rounding half to even.
  CHECK(QuantizeValue(100.0f, params) == 127);
  CHECK(QuantizeValue(-100.0f, params) == -128);
  const QuantParams halves = ComputeQuantParams({-63.5f, 63.5f}, DataType::kInt8, true);
  CHECK(halves.scale == 0.5f);
  CHECK(QuantizeValue(1.25f, halves) == 2);
  CHECK(QuantizeValue(1.75f, halves) == 4);
}

TEST_CASE("A range of zeros gets scale 1", "[quantization]") {
  const QuantParams asymmetric = ComputeQuantParams({0.0f, 0.0f}, DataType::kUint8, false);
  CHECK(asymmetric.scale == 1.0f);
  CHECK(asymmetric.zero_point == 0);
  CHECK(ComputeQuantParams({0.0f, 0.0f}, DataType::kInt8, true).scale == 1.0f);
}

TEST_CASE("Weights quantize per tensor or per channel", "[quantization]") {
  const Tensor weight =
      Tensor::FromVector<float>(TensorShape({2, 3}), {1.0f, -2.0f, 0.5f, 0.1f, 0.2f, -0.4f});

  auto per_tensor = QuantizeWeight(weight, DataType::kInt8, std::nullopt);
  REQUIRE(per_tensor.ok());
  CHECK(per_tensor->scale.shape().rank() == 0);
  CHECK(per_tensor->scales[0] == Approx(2.0 / 127));
  CHECK(per_tensor->zero_point.Data<int8_t>()[0] == 0);
  const int8_t* q = per_tensor->data.Data<int8_t>();
  CHECK(std::vector<int>(q, q + 6) == std::vector<int>{64, -127, 32, 6, 13, -25});

  auto rows = QuantizeWeight(weight, DataType::kInt8, 0);
  REQUIRE(rows.ok());
  CHECK(rows->axis == 0);
  CHECK(rows->scale.shape() == TensorShape({2}));
  CHECK(rows->zero_point.shape() == TensorShape({2}));
  CHECK(rows->scales[0] == Approx(2.0 / 127));
  CHECK(rows->scales[1] == Approx(0.4 / 127));
  q = rows->data.Data<int8_t>();
  CHECK(std::vector<int>(q, q + 6) == std::vector<int>{64, -127, 32, 32, 64, -127});

  auto columns = QuantizeWeight(weight, DataType::kInt8, 1);
  REQUIRE(columns.ok());
  CHECK(columns->scales.size() == 3);
  CHECK(columns->scales[2] == Approx(0.5 / 127));

  auto unsigned_weights = QuantizeWeight(weight, DataType::kUint8, 0);
  REQUIRE(unsigned_weights.ok());
  CHECK(unsigned_weights->zero_point.dtype() == DataType::kUint8);
  CHECK(unsigned_weights->scales[0] == Approx(3.0 / 255));
  CHECK(unsigned_weights->zero_point.Data<uint8_t>()[0] == 170);  // rint(2 / (3 / 255))
  CHECK(unsigned_weights->data.Data<uint8_t>()[1] == 0);
  CHECK(unsigned_weights->data.Data<uint8_t>()[0] == 255);

  CHECK_FALSE(QuantizeWeight(weight, DataType::kInt8, 2).ok());
}

TEST_CASE("Biases quantize to int32 in units of input scale times weight scale", "[quantization]") {
  const Tensor bias = Tensor::FromVector<float>(TensorShape({2}), {1.0f, -1.0f});
  const std::vector<float> weight_scales = {0.02f, 0.5f};
  auto quantized = QuantizeBias(bias, 0.1f, weight_scales);
  REQUIRE(quantized.ok());
  CHECK(quantized->data.dtype() == DataType::kInt32);
  CHECK(quantized->axis == 0);
  CHECK(quantized->scales[0] == Approx(0.002));
  CHECK(quantized->scales[1] == Approx(0.05));
  CHECK(quantized->data.Data<int32_t>()[0] == 500);
  CHECK(quantized->data.Data<int32_t>()[1] == -20);

  const std::vector<float> one_scale = {0.5f};
  auto per_tensor = QuantizeBias(bias, 0.1f, one_scale);
  REQUIRE(per_tensor.ok());
  CHECK_FALSE(per_tensor->axis.has_value());
  CHECK(per_tensor->scale.shape().rank() == 0);
  CHECK(per_tensor->data.Data<int32_t>()[0] == 20);

  const std::vector<float> three_scales = {0.1f, 0.1f, 0.1f};
  CHECK_FALSE(QuantizeBias(bias, 0.1f, three_scales).ok());
}

}  // namespace
}  // namespace ort
