// What the CPU and CUDA com.microsoft SkipLayerNormalization / SkipSimplifiedLayerNormalization
// kernels share: the epsilon attribute and the checks of one call's inputs.
#pragma once

#include <cstdint>

#include "lib/framework/op_kernel.h"

namespace ort {

/// The epsilon attribute (default 1e-12), which must not be negative.
Result<float> ParseSkipLayerNormEpsilon(const KernelInfo& info);

/// One call's inputs: s = input + skip (+ bias), normalized over the last axis, scaled by gamma
/// (+ beta). skip is input-shaped, or input's trailing dims repeated over the leading ones.
struct SkipLayerNormInputs {
  /// input's last dim, the length of gamma, beta and bias.
  int64_t hidden = 0;
  const Tensor* input = nullptr;
  const Tensor* skip = nullptr;
  const Tensor* gamma = nullptr;
  /// Null when omitted; SkipSimplifiedLayerNormalization has none.
  const Tensor* beta = nullptr;
  /// Null when omitted.
  const Tensor* bias = nullptr;
};

/// Reads and checks the inputs: skip of input's type and shape (or its trailing dims); gamma,
/// beta and bias [hidden], and of input's type when `params_of_input_type`. Errors name the node.
Result<SkipLayerNormInputs> ReadSkipLayerNormInputs(const KernelContext& context, bool simplified,
                                                    bool params_of_input_type);

}  // namespace ort
