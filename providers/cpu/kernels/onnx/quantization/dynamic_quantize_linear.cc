// DynamicQuantizeLinear: uint8 quantization with a scale and zero point computed from the data
// range (widened to include 0): scale = (max - min) / 255, zero_point = round(-min / scale)
// (common/dynamic_quantize.h, shared with DynamicQuantizeMatMul).
#include "providers/cpu/kernels/common/dynamic_quantize.h"
#include "providers/cpu/kernels/onnx/quantization/quantization_kernels.h"

namespace ort {
namespace {

class DynamicQuantizeLinear final : public OpKernel {
 public:
  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    if (x->dtype() != DataType::kFloat) return context.Error("x must be float");
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, DataType::kUint8, x->shape()));
    const DynamicQuantization q = QuantizeDynamicRange(
        x->Data<float>(), x->NumElements(), y->MutableData<uint8_t>(), context.thread_pool());
    ORT_ASSIGN_OR_RETURN(Tensor * y_scale, context.Output(1, DataType::kFloat, TensorShape{}));
    y_scale->MutableData<float>()[0] = q.scale;
    ORT_ASSIGN_OR_RETURN(Tensor * y_zero, context.Output(2, DataType::kUint8, TensorShape{}));
    y_zero->MutableData<uint8_t>()[0] = static_cast<uint8_t>(q.zero_point);
    return Status::OK();
  }
};

}  // namespace

void RegisterDynamicQuantizeLinearKernels(KernelRegistry& registry) {
  registry.Add<DynamicQuantizeLinear>(
      KernelDef("DynamicQuantizeLinear").Versions(11).Input(0, TypeList<float>::DataTypes()));
}

}  // namespace ort
