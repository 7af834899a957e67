// com.microsoft MatMulIntegerToFloat: Y = (A - a_zero)(B - b_zero) a_scale b_scale[j] (+ bias[j])
// in float, of 8-bit A and B batched as numpy.matmul; B's scale and zero point per tensor or per
// column. What onnxruntime's quantizer emits for a MatMul whose float output feeds float ops. As
// onnxruntime computes it: the multiplier a_scale b_scale[j] is one float product, and each int32
// sum is converted, multiplied and then has the bias added, each step rounded to float. A
// constant B is packed once.
#include <memory>
#include <vector>

#include "providers/cpu/kernels/common/qgemm.h"
#include "providers/cpu/kernels/common/vectorize.h"
#include "providers/cpu/kernels/contrib/quantization/contrib_quantization_kernels.h"
#include "providers/cpu/kernels/onnx/math/matmul_integer.h"
#include "providers/cpu/kernels/onnx/nn/conv_integer.h"

namespace ort {
namespace {

/// True when `t` holds one value, or `n` values along its last axis (B's columns).
bool PerTensorOrColumn(const Tensor& t, int64_t n) {
  const TensorShape& s = t.shape();
  return t.NumElements() == 1 || (s.rank() > 0 && s[s.rank() - 1] == n && t.NumElements() == n);
}

class MatMulIntegerToFloat final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    packed_b_ = PackConstantQgemmB(info, 1, 5);
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    const Tensor* in[4];
    for (size_t i = 0; i < 4; ++i) {
      ORT_ASSIGN_OR_RETURN(in[i], context.RequiredInput(i));
    }
    const Tensor& a = *in[0];
    const Tensor& b = *in[1];
    const Tensor& a_scale = *in[2];
    const Tensor& b_scale = *in[3];
    const Tensor* a_zero = context.Input(4);
    const Tensor* b_zero = context.Input(5);
    const Tensor* bias = context.Input(6);
    auto plan = PlanMatMul(a.shape(), b.shape());
    if (!plan.ok()) return context.Error("{}", plan.status().message());
    const int64_t n = plan->n;
    if (a_scale.dtype() != DataType::kFloat || a_scale.NumElements() != 1) {
      return context.Error("a_scale {} must be one float (per-row scales of A are not supported)",
                           a_scale.Describe());
    }
    if (b_scale.dtype() != DataType::kFloat || !PerTensorOrColumn(b_scale, n)) {
      return context.Error("b_scale {} must be float holding 1 value or {} (one per column of B)",
                           b_scale.Describe(), n);
    }
    if (a_zero != nullptr && a_zero->NumElements() != 1) {
      return context.Error("a_zero_point {} must hold one value", a_zero->Describe());
    }
    if (b_zero != nullptr && !PerTensorOrColumn(*b_zero, n)) {
      return context.Error("b_zero_point {} must hold 1 value or {} (one per column of B)",
                           b_zero->Describe(), n);
    }
    if (bias != nullptr && (bias->dtype() != DataType::kFloat || bias->shape().rank() != 1 ||
                            bias->NumElements() != n)) {
      return context.Error("bias {} must be a float vector of {} values", bias->Describe(), n);
    }
    const float a_factor = a_scale.Data<float>()[0];
    const float* b_factors = b_scale.Data<float>();
    std::vector<float> multipliers(static_cast<size_t>(n));
    for (int64_t j = 0; j < n; ++j) {
      multipliers[j] = a_factor * b_factors[b_scale.NumElements() == 1 ? 0 : j];
    }
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, DataType::kFloat, plan->output_shape));
    if (y->NumElements() == 0) return Status::OK();
    float* out = y->MutableData<float>();
    const float* bias_values = bias != nullptr ? bias->Data<float>() : nullptr;
    const QgemmBlockDone finish = [&](int64_t row0, int64_t rows, int64_t col0, int64_t cols,
                                      int32_t* block, int64_t ldc) {
      Vectorized([&] {
        for (int64_t r = 0; r < rows; ++r) {
          const int32_t* sums = block + r * ldc;
          float* row = out + (row0 + r) * n + col0;
          const float* factors = multipliers.data() + col0;
          for (int64_t j = 0; j < cols; ++j) row[j] = static_cast<float>(sums[j]) * factors[j];
          // A loop of its own: fused into one multiply-add, the bias would round once where
          // onnxruntime rounds twice.
          if (bias_values != nullptr) {
            for (int64_t j = 0; j < cols; ++j) row[j] += bias_values[col0 + j];
          }
        }
      });
    };
    // Packed and one product: blocks go from thread scratch straight to Y, no int32 C is kept.
    const bool blocks_only = packed_b_ != nullptr && plan->single_gemm;
    const auto products = std::make_unique_for_overwrite<int32_t[]>(
        blocks_only ? 0 : static_cast<size_t>(y->NumElements()));
    return IntegerProducts(context, a, b, a_zero, b_zero, *plan, packed_b_.get(),
                           blocks_only ? nullptr : products.get(), finish);
  }

 private:
  std::unique_ptr<PackedQgemmB> packed_b_;
};

}  // namespace

void RegisterMatMulIntegerToFloatKernels(KernelRegistry& registry) {
  registry.Add<MatMulIntegerToFloat>(KernelDef("MatMulIntegerToFloat", std::string(kMsDomain))
                                         .Versions(1)
                                         .Input(0, QuantTypes::DataTypes())
                                         .Input(1, QuantTypes::DataTypes()));
}

}  // namespace ort
