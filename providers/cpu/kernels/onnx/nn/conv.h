// The Conv kernel, shared with com.microsoft FusedConv (providers/cpu/kernels/contrib/nn), which
// adds an optional input Z summed into the output and an activation applied in the epilogue.
#pragma once

#include <memory>
#include <mutex>

#include "lib/framework/op_kernel.h"
#include "providers/cpu/kernels/common/fused_activation.h"
#include "providers/cpu/kernels/common/gemm.h"
#include "providers/cpu/kernels/onnx/nn/conv_plan.h"

namespace ort {

/// Y = activation(conv(X, W) + B + Z), where B, Z and the activation are optional (plain Conv
/// has neither Z nor an activation).
class Conv : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override;
  Status Compute(KernelContext& context) const override;

 protected:
  /// Set by FusedConv: input 3 is Z, shaped like Y. Y may share Z's buffer (FusedConv computes in
  /// place over Z), so each block of Z is read before that block of Y is written.
  bool sum_input_ = false;
  FusedActivation activation_;

 private:
  Result<ConvProblem> Plan(const KernelContext& context, const Tensor& x, const Tensor& w,
                           const Tensor* bias, const Tensor* sum) const;
  /// W^T packed for the packed-weights path (packed on first use, kept for later runs), or null
  /// when that path does not apply: weights not constant float, or groups.
  const PackedSgemmB* PackedWeights(const ConvProblem& problem, const Tensor& w) const;

  WindowAttributes attributes_;
  bool constant_float_weights_ = false;
  mutable std::once_flag pack_once_;
  mutable std::unique_ptr<PackedSgemmB> packed_weights_;
};

}  // namespace ort
