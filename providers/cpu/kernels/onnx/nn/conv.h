// The Conv kernel, shared with com.microsoft FusedConv (providers/cpu/kernels/contrib/nn), which
// adds an optional input Z summed into the output and an activation applied in the epilogue.
#pragma once

#include "lib/framework/op_kernel.h"
#include "providers/cpu/kernels/common/fused_activation.h"
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

  WindowAttributes attributes_;
};

}  // namespace ort
