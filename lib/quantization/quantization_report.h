// How close a quantized model stays to its float original: per output, cosine similarity, max
// absolute error and top-1 agreement over the calibration inputs; and per op type, the nodes
// quantized and left in float. Printed as a table and written as JSON.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "lib/common/status.h"
#include "lib/ir/model.h"
#include "lib/quantization/calibration.h"
#include "lib/quantization/quantize_options.h"

namespace ort {

struct OutputAgreement {
  std::string name;
  /// Cosine similarity of all the output's values over all sets, as one vector.
  double cosine = 1;
  double max_abs_error = 0;
  /// Rows of the last axis compared for top-1 (argmax) agreement; 0 where that means nothing (a
  /// last axis of one element, a scalar).
  int64_t rows = 0;
  int64_t top1_matches = 0;
};

/// Runs both models on every set and compares their float outputs (others are skipped).
Result<std::vector<OutputAgreement>> CompareModels(const Model& reference, const Model& quantized,
                                                   std::span<const CalibrationSet> sets,
                                                   const SessionFactory& make_session);

/// Accumulates the agreement of one output over several runs.
class AgreementAccumulator {
 public:
  explicit AgreementAccumulator(std::string name) : name_(std::move(name)) {}
  /// Errors when the two tensors differ in shape.
  Status Add(const Tensor& reference, const Tensor& quantized);
  OutputAgreement Result() const;

 private:
  std::string name_;
  double dot_ = 0;
  double reference_norm_ = 0;
  double quantized_norm_ = 0;
  double max_abs_error_ = 0;
  int64_t rows_ = 0;
  int64_t top1_matches_ = 0;
};

struct QuantizationReport {
  std::string model;
  std::string output;
  std::string mode;
  std::string method;  // "" in dynamic mode
  bool per_channel = false;
  bool symmetric_activations = false;
  std::string weight_type;
  int calibration_sets = 0;
  bool random_inputs = false;  // the sets are seeded random values, not real data
  std::vector<OpTypeCount> op_types;
  std::vector<OutputAgreement> outputs;
};

/// The printed tables: outputs (cosine, max abs error, top-1) and op types.
std::string FormatQuantizationReport(const QuantizationReport& report);

Status WriteQuantizationReportJson(const QuantizationReport& report, const std::string& path);

}  // namespace ort
