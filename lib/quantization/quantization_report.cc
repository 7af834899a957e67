#include "lib/quantization/quantization_report.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

#include "lib/common/file_writer.h"

namespace ort {

Status AgreementAccumulator::Add(const Tensor& reference, const Tensor& quantized) {
  if (reference.shape() != quantized.shape()) {
    return ORT_ERROR(kInvalidModel, "output '{}': the float model gives {}, the quantized one {}",
                     name_, reference.Describe(), quantized.Describe());
  }
  const float* a = reference.Data<float>();
  const float* b = quantized.Data<float>();
  const int64_t count = reference.NumElements();
  for (int64_t i = 0; i < count; ++i) {
    dot_ += static_cast<double>(a[i]) * b[i];
    reference_norm_ += static_cast<double>(a[i]) * a[i];
    quantized_norm_ += static_cast<double>(b[i]) * b[i];
    max_abs_error_ = std::max(max_abs_error_, std::fabs(static_cast<double>(a[i]) - b[i]));
  }
  const auto& dims = reference.shape().dims();
  const int64_t width = dims.empty() ? 1 : dims.back();
  if (width <= 1) return Status::OK();
  for (int64_t row = 0; row < count / width; ++row) {
    const float* x = a + row * width;
    const float* y = b + row * width;
    rows_ += 1;
    top1_matches_ += std::max_element(x, x + width) - x == std::max_element(y, y + width) - y;
  }
  return Status::OK();
}

OutputAgreement AgreementAccumulator::Result() const {
  OutputAgreement agreement;
  agreement.name = name_;
  const double norms = std::sqrt(reference_norm_) * std::sqrt(quantized_norm_);
  // Two zero outputs agree; one zero output has no direction to agree with.
  agreement.cosine = norms > 0 ? dot_ / norms : (reference_norm_ == quantized_norm_ ? 1.0 : 0.0);
  agreement.max_abs_error = max_abs_error_;
  agreement.rows = rows_;
  agreement.top1_matches = top1_matches_;
  return agreement;
}

Result<std::vector<OutputAgreement>> CompareModels(const Model& reference, const Model& quantized,
                                                   std::span<const CalibrationSet> sets,
                                                   const SessionFactory& make_session) {
  ORT_ASSIGN_OR_RETURN(std::unique_ptr<Model> reference_copy, ReloadModel(reference));
  auto reference_session = make_session(std::move(reference_copy));
  if (!reference_session.ok()) return reference_session.status().WithContext("float model");
  ORT_ASSIGN_OR_RETURN(std::unique_ptr<Model> quantized_copy, ReloadModel(quantized));
  auto quantized_session = make_session(std::move(quantized_copy));
  if (!quantized_session.ok()) return quantized_session.status().WithContext("quantized model");

  std::vector<std::string> names;
  for (const ValueInfo& info : (*reference_session)->OutputInfos()) {
    if (info.type.IsTensor() && info.type.elem_type == DataType::kFloat) names.push_back(info.name);
  }
  std::vector<AgreementAccumulator> accumulators;
  for (const std::string& name : names) accumulators.emplace_back(name);
  std::vector<Value> expected;
  std::vector<Value> actual;
  for (const CalibrationSet& set : sets) {
    expected.clear();
    actual.clear();
    ORT_RETURN_IF_ERROR((*reference_session)->Run(RunOptions{}, set, names, &expected));
    Status status = (*quantized_session)->Run(RunOptions{}, set, names, &actual);
    if (!status.ok()) return status.WithContext("quantized model");
    for (size_t i = 0; i < names.size(); ++i) {
      if (!expected[i].IsTensor() || !actual[i].IsTensor() ||
          actual[i].tensor().dtype() != DataType::kFloat) {
        return ORT_ERROR(kInvalidModel, "output '{}': the quantized model gives {}", names[i],
                         actual[i].Describe());
      }
      ORT_RETURN_IF_ERROR(accumulators[i].Add(expected[i].tensor(), actual[i].tensor()));
    }
  }
  std::vector<OutputAgreement> agreements;
  for (const AgreementAccumulator& accumulator : accumulators) {
    agreements.push_back(accumulator.Result());
  }
  return agreements;
}

namespace {

std::string Top1(const OutputAgreement& output) {
  if (output.rows == 0) return "-";
  return fmt::format(
      "{:.2f}% ({}/{})",
      100.0 * static_cast<double>(output.top1_matches) / static_cast<double>(output.rows),
      output.top1_matches, output.rows);
}

}  // namespace

std::string FormatQuantizationReport(const QuantizationReport& report) {
  std::string text =
      fmt::format("model: {} -> {} ({} quantization", report.model, report.output, report.mode);
  if (!report.method.empty()) text += ", " + report.method + " calibration";
  text += fmt::format(", {} weights{}{})\n", report.weight_type,
                      report.per_channel ? " per channel" : "",
                      report.symmetric_activations ? ", symmetric int8 activations" : "");
  text += fmt::format("compared with the float model on {} input set{}{}\n",
                      report.calibration_sets, report.calibration_sets == 1 ? "" : "s",
                      report.random_inputs ? " of seeded random values" : "");
  text += fmt::format("{:<32} {:>10} {:>14}  {}\n", "output", "cosine", "max abs error",
                      "top-1 agreement");
  for (const OutputAgreement& output : report.outputs) {
    text += fmt::format("{:<32} {:>10.6f} {:>14.6g}  {}\n", output.name, output.cosine,
                        output.max_abs_error, Top1(output));
  }
  text += fmt::format("{:<32} {:>10} {:>10}\n", "op type", "quantized", "float");
  int quantized = 0;
  int left_float = 0;
  for (const OpTypeCount& op : report.op_types) {
    text += fmt::format("{:<32} {:>10} {:>10}\n", op.op_type, op.quantized, op.left_float);
    quantized += op.quantized;
    left_float += op.left_float;
  }
  text += fmt::format("{:<32} {:>10} {:>10}\n", "total", quantized, left_float);
  return text;
}

Status WriteQuantizationReportJson(const QuantizationReport& report, const std::string& path) {
  using Json = nlohmann::ordered_json;
  Json outputs = Json::array();
  for (const OutputAgreement& output : report.outputs) {
    Json entry = {
        {"name", output.name}, {"cosine", output.cosine}, {"max_abs_error", output.max_abs_error}};
    if (output.rows > 0) {
      entry["top1_agreement"] =
          static_cast<double>(output.top1_matches) / static_cast<double>(output.rows);
      entry["top1_rows"] = output.rows;
    }
    outputs.push_back(std::move(entry));
  }
  Json op_types = Json::array();
  for (const OpTypeCount& op : report.op_types) {
    op_types.push_back(
        {{"op_type", op.op_type}, {"quantized", op.quantized}, {"float", op.left_float}});
  }
  const Json json = {
      {"model", report.model},
      {"output", report.output},
      {"mode", report.mode},
      {"method", report.method.empty() ? Json(nullptr) : Json(report.method)},
      {"per_channel", report.per_channel},
      {"symmetric_activations", report.symmetric_activations},
      {"weight_type", report.weight_type},
      {"calibration_sets", report.calibration_sets},
      {"random_inputs", report.random_inputs},
      {"outputs", outputs},
      {"op_types", op_types},
  };
  return WriteStringToFile(path, json.dump(2) + "\n").WithContext("quantization report");
}

}  // namespace ort
