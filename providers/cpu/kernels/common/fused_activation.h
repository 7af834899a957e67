// The activation that fused kernels (com.microsoft FusedConv, FusedGemm) apply to their output
// in place, right after computing it, instead of a separate elementwise node.
#pragma once

#include <cstdint>

#include "lib/framework/op_kernel.h"

namespace ort {

enum class ActivationKind {
  kNone,
  kRelu,
  kLeakyRelu,  // x < 0 ? alpha x : x
  kTanh,
  kSigmoid,
  kHardSigmoid,         // clamp(alpha x + beta, 0, 1)
  kClip,                // clamp(x, alpha, beta)
  kElu,                 // x < 0 ? alpha (e^x - 1) : x
  kSelu,                // gamma (x <= 0 ? alpha e^x - alpha : x)
  kCelu,                // max(0, x) + min(0, alpha (e^(x / alpha) - 1))
  kSoftplus,            // log(1 + e^x)
  kSoftsign,            // x / (1 + |x|)
  kThresholdedRelu,     // x > alpha ? x : 0
  kScaledTanh,          // alpha tanh(beta x)
  kParametricSoftplus,  // alpha log(1 + e^(beta x))
};

/// An activation with its parameters; kNone leaves values unchanged.
struct FusedActivation {
  ActivationKind kind = ActivationKind::kNone;
  float alpha = 0.0f;
  float beta = 0.0f;
  float gamma = 0.0f;

  bool enabled() const { return kind != ActivationKind::kNone; }

  /// data[i] = f(data[i]) for i in [0, count).
  void Apply(float* data, int64_t count) const;
  void Apply(double* data, int64_t count) const;
};

/// FusedConv's attributes: `activation` (Relu, Tanh, Sigmoid, LeakyRelu, Clip, HardSigmoid) and
/// `activation_params` (LeakyRelu: alpha; Clip: min, max; HardSigmoid: alpha, beta). Missing
/// parameters take the defaults of the ONNX op of the same name.
Result<FusedActivation> ParseConvActivation(const KernelInfo& info);

/// FusedGemm's attributes: `activation` (any of the elementwise activations above except Clip)
/// with `activation_alpha`, `activation_beta` and `activation_gamma`, defaulting like the ONNX
/// op of the same name (ScaledTanh and ParametricSoftplus: 1).
Result<FusedActivation> ParseGemmActivation(const KernelInfo& info);

}  // namespace ort
