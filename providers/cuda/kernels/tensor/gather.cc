// Gather on the GPU. The indices are read on the host (they are small: token ids, positions),
// checked and made non-negative there, then sent with the launch; an index out of range is an
// error naming it, as on the CPU.
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
    const TensorShape& shape = data->shape();
    auto axis = NormalizeAxis(axis_, shape.rank());
    if (!axis.ok()) return context.Error("axis: {}", axis.status().message());
    auto read = ReadInt64Values(*indices);
    if (!read.ok()) return context.Error("indices: {}", read.status().message());
    std::vector<int64_t> positions = std::move(read).value();
    const int64_t dim = shape[*axis];
    for (int64_t& position : positions) {
      if (position < -dim || position >= dim) {
        return context.Error("index {} is out of range for axis {} of size {}", position, axis_,
                             dim);
      }
      if (position < 0) position += dim;
    }
    std::vector<int64_t> dims(shape.dims().begin(), shape.dims().begin() + *axis);
    dims.insert(dims.end(), indices->shape().dims().begin(), indices->shape().dims().end());
    dims.insert(dims.end(), shape.dims().begin() + *axis + 1, shape.dims().end());
    ORT_ASSIGN_OR_RETURN(Tensor * out, context.Output(0, data->dtype(), TensorShape(dims)));
    if (out->NumElements() == 0) return Status::OK();
    ORT_ASSIGN_OR_RETURN(
        Tensor device_positions,
        Tensor::Allocate(DataType::kInt64, TensorShape({static_cast<int64_t>(positions.size())}),
                         context.allocator()));
    // From pageable memory the copy is staged before the call returns, so `positions` may go.
    ORT_RETURN_IF_ERROR(CudaStatus(
        cudaMemcpyAsync(device_positions.MutableRawData(), positions.data(),
                        positions.size() * sizeof(int64_t), cudaMemcpyHostToDevice, stream()),
        context.node().Describe()));
    return CudaStatus(
        cuda::LaunchGather(ElementSize(data->dtype()), data->RawData(),
                           device_positions.Data<int64_t>(), out->MutableRawData(),
                           shape.SizeToDimension(*axis), dim, shape.SizeFromDimension(*axis + 1),
                           static_cast<int64_t>(positions.size()), stream()),
        context.node().Describe());
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
