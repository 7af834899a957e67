// Gather on the GPU. The indices are read on the host (they are small: token ids, positions),
// checked and made non-negative there, then sent with the launch; an index out of range is an
// error naming it, as on the CPU.
#include "providers/common/tensor/gather_indices.h"
#include "providers/cuda/cuda_common.h"
#include "providers/cuda/kernels/cuda_kernels.h"
#include "providers/cuda/kernels/math/elementwise_launch.h"

namespace ort {
namespace {

class Gather final : public CudaKernel {
 public:
  Status InitAttributes(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(axis_, info.GetAttributeOr<int64_t>("axis", 0));
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* data, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* indices, context.RequiredInput(1));
    ORT_ASSIGN_OR_RETURN(const GatherPlan plan, PlanGather(context, *data, *indices, axis_));
    ORT_ASSIGN_OR_RETURN(Tensor * out,
                         context.Output(0, data->dtype(), TensorShape(plan.output_dims)));
    if (out->NumElements() == 0) return Status::OK();
    const auto count = static_cast<int64_t>(plan.positions.size());
    ORT_ASSIGN_OR_RETURN(Tensor device_positions,
                         context.AllocateTemp(DataType::kInt64, TensorShape({count})));
    // From pageable memory the copy is staged before the call returns, so `plan` may go.
    ORT_RETURN_IF_ERROR(CudaStatus(
        cudaMemcpyAsync(device_positions.MutableRawData(), plan.positions.data(),
                        plan.positions.size() * sizeof(int64_t), cudaMemcpyHostToDevice, stream()),
        context.node()));
    return CudaStatus(cuda::LaunchGather(ElementSize(data->dtype()), data->RawData(),
                                         device_positions.Data<int64_t>(), out->MutableRawData(),
                                         plan.outer, plan.dim, plan.inner, count, stream()),
                      context.node());
  }

 private:
  int64_t axis_ = 0;
};

}  // namespace

void RegisterCudaGatherKernels(KernelRegistry& registry) {
  registry.Add<Gather>(KernelDef("Gather")
                           .Versions(1)
                           .Input(0, CudaTensorTypes())
                           .Input(1, {DataType::kInt32, DataType::kInt64})
                           .HostInput(1));
}

}  // namespace ort
