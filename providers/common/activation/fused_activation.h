// The activation that fused kernels (com.microsoft FusedConv, FusedGemm) apply to their output
// in place, right after computing it, instead of a separate elementwise node: its kinds, its
// parameters and the parsing of the nodes' attributes, shared by the CPU and CUDA kernels. Each
// provider applies it with its own code (the CPU provider's kernels/common/fused_activation.h).
#pragma once

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
  kQuickGelu,           // x sigmoid(alpha x): SiLU with alpha 1
  kHardSwish,           // x clamp(x / 6 + 1 / 2, 0, 1)
};

/// An activation with its parameters; kNone leaves values unchanged.
struct FusedActivationAttributes {
  ActivationKind kind = ActivationKind::kNone;
  float alpha = 0.0f;
  float beta = 0.0f;
  float gamma = 0.0f;

  bool enabled() const { return kind != ActivationKind::kNone; }
};

/// FusedConv's attributes: `activation` (Relu, Tanh, Sigmoid, LeakyRelu, Clip, HardSigmoid) and
/// `activation_params` (LeakyRelu: alpha; Clip: min, max; HardSigmoid: alpha, beta). Missing
/// parameters take the defaults of the ONNX op of the same name. QuickGelu (alpha) and HardSwish
/// are this engine's own: sessions fuse them into NCHWc convolutions (fuse_nchwc_conv_activation),
/// never into a model saved for onnxruntime.
Result<FusedActivationAttributes> ParseConvActivation(const KernelInfo& info);

/// FusedGemm's attributes: `activation` (any of the elementwise activations above except Clip)
/// with `activation_alpha`, `activation_beta` and `activation_gamma`, defaulting like the ONNX
/// op of the same name (ScaledTanh and ParametricSoftplus: 1).
Result<FusedActivationAttributes> ParseGemmActivation(const KernelInfo& info);

}  // namespace ort
