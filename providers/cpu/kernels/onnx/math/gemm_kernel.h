// The Gemm kernel, shared with com.microsoft FusedGemm (providers/cpu/kernels/contrib/math),
// which applies an activation to the result.
#pragma once

#include <memory>

#include "lib/framework/op_kernel.h"
#include "providers/common/math/gemm_attributes.h"
#include "providers/cpu/kernels/common/fused_activation.h"
#include "providers/cpu/kernels/common/gemm.h"

namespace ort {

/// Y = activation(alpha * op(A) * op(B) + beta * C); plain Gemm has no activation.
class Gemm : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override;
  Status Compute(KernelContext& context) const override;
  bool PrePackedInput(size_t index) const override { return index == 1 && packed_b_ != nullptr; }

 protected:
  /// Set by FusedGemm; applies to float and double outputs.
  FusedActivation activation_;

 private:
  Status CheckC(const KernelContext& context, const TensorShape& shape, int64_t m, int64_t n) const;

  GemmAttributes attributes_;
  bool exact_c_ = false;
  /// A constant float B, packed at creation.
  std::unique_ptr<const PackedSgemmB> packed_b_;
};

}  // namespace ort
