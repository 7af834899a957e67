// The Conv kernel, shared with com.microsoft FusedConv (providers/cpu/kernels/contrib/nn), which
// adds an optional input Z summed into the output and an activation applied in the epilogue.
#pragma once

#include <memory>

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
  bool PrePackedInput(size_t index) const override {
    return index == 1 && packed_weights_ != nullptr;
  }

 protected:
  /// Set by FusedConv: input 3 is Z, shaped like Y. Y may share Z's buffer (FusedConv computes in
  /// place over Z), so each block of Z is read before that block of Y is written.
  bool sum_input_ = false;
  FusedActivation activation_;

 private:
  Result<ConvProblem> Plan(const KernelContext& context, const Tensor& x, DataType w_type,
                           const TensorShape& w_shape, const Tensor* bias, const Tensor* sum) const;

  WindowAttributes attributes_;
  /// W^T of constant float weights without groups, packed by Init for the packed-weights path;
  /// W itself is then never read (the session frees it) and `packed_shape_` is its shape.
  std::unique_ptr<PackedSgemmB> packed_weights_;
  TensorShape packed_shape_;
};

}  // namespace ort
