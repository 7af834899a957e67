// The CPU side of the activation that fused kernels (com.microsoft FusedConv, FusedGemm, the NCHWc
// Conv) apply to their output in place: the parsed activation
// (providers/common/activation/fused_activation.h) with the vectorized loops that apply it.
#pragma once

#include <cstdint>

#include "providers/common/activation/fused_activation.h"

namespace ort {

/// A parsed activation that the CPU kernels can apply; kNone leaves values unchanged.
struct FusedActivation : FusedActivationAttributes {
  FusedActivation() = default;
  /// Implicit, so that kernels assign ParseConvActivation's and ParseGemmActivation's results.
  FusedActivation(const FusedActivationAttributes& attributes)
      : FusedActivationAttributes(attributes) {}

  /// data[i] = f(data[i]) for i in [0, count).
  void Apply(float* data, int64_t count) const;
  void Apply(double* data, int64_t count) const;
};

}  // namespace ort
