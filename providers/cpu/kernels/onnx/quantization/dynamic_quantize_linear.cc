// DynamicQuantizeLinear: uint8 quantization with a scale and zero point computed from the data
// range (widened to include 0): scale = (max - min) / 255, zero_point = round(-min / scale).
#include <algorithm>
#include <cmath>

#include "providers/cpu/kernels/onnx/quantization/quantization_kernels.h"

namespace ort {
namespace {

class DynamicQuantizeLinear final : public OpKernel {
 public:
  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    if (x->dtype() != DataType::kFloat) return context.Error("x must be float");
    const float* in = x->Data<float>();
    const int64_t count = x->NumElements();
    float low = 0.0f, high = 0.0f;
    for (int64_t i = 0; i < count; ++i) {
      low = std::min(low, in[i]);
      high = std::max(high, in[i]);
    }
    const float scale = (high - low) / 255.0f;
    // An all-zero input gives scale 0: every value quantizes to the zero point 0.
    const float zero_point =
        scale == 0.0f ? 0.0f : std::clamp(std::nearbyint((0.0f - low) / scale), 0.0f, 255.0f);
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, DataType::kUint8, x->shape()));
    uint8_t* out = y->MutableData<uint8_t>();
    ThreadPool::TryParallelFor(context.thread_pool(), count, 4.0, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        const float q = scale == 0.0f ? zero_point : std::nearbyint(in[i] / scale) + zero_point;
        out[i] = static_cast<uint8_t>(std::clamp(q, 0.0f, 255.0f));
      }
    });
    ORT_ASSIGN_OR_RETURN(Tensor * y_scale, context.Output(1, DataType::kFloat, TensorShape{}));
    y_scale->MutableData<float>()[0] = scale;
    ORT_ASSIGN_OR_RETURN(Tensor * y_zero, context.Output(2, DataType::kUint8, TensorShape{}));
    y_zero->MutableData<uint8_t>()[0] = static_cast<uint8_t>(zero_point);
    return Status::OK();
  }
};

}  // namespace

void RegisterDynamicQuantizeLinearKernels(KernelRegistry& registry) {
  registry.Add<DynamicQuantizeLinear>(
      KernelDef("DynamicQuantizeLinear").Versions(11).Input(0, TypeList<float>::DataTypes()));
}

}  // namespace ort
