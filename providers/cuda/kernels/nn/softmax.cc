// Softmax and LogSoftmax on the GPU, float and float16 (computed in float). Opsets before 13
// flatten the input to 2-D at `axis` (default 1) and normalize each row; 13 and later normalize
// along `axis` (default -1) alone.
#include "providers/common/math/softmax_axis.h"
#include "providers/cuda/cuda_common.h"
#include "providers/cuda/kernels/cuda_kernels.h"
#include "providers/cuda/kernels/nn/softmax_launch.h"

namespace ort {
namespace {

const std::vector<DataType> kTypes = {DataType::kFloat, DataType::kFloat16};

template <bool kLog>
class Softmax final : public CudaKernel {
 public:
  Status InitAttributes(const KernelInfo& info) override { return axis_.Parse(info); }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const SoftmaxBlocks blocks, axis_.Resolve(context, x->shape()));
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, x->dtype(), x->shape()));
    const auto kind =
        x->dtype() == DataType::kFloat ? cuda::ElementKind::kFloat : cuda::ElementKind::kHalf;
    return CudaStatus(cuda::LaunchSoftmax(kind, x->RawData(), y->MutableRawData(), blocks.outer,
                                          blocks.length, blocks.inner, kLog, stream()),
                      context.node());
  }

 private:
  SoftmaxAxis axis_;
};

}  // namespace

void RegisterCudaSoftmaxKernels(KernelRegistry& registry) {
  registry.Add<Softmax<false>>(KernelDef("Softmax").Versions(1).Input(0, kTypes));
  registry.Add<Softmax<true>>(KernelDef("LogSoftmax").Versions(1).Input(0, kTypes));
}

}  // namespace ort
