#include "providers/common/nn/skip_layer_norm_inputs.h"

namespace ort {
namespace {

// True when `skip` equals `input` or, leading 1s dropped, its trailing dims.
bool SkipBroadcasts(const TensorShape& skip, const TensorShape& input) {
  size_t first = 0;
  while (first + 1 < skip.rank() && skip[first] == 1) ++first;
  const size_t rank = skip.rank() - first;
  if (rank == 0 || rank > input.rank()) return false;
  for (size_t i = 0; i < rank; ++i) {
    if (skip[first + i] != input[input.rank() - rank + i]) return false;
  }
  return true;
}

}  // namespace

Result<float> ParseSkipLayerNormEpsilon(const KernelInfo& info) {
  ORT_ASSIGN_OR_RETURN(const float epsilon, info.GetAttributeOr<float>("epsilon", 1e-12f));
  if (epsilon < 0.0f) {
    return ORT_ERROR(kInvalidModel, "epsilon < 0").WithNode(info.node().Describe());
  }
  return epsilon;
}

Result<SkipLayerNormInputs> ReadSkipLayerNormInputs(const KernelContext& context, bool simplified,
                                                    bool params_of_input_type) {
  SkipLayerNormInputs inputs;
  ORT_ASSIGN_OR_RETURN(inputs.input, context.RequiredInput(0));
  ORT_ASSIGN_OR_RETURN(inputs.skip, context.RequiredInput(1));
  ORT_ASSIGN_OR_RETURN(inputs.gamma, context.RequiredInput(2));
  // SkipSimplifiedLayerNormalization has no beta: its bias is input 3.
  inputs.beta = simplified ? nullptr : context.Input(3);
  inputs.bias = context.Input(simplified ? 3 : 4);
  const TensorShape& shape = inputs.input->shape();
  if (shape.rank() < 1) return context.Error("input must have rank >= 1");
  inputs.hidden = shape[shape.rank() - 1];
  const DataType type = inputs.input->dtype();
  if (!SkipBroadcasts(inputs.skip->shape(), shape)) {
    return context.Error("skip {} must be input's shape {} or its trailing dims",
                         inputs.skip->shape().ToString(), shape.ToString());
  }
  const Tensor* params[] = {inputs.gamma, inputs.beta, inputs.bias};
  const char* names[] = {"gamma", "beta", "bias"};
  for (size_t i = 0; i < 3; ++i) {
    if (params[i] == nullptr) continue;
    if (params[i]->shape() != TensorShape{inputs.hidden}) {
      return context.Error("{} {} must be [{}]", names[i], params[i]->shape().ToString(),
                           inputs.hidden);
    }
    if (params_of_input_type && params[i]->dtype() != type) {
      return context.Error("{} {} must have input's type {}", names[i], params[i]->Describe(),
                           DataTypeName(type));
    }
  }
  if (inputs.skip->dtype() != type) {
    return context.Error("skip {} must have input's type {}", inputs.skip->Describe(),
                         DataTypeName(type));
  }
  return inputs;
}

}  // namespace ort
