// Softmax and LogSoftmax on the GPU, float and float16 (computed in float). Opsets before 13
// flatten the input to 2-D at `axis` (default 1) and normalize each row; 13 and later normalize
// along `axis` (default -1) alone.
#include "providers/cuda/cuda_common.h"
#include "providers/cuda/kernels/cuda_kernels.h"
#include "providers/cuda/kernels/nn/softmax_launch.h"

namespace ort {
namespace {

const std::vector<DataType> kTypes = {DataType::kFloat, DataType::kFloat16};

template <bool kLog>
class Softmax final : public CudaKernel {
 public:
  Status InitAttributes(const KernelInfo& info) override {
    flatten_ = info.opset() < 13;
    ORT_ASSIGN_OR_RETURN(axis_, info.GetAttributeOr<int64_t>("axis", flatten_ ? 1 : -1));
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    const TensorShape& shape = x->shape();
    auto axis = NormalizeAxis(axis_, std::max<size_t>(shape.rank(), 1));
    if (!axis.ok()) return context.Error("axis: {}", axis.status().message());
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, x->dtype(), shape));
    int64_t outer = shape.SizeToDimension(*axis), length = 1, inner = 1;
    if (flatten_) {
      length = shape.SizeFromDimension(*axis);
    } else if (shape.rank() > 0) {
      length = shape[*axis];
      inner = shape.SizeFromDimension(*axis + 1);
    }
    const auto kind =
        x->dtype() == DataType::kFloat ? cuda::ElementKind::kFloat : cuda::ElementKind::kHalf;
    return CudaStatus(cuda::LaunchSoftmax(kind, x->RawData(), y->MutableRawData(), outer, length,
                                          inner, kLog, stream()),
                      context.node().Describe());
  }

 private:
  bool flatten_ = false;
  int64_t axis_ = -1;
};

}  // namespace

void RegisterCudaSoftmaxKernels(KernelRegistry& registry) {
  registry.Add<Softmax<false>>(KernelDef("Softmax").Versions(1).Input(0, kTypes));
  registry.Add<Softmax<true>>(KernelDef("LogSoftmax").Versions(1).Input(0, kTypes));
}

}  // namespace ort
