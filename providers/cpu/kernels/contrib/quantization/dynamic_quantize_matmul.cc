// com.microsoft DynamicQuantizeMatMul: Y = (A_q - a_zero)(B - b_zero) a_scale b_scale[j]
// (+ bias[j]), with A (float, [..., K]) quantized to uint8 as DynamicQuantizeLinear does (the
// range of A widened to hold 0, scale = range / 255, zero point rounded half to even) and B an
// 8-bit [K, N] matrix, per tensor or per column: what the dynamic quantization of transformer
// projections runs as, the weights packed once and A quantized in one vectorized pass.
#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "providers/cpu/kernels/common/dynamic_quantize.h"
#include "providers/cpu/kernels/common/qgemm.h"
#include "providers/cpu/kernels/common/vectorize.h"
#include "providers/cpu/kernels/contrib/quantization/contrib_quantization_kernels.h"
#include "providers/cpu/kernels/onnx/nn/conv_integer.h"
#include "providers/cpu/kernels/onnx/nn/float_params.h"

namespace ort {
namespace {

class DynamicQuantizeMatMul final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    packed_b_ = PackConstantQgemmB(info, 1, 3);
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* a, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* b, context.RequiredInput(1));
    ORT_ASSIGN_OR_RETURN(const Tensor* b_scale, context.RequiredInput(2));
    const Tensor* b_zero = context.Input(3);
    const Tensor* bias = context.Input(4);
    const TensorShape& as = a->shape();
    if (a->dtype() != DataType::kFloat || as.rank() < 1 || b->shape().rank() != 2 ||
        b->shape()[0] != as[as.rank() - 1]) {
      return context.Error("A {} must be float [..., K] and B {} [K, N]", a->Describe(),
                           b->Describe());
    }
    const int64_t k = b->shape()[0], n = b->shape()[1];
    const int64_t m = k == 0 ? 0 : a->NumElements() / k;
    if (b_scale->NumElements() != 1 && b_scale->NumElements() != n) {
      return context.Error("b_scale must hold 1 or {} values", n);
    }
    if (bias != nullptr && (bias->dtype() != DataType::kFloat || bias->NumElements() != n)) {
      return context.Error("bias must be float with {} values", n);
    }
    ORT_ASSIGN_OR_RETURN(const std::vector<int32_t> zeros,
                         ReadZeroPoints(context, b_zero, b->dtype(), n, "b_zero_point"));
    ORT_ASSIGN_OR_RETURN(const std::vector<float> scales, ReadFloatParams<float>(*b_scale));
    std::vector<int64_t> y_dims = as.dims();
    y_dims.back() = n;
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, DataType::kFloat, TensorShape(y_dims)));
    if (y->NumElements() == 0) return Status::OK();
    const float* x = a->Data<float>();
    const int64_t count = a->NumElements();
    std::vector<uint8_t> quantized(static_cast<size_t>(count));
    const DynamicQuantization q =
        QuantizeDynamicRange(x, count, quantized.data(), context.thread_pool());
    const float a_scale = q.scale;
    const int32_t a_zero = q.zero_point;
    std::unique_ptr<PackedQgemmB> per_call;
    const PackedQgemmB* packed = packed_b_.get();
    if (packed == nullptr) {
      ORT_RETURN_IF_ERROR(DispatchByType<QuantTypes>(b->dtype(), "B", [&]<typename TB>() {
        per_call =
            std::make_unique<PackedQgemmB>(BestQgemmKernelFor(k, n), k, n, b->Data<TB>(), n, zeros);
        return Status::OK();
      }));
      packed = per_call.get();
    }
    std::vector<float> multipliers(static_cast<size_t>(n));
    for (int64_t j = 0; j < n; ++j) multipliers[j] = a_scale * scales[scales.size() == 1 ? 0 : j];
    const float* bias_values = bias != nullptr ? bias->Data<float>() : nullptr;
    float* out = y->MutableData<float>();
    const int32_t a_zero_values[] = {a_zero};
    QGemmPacked<uint8_t>(
        m, quantized.data(), k, a_zero_values, packed->view(), nullptr, 0, context.thread_pool(),
        [&](int64_t row0, int64_t rows, int64_t col0, int64_t cols, int32_t* block, int64_t ldc) {
          Vectorized([&] {
            for (int64_t r = 0; r < rows; ++r) {
              const int32_t* sums = block + r * ldc;
              float* row = out + (row0 + r) * n + col0;
              const float* factors = multipliers.data() + col0;
              for (int64_t j = 0; j < cols; ++j) {
                row[j] = static_cast<float>(sums[j]) * factors[j];
              }
              if (bias_values != nullptr) {
                for (int64_t j = 0; j < cols; ++j) row[j] += bias_values[col0 + j];
              }
            }
          });
        });
    return Status::OK();
  }

 private:
  std::unique_ptr<PackedQgemmB> packed_b_;
};

}  // namespace

void RegisterDynamicQuantizeMatMulKernels(KernelRegistry& registry) {
  registry.Add<DynamicQuantizeMatMul>(KernelDef("DynamicQuantizeMatMul", std::string(kMsDomain))
                                          .Versions(1)
                                          .Input(0, TypeList<float>::DataTypes())
                                          .Input(1, QuantTypes::DataTypes()));
}

}  // namespace ort
