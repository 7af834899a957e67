// Expand: numpy broadcast of the input to a shape. A broadcast axis reads with stride 0, so the
// copy is one StridedCopy (runs are filled or memcpy'd); an unchanged shape is a view.
#include "providers/cpu/kernels/onnx/tensor/tensor_copy.h"
#include "providers/cpu/kernels/onnx/tensor/tensor_kernels.h"

namespace ort {
namespace {

class Expand final : public OpKernel {
 public:
  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* data, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* shape_tensor, context.RequiredInput(1));
    if (shape_tensor->shape().rank() != 1) {
      return context.Error("shape must be 1-D, got {}", shape_tensor->Describe());
    }
    auto requested = ReadInt64Values(*shape_tensor);
    if (!requested.ok()) return context.Error("shape: {}", requested.status().message());
    for (int64_t d : *requested) {
      if (d < 0) return context.Error("shape has a negative dimension {}", d);
    }
    auto out_shape = BroadcastShapes(data->shape(), TensorShape(*requested));
    if (!out_shape.ok()) return context.Error("{}", out_shape.status().message());
    if (*out_shape == data->shape()) return context.SetOutput(0, *data);

    ORT_ASSIGN_OR_RETURN(Tensor * output, context.Output(0, data->dtype(), *out_shape));
    const size_t rank = out_shape->rank();
    const size_t in_rank = data->shape().rank();
    const std::vector<int64_t> in_strides = ContiguousStrides(data->shape());
    std::vector<int64_t> src_strides(rank, 0);
    for (size_t i = 0; i < in_rank; ++i) {
      const size_t d = rank - in_rank + i;
      src_strides[d] = data->shape()[i] == 1 ? 0 : in_strides[i];
    }
    StridedCopy(data->dtype(), out_shape->dims(), data->RawData(), src_strides,
                output->MutableRawData(), ContiguousStrides(*out_shape), context.thread_pool());
    return Status::OK();
  }
};

}  // namespace

void RegisterExpandKernels(KernelRegistry& registry) {
  registry.Add<Expand>(KernelDef("Expand").Versions(8).Input(0, AllDataTypes()).HostInput(1));
}

}  // namespace ort
