// Static quantization to the QDQ format of ONNX Runtime's quantizer: every quantized activation T
// gets QuantizeLinear(T) -> T_quantized -> DequantizeLinear -> T_dequantized, read by all of T's
// consumers; weights are stored quantized (W_quantized, W_scale, W_zero_point) behind a
// DequantizeLinear; Conv and Gemm biases are stored as int32 in units of x_scale * w_scale.
// The float ops stay, so the model runs anywhere, and engines fuse the groups into
// integer kernels.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "lib/common/status.h"
#include "lib/ir/model.h"
#include "lib/quantization/quant_params.h"
#include "lib/quantization/quantize_options.h"

namespace ort {

/// What static quantization does to a graph, decided before calibration.
struct QdqPlan {
  /// Activations quantized with parameters of their own calibrated range.
  std::vector<std::string> calibrated;
  /// Outputs of data-movement ops -> the input whose parameters they keep.
  std::map<std::string, std::string> shared;
  /// Quantized nodes, in topological order.
  std::vector<NodeIndex> nodes;
  /// Per op type of the graph, sorted.
  std::vector<OpTypeCount> counts;
};

/// Picks the nodes and activations to quantize (in topological order, so that a data-movement
/// op is quantized only when its input already is). Errors name an excluded node the graph
/// lacks.
Result<QdqPlan> PlanQdq(const Graph& graph, const QuantizeOptions& options);

/// Rewrites `model` by `plan` with `ranges` (one per plan.calibrated tensor). Errors when the
/// model's ai.onnx opset is below 10 (no QuantizeLinear), or below 13 with per-channel weights.
Status ApplyQdq(Model& model, const QdqPlan& plan, const std::map<std::string, FloatRange>& ranges,
                const QuantizeOptions& options);

}  // namespace ort
