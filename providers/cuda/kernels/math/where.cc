// Where(condition, X, Y) on the GPU with numpy broadcasting of all three inputs, any element type
// of 1 to 8 bytes. The inputs are checked and planned by ReadWhereInputs, shared with the CPU
// kernel (providers/common/logical/where_inputs.h), whose broadcast plan merges the dimensions
// every input walks alike, so the kernel divides by as few dimensions as the shapes allow.
#include "providers/common/logical/where_inputs.h"
#include "providers/cuda/cuda_common.h"
#include "providers/cuda/kernels/cuda_kernels.h"
#include "providers/cuda/kernels/math/where_launch.h"

namespace ort {
namespace {

class Where final : public CudaKernel {
 public:
  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const WhereInputs inputs, ReadWhereInputs(context));
    const BroadcastPlan& plan = inputs.plan;
    const size_t rank = plan.outer_dims.size() + 1;
    if (rank > static_cast<size_t>(cuda::kMaxBroadcastRank)) {
      return context.Error(
          "{}, {} and {} broadcast over {} dimensions, more than the {} the CUDA "
          "kernel handles",
          inputs.condition->Describe(), inputs.x->Describe(), inputs.y->Describe(), rank,
          cuda::kMaxBroadcastRank);
    }
    ORT_ASSIGN_OR_RETURN(Tensor * out, context.Output(0, inputs.x->dtype(), plan.output_shape));
    cuda::SelectStrides strides;
    strides.rank = static_cast<int>(rank);
    int64_t* const input_strides[] = {strides.condition_strides, strides.x_strides,
                                      strides.y_strides};
    for (size_t k = 0; k < 3; ++k) {
      for (size_t d = 0; d + 1 < rank; ++d) input_strides[k][d] = plan.outer_strides[k][d];
      input_strides[k][rank - 1] = plan.inner_strides[k];
    }
    for (size_t d = 0; d + 1 < rank; ++d) strides.output_dims[d] = plan.outer_dims[d];
    strides.output_dims[rank - 1] = plan.inner;
    return CudaStatus(
        cuda::LaunchWhere(ElementSize(inputs.x->dtype()), inputs.condition->Data<bool>(),
                          inputs.x->RawData(), inputs.y->RawData(), out->MutableRawData(),
                          out->NumElements(), strides, stream()),
        context.node());
  }
};

}  // namespace

void RegisterCudaWhereKernels(KernelRegistry& registry) {
  registry.Add<Where>(KernelDef("Where")
                          .Versions(9)
                          .Input(0, {DataType::kBool})
                          .Input(1, CudaTensorTypes())
                          .Input(2, CudaTensorTypes()));
}

}  // namespace ort
