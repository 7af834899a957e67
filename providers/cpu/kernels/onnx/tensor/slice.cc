// Slice: opset 1 takes starts/ends/axes attributes; opset 10+ takes starts, ends, axes and steps
// as inputs (negative steps walk backwards). DynamicSlice, the experimental opset-1 op ONNX
// Runtime keeps, is Slice-10 without steps. Bounds are clamped as the spec describes and the
// result is one strided copy of the input.
#include "providers/common/tensor/slice_params.h"
#include "providers/cpu/kernels/onnx/tensor/tensor_copy.h"
#include "providers/cpu/kernels/onnx/tensor/tensor_kernels.h"

namespace ort {
namespace {

class Slice final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override { return attributes_.Parse(info); }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* data, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const SliceView view, attributes_.Resolve(context, *data));
    ORT_ASSIGN_OR_RETURN(Tensor * output,
                         context.Output(0, data->dtype(), TensorShape(view.output_dims)));
    if (output->NumElements() == 0) return Status::OK();
    StridedCopy(data->dtype(), view.output_dims,
                ElementAt(data->RawData(), data->dtype(), view.offset), view.strides,
                output->MutableRawData(), ContiguousStrides(output->shape()),
                context.thread_pool());
    return Status::OK();
  }

 private:
  SliceAttributes attributes_;
};

}  // namespace

void RegisterSliceKernels(KernelRegistry& registry) {
  registry.Add<Slice>(KernelDef("Slice")
                          .Versions(1)
                          .Input(0, AllDataTypes())
                          .HostInput(1)
                          .HostInput(2)
                          .HostInput(3)
                          .HostInput(4));
  registry.Add<Slice>(KernelDef("DynamicSlice")
                          .Versions(1)
                          .Input(0, AllDataTypes())
                          .HostInput(1)
                          .HostInput(2)
                          .HostInput(3));
}

}  // namespace ort
