// StringConcat (opset 20): element-wise concatenation of two string tensors with numpy
// broadcasting.
#include <string>

#include "providers/cpu/kernels/onnx/math/elementwise_util.h"
#include "providers/cpu/kernels/onnx/text/text_kernels.h"

namespace ort {
namespace {

class StringConcat final : public OpKernel {
 public:
  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* y, context.RequiredInput(1));
    return BroadcastBinaryTensors<std::string, std::string, std::string>(
        context, *x, *y, [](const std::string& a, const std::string& b) { return a + b; }, 50.0);
  }
};

}  // namespace

void RegisterStringConcatKernels(KernelRegistry& registry) {
  registry.Add<StringConcat>(KernelDef("StringConcat")
                                 .Versions(20)
                                 .Input(0, {DataType::kString})
                                 .Input(1, {DataType::kString}));
}

}  // namespace ort
