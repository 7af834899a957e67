// The accuracy report: cosine similarity, max abs error and top-1 agreement accumulated over runs.
#include "lib/quantization/quantization_report.h"
#include "test/quantization/quantization_test_util.h"

namespace ort::test {
namespace {

TEST_CASE("Agreement accumulates cosine, max abs error and top-1 over runs", "[quantization]") {
  AgreementAccumulator accumulator("scores");
  // Rows [1, 0, 0] vs [0.9, 0.2, 0] agree on argmax; [0, 1, 0] vs [0, 0.4, 0.5] do not.
  REQUIRE(accumulator
              .Add(Tensor::FromVector<float>(TensorShape({1, 3}), {1, 0, 0}),
                   Tensor::FromVector<float>(TensorShape({1, 3}), {0.9f, 0.2f, 0}))
              .ok());
  REQUIRE(accumulator
              .Add(Tensor::FromVector<float>(TensorShape({1, 3}), {0, 1, 0}),
                   Tensor::FromVector<float>(TensorShape({1, 3}), {0, 0.4f, 0.5f}))
              .ok());
  const OutputAgreement agreement = accumulator.Result();
  CHECK(agreement.rows == 2);
  CHECK(agreement.top1_matches == 1);
  CHECK(agreement.max_abs_error == Approx(0.6));
  // dot 0.9 + 0.4 = 1.3; norms sqrt(2) and sqrt(0.81 + 0.04 + 0.16 + 0.25).
  CHECK(agreement.cosine == Approx(1.3 / (std::sqrt(2.0) * std::sqrt(1.26))));

  CHECK_FALSE(accumulator
                  .Add(Tensor::FromVector<float>(TensorShape({2}), {1, 0}),
                       Tensor::FromVector<float>(TensorShape({1, 2}), {1, 0}))
                  .ok());
}

TEST_CASE("Top-1 is left out where the last axis has one element", "[quantization]") {
  AgreementAccumulator accumulator("score");
  REQUIRE(accumulator
              .Add(Tensor::FromVector<float>(TensorShape({2, 1}), {1, 2}),
                   Tensor::FromVector<float>(TensorShape({2, 1}), {1, 2}))
              .ok());
  CHECK(accumulator.Result().rows == 0);
  CHECK(accumulator.Result().cosine == Approx(1.0));
}

TEST_CASE("The report compares a quantized model with its float original", "[quantization]") {
  const auto reference = ConvReluPoolModel();
  const auto same = ConvReluPoolModel();
  const auto sets = UniformSets("x", {1, 2, 6, 6}, 2);
  auto outputs = CompareModels(*reference, *same, sets, CpuSessions());
  REQUIRE(outputs.ok());
  REQUIRE(outputs->size() == 1);
  CHECK((*outputs)[0].name == "y");
  CHECK((*outputs)[0].max_abs_error == 0.0);
  CHECK((*outputs)[0].rows == 0);

  QuantizationReport report;
  report.model = "float.onnx";
  report.output = "int8.onnx";
  report.mode = "static";
  report.method = "minmax";
  report.weight_type = "int8";
  report.calibration_sets = 2;
  report.outputs = *outputs;
  report.op_types = {{"Conv", 1, 0}, {"Softmax", 0, 1}};
  const std::string text = FormatQuantizationReport(report);
  CHECK(text.find("float.onnx -> int8.onnx (static quantization, minmax calibration") !=
        std::string::npos);
  CHECK(text.find("Softmax") != std::string::npos);
  CHECK(text.find("total") != std::string::npos);
}

}  // namespace
}  // namespace ort::test
