#include "lib/optimizer/qdq_patterns.h"

#include <algorithm>
#include <limits>

#include "lib/optimizer/fusion_patterns.h"
#include "lib/optimizer/pattern_utils.h"

namespace ort {
namespace {

bool IsEightBit(DataType type) { return type == DataType::kInt8 || type == DataType::kUint8; }

// Scale (input 1) and zero point (input 2) of a Q or DQ node when constants of the right types.
std::optional<QuantizationParams> ConstantParams(const Graph& graph, const Node& node,
                                                 DataType quantized_type) {
  const Attribute* block = node.FindAttribute("block_size");
  if (block != nullptr && block->i != 0) return std::nullopt;
  if (!node.HasInput(1)) return std::nullopt;
  const Tensor* scale = ConstantInput(graph, node, 1);
  if (scale == nullptr || scale->dtype() != DataType::kFloat || scale->shape().rank() > 1 ||
      scale->NumElements() == 0) {
    return std::nullopt;
  }
  QuantizationParams params;
  params.node = &node;
  params.type = quantized_type;
  params.scale = node.inputs()[1];
  params.count = scale->NumElements();
  const Attribute* axis = node.FindAttribute("axis");
  params.axis = axis != nullptr ? axis->i : 1;
  if (node.HasInput(2)) {
    const Tensor* zero = ConstantInput(graph, node, 2);
    if (zero == nullptr || zero->dtype() != quantized_type || zero->NumElements() != params.count) {
      return std::nullopt;
    }
    params.zero_point = node.inputs()[2];
  }
  return params;
}

}  // namespace

std::optional<QuantizationParams> DequantizeOf(const Graph& graph, std::string_view value,
                                               bool allow_int32) {
  const Node* dq = graph.Producer(value);
  if (!IsOnnxOp(dq, "DequantizeLinear") || !dq->HasInput(0)) return std::nullopt;
  std::optional<DataType> type = ElementTypeOf(graph, dq->inputs()[0]);
  // Where inference left the type open, a constant input or zero point states it.
  for (const size_t index : {size_t{0}, size_t{2}}) {
    const Tensor* constant = dq->HasInput(index) ? ConstantInput(graph, *dq, index) : nullptr;
    if (!type && constant != nullptr) type = constant->dtype();
  }
  if (!type || !(IsEightBit(*type) || (allow_int32 && *type == DataType::kInt32))) {
    return std::nullopt;
  }
  return ConstantParams(graph, *dq, *type);
}

std::optional<QuantizationParams> QuantizeParams(const Graph& graph, const Node& node) {
  if (!IsOnnxOp(&node, "QuantizeLinear") || !node.HasInput(0)) return std::nullopt;
  DataType type = DataType::kUint8;
  if (node.HasInput(2)) {
    const Tensor* zero = ConstantInput(graph, node, 2);
    if (zero == nullptr) return std::nullopt;
    type = zero->dtype();
  }
  const Attribute* output_dtype = node.FindAttribute("output_dtype");
  if (output_dtype != nullptr && output_dtype->i != 0 &&
      output_dtype->i != static_cast<int64_t>(type)) {
    return std::nullopt;
  }
  if (!IsEightBit(type)) return std::nullopt;
  std::optional<QuantizationParams> params = ConstantParams(graph, node, type);
  if (!params || params->count != 1) return std::nullopt;
  return params;
}

const Node* QuantizedProducer(const Graph& graph, const Node& q, const QuantizationParams& y,
                              std::string_view op_type, const Node** activation) {
  *activation = nullptr;
  if (const Node* direct = SoleProducer(graph, q, 0, op_type)) return direct;
  const Node* act = SoleProducer(graph, q, 0, "Relu");
  if (act == nullptr) act = SoleProducer(graph, q, 0, "Clip");
  if (act == nullptr) return nullptr;
  const std::optional<std::vector<float>> params = FusedConvActivationParams(graph, *act);
  if (!params) return nullptr;
  const float low = params->empty() ? 0.0f : (*params)[0];
  const float high = params->empty() ? std::numeric_limits<float>::infinity() : (*params)[1];
  const float scale = ConstantInput(graph, q, 1)->Data<float>()[0];
  int64_t zero = 0;
  if (!y.zero_point.empty()) {
    const Tensor* z = ConstantInput(graph, q, 2);
    zero = y.type == DataType::kInt8 ? z->Data<int8_t>()[0] : z->Data<uint8_t>()[0];
  }
  const int64_t qmin = y.type == DataType::kInt8 ? -128 : 0;
  const int64_t qmax = y.type == DataType::kInt8 ? 127 : 255;
  const float represented_low = static_cast<float>(qmin - zero) * scale;
  const float represented_high = static_cast<float>(qmax - zero) * scale;
  if (!(scale > 0.0f) || represented_low < low || represented_high > high) return nullptr;
  const Node* producer = SoleProducer(graph, *act, 0, op_type);
  if (producer != nullptr) *activation = act;
  return producer;
}

bool PerTensorOrChannel(const QuantizationParams& params, size_t rank, int64_t axis,
                        int64_t channels) {
  if (params.count == 1) return true;
  const int64_t stated = params.axis < 0 ? params.axis + static_cast<int64_t>(rank) : params.axis;
  return stated == axis && params.count == channels;
}

std::string ZeroPointInput(Graph& graph, const QuantizationParams& params) {
  if (!params.zero_point.empty()) return params.zero_point;
  const std::string name = graph.UniqueValueName(params.node->name() + "_zero_point");
  if (params.type == DataType::kInt8) {
    graph.AddInitializer(name, Tensor::Scalar<int8_t>(0));
  } else {
    graph.AddInitializer(name, Tensor::Scalar<uint8_t>(0));
  }
  return name;
}

std::vector<std::string> QLinearInputs(Graph& graph, const QuantizationParams& a,
                                       const QuantizationParams& b, const QuantizationParams& y) {
  return {a.node->inputs()[0],      a.scale, ZeroPointInput(graph, a), b.node->inputs()[0], b.scale,
          ZeroPointInput(graph, b), y.scale, ZeroPointInput(graph, y)};
}

void ReplaceQdqGroup(Graph& graph, const Node& op, const Node* activation, const Node& q,
                     NodeSpec fused, const std::vector<const Node*>& dequantized) {
  std::vector<const Node*> replaced{&op, &q};
  if (activation != nullptr) replaced.push_back(activation);
  fused.outputs = {q.outputs()[0]};
  ReplaceByFusedNode(graph, replaced, std::move(fused));
  for (size_t i = 0; i < dequantized.size(); ++i) {
    const Node* dq = dequantized[i];
    const bool seen =
        std::find(dequantized.begin(), dequantized.begin() + i, dq) != dequantized.begin() + i;
    if (dq != nullptr && !seen) RemoveIfUnused(graph, *dq);
  }
}

}  // namespace ort
