// Queries and edits shared by the QDQ fusions, which turn DequantizeLinear -> float op ->
// QuantizeLinear groups of a quantized model into the ai.onnx 8-bit ops (onnxruntime's QDQ
// selectors, core/optimizer/qdq_transformer/selectors_actions).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lib/ir/graph.h"

namespace ort {

/// A DequantizeLinear or QuantizeLinear whose scale and zero point are constants: the quantized
/// side's type, and the names the fused node reads.
struct QuantizationParams {
  const Node* node = nullptr;
  DataType type = DataType::kUndefined;  // of the quantized tensor: int8, uint8 or int32
  std::string scale;
  std::string zero_point;  // empty when the node has none (zero of `type`)
  int64_t count = 1;       // values of scale: 1 (per tensor) or one per channel
  int64_t axis = 1;        // the channel axis when count > 1, as the node states it
};

/// The DequantizeLinear producing `value` when it dequantizes an int8 or uint8 tensor (or int32
/// with `allow_int32`) with a constant scale and zero point and no block quantization; else
/// nullopt.
std::optional<QuantizationParams> DequantizeOf(const Graph& graph, std::string_view value,
                                               bool allow_int32 = false);
/// The same for a QuantizeLinear `node` to int8 or uint8 with a per-tensor scale.
std::optional<QuantizationParams> QuantizeParams(const Graph& graph, const Node& node);

/// The ai.onnx `op_type` node whose output QuantizeLinear `q` (with per-tensor `y`) quantizes,
/// directly or through a Relu or Clip that `q` makes redundant: the values `q` can represent,
/// [(qmin - zero) scale, (qmax - zero) scale], lie within the activation's bounds, so saturation
/// clips as it would. Every intermediate must be read only by the next node. `activation` gets
/// the Relu or Clip, or null.
const Node* QuantizedProducer(const Graph& graph, const Node& q, const QuantizationParams& y,
                              std::string_view op_type, const Node** activation);

/// True when `params` quantize per tensor, or per channel along axis `axis` of a rank-`rank`
/// tensor whose dimension there is `channels`.
bool PerTensorOrChannel(const QuantizationParams& params, size_t rank, int64_t axis,
                        int64_t channels);

/// The zero point input for `params`: its own, or a new zero initializer of its type.
std::string ZeroPointInput(Graph& graph, const QuantizationParams& params);

/// The inputs QLinearConv, QLinearMatMul, QLinearAdd and QLinearMul share, for operands `a`
/// and `b` dequantized by those params and an output quantized by `y`: a, a_scale, a_zero_point,
/// b, b_scale, b_zero_point, y_scale, y_zero_point, each zero point a new zero initializer of
/// its type where the node had none.
std::vector<std::string> QLinearInputs(Graph& graph, const QuantizationParams& a,
                                       const QuantizationParams& b, const QuantizationParams& y);

/// Replaces `op`, the Relu or Clip `activation` when not null and the QuantizeLinear `q` by
/// `fused` (which takes q's output), then removes the DequantizeLinear nodes among `dequantized`
/// that nothing reads any more.
void ReplaceQdqGroup(Graph& graph, const Node& op, const Node* activation, const Node& q,
                     NodeSpec fused, const std::vector<const Node*>& dequantized);

}  // namespace ort
