// The Conv kernel, shared with com.microsoft FusedConv (providers/cpu/kernels/contrib/nn), which
// adds an optional input Z summed into the output and an activation applied in the epilogue.
#pragma once

#include <memory>
#include <mutex>

#include "lib/framework/op_kernel.h"
#include "providers/cpu/kernels/common/fused_activation.h"
#include "providers/cpu/kernels/common/gemm.h"
#include "providers/cpu/kernels/onnx/nn/conv_packed_filters.h"
#include "providers/cpu/kernels/onnx/nn/conv_plan.h"

namespace ort {

/// Y = activation(conv(X, W) + B + Z), where B, Z and the activation are optional (plain Conv
/// has neither Z nor an activation).
class Conv : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override;
  Status Compute(KernelContext& context) const override;
  bool PrePackedInput(size_t index) const override { return index == 1 && packs_weights_; }

 protected:
  /// Set by FusedConv: input 3 is Z, shaped like Y. Y may share Z's buffer (FusedConv computes in
  /// place over Z), so each block of Z is read before that block of Y is written.
  bool sum_input_ = false;
  FusedActivation activation_;

 private:
  Result<ConvProblem> Plan(const KernelContext& context, const Tensor& x, DataType w_type,
                           const TensorShape& w_shape, const Tensor* bias, const Tensor* sum) const;

  /// Packs W for the packed-weights path at the first run, in the form that suits its problem:
  /// as the A operand of Y = W col (packed_filters_) or W^T as the B operand of the transposed
  /// product (packed_weights_).
  void PackWeights(const ConvProblem& problem) const;

  WindowAttributes attributes_;
  /// Constant float weights without groups take the packed-weights path. The kernel then holds
  /// the only reference to W besides the session's, which the session drops (PrePackedInput),
  /// so W is freed as soon as it is packed. Packing waits for the first run: at session
  /// creation it cost R(2+1)D's start 80 ms, a third more than ONNX Runtime's whole start.
  bool packs_weights_ = false;
  TensorShape packed_shape_;
  mutable std::once_flag pack_once_;
  mutable Tensor unpacked_weights_;
  mutable std::unique_ptr<PackedSgemmB> packed_weights_;
  mutable std::unique_ptr<PackedConvFilters> packed_filters_;
};

}  // namespace ort
