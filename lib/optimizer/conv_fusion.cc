#include "lib/optimizer/conv_fusion.h"

#include "lib/optimizer/pattern_utils.h"

namespace ort {

ConvParameters CopyConvParameters(const Graph& graph, const Node& conv) {
  ConvParameters parameters;
  parameters.weight = ConstantInput(graph, conv, 1)->Clone().value();
  parameters.channels = parameters.weight.shape()[0];
  parameters.per_channel =
      parameters.channels == 0 ? 0 : parameters.weight.NumElements() / parameters.channels;
  if (const Tensor* bias = ConstantInput(graph, conv, 2)) {
    parameters.bias = bias->Clone().value();
  } else {
    parameters.bias =
        Tensor::Allocate(DataType::kFloat, TensorShape({parameters.channels})).value();
    for (float& value : parameters.bias.MutableSpan<float>()) value = 0.0f;
  }
  return parameters;
}

void ScaleAndShift(ConvParameters& conv, const std::vector<float>& scale,
                   const std::vector<float>& shift) {
  float* weight = conv.weight.MutableData<float>();
  float* bias = conv.bias.MutableData<float>();
  for (int64_t m = 0; m < conv.channels; ++m) {
    const auto channel = static_cast<size_t>(m);
    float* row = weight + m * conv.per_channel;
    for (int64_t i = 0; i < conv.per_channel; ++i) row[i] *= scale[channel];
    bias[m] = bias[m] * scale[channel] + shift[channel];
  }
}

}  // namespace ort
