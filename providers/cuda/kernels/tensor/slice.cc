// Slice on the GPU: one strided copy (elementwise_launch.h) reading the input from the first
// selected element with each axis's stride times its step, so negative steps walk backwards. The
// starts, ends, axes and steps (attributes before opset 10, host inputs from then on) are read
// and clamped by SliceAttributes (providers/common/tensor/slice_params.h), shared with the CPU
// kernel, so both providers select alike. Any element type of 1 to 8 bytes.
#include <climits>

#include "providers/common/tensor/slice_params.h"
#include "providers/cuda/cuda_common.h"
#include "providers/cuda/kernels/cuda_kernels.h"
#include "providers/cuda/kernels/math/elementwise_launch.h"

namespace ort {
namespace {

class Slice final : public CudaKernel {
 public:
  Status InitAttributes(const KernelInfo& info) override { return attributes_.Parse(info); }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* data, context.RequiredInput(0));
    const size_t rank = data->shape().rank();
    if (rank > static_cast<size_t>(cuda::kMaxBroadcastRank)) {
      return context.Error("rank {} of {} exceeds the {} the CUDA kernel handles", rank,
                           data->Describe(), cuda::kMaxBroadcastRank);
    }
    ORT_ASSIGN_OR_RETURN(const SliceView view, attributes_.Resolve(context, *data));
    ORT_ASSIGN_OR_RETURN(Tensor * output,
                         context.Output(0, data->dtype(), TensorShape(view.output_dims)));
    if (output->NumElements() == 0) return Status::OK();
    cuda::BroadcastStrides copy;
    copy.rank = static_cast<int>(rank);
    for (size_t d = 0; d < rank; ++d) {
      copy.output_dims[d] = view.output_dims[d];
      copy.a_strides[d] = view.strides[d];
    }
    const size_t element = ElementSize(data->dtype());
    return CudaStatus(
        cuda::LaunchStridedCopy(
            element,
            static_cast<const char*>(data->RawData()) + static_cast<size_t>(view.offset) * element,
            output->MutableRawData(), output->NumElements(), copy, stream()),
        context.node());
  }

 private:
  SliceAttributes attributes_;
};

// From opset 10 starts, ends, axes and steps are inputs, read on the host.
void AddSlice(KernelRegistry& registry, int since, int until) {
  KernelDef def = KernelDef("Slice").Versions(since, until).Input(0, CudaTensorTypes());
  if (since >= 10) def.HostInput(1).HostInput(2).HostInput(3).HostInput(4);
  registry.Add<Slice>(std::move(def));
}

}  // namespace

void RegisterCudaSliceKernels(KernelRegistry& registry) {
  AddSlice(registry, 1, 9);
  AddSlice(registry, 10, 10);
  AddSlice(registry, 11, 12);
  AddSlice(registry, 13, INT_MAX);
}

}  // namespace ort
