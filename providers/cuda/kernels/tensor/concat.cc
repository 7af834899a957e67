// Concat on the GPU: each input is one 2-D copy into its column range of the output viewed as
// [outer, concatenated axis * inner] (cudaMemcpy2DAsync), any element type.
#include "providers/cuda/cuda_common.h"
#include "providers/cuda/kernels/cuda_kernels.h"

namespace ort {
namespace {

class Concat final : public CudaKernel {
 public:
  Status InitAttributes(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(axis_, info.GetAttribute<int64_t>("axis"));
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    std::vector<const Tensor*> inputs;
    for (size_t i = 0; i < context.InputCount(); ++i) {
      ORT_ASSIGN_OR_RETURN(const Tensor* input, context.RequiredInput(i));
      inputs.push_back(input);
    }
    if (inputs.empty()) return context.Error("needs at least one input");
    const Tensor& first = *inputs[0];
    auto axis = NormalizeAxis(axis_, first.shape().rank());
    if (!axis.ok()) return context.Error("axis: {}", axis.status().message());
    std::vector<int64_t> dims = first.shape().dims();
    dims[*axis] = 0;
    for (const Tensor* input : inputs) {
      bool fits = input->dtype() == first.dtype() && input->shape().rank() == dims.size();
      for (size_t d = 0; fits && d < dims.size(); ++d) {
        fits = d == *axis || input->shape()[d] == first.shape()[d];
      }
      if (!fits) {
        return context.Error("{} does not concatenate with {} along axis {}", input->Describe(),
                             first.Describe(), axis_);
      }
      dims[*axis] += input->shape()[*axis];
    }
    ORT_ASSIGN_OR_RETURN(Tensor * out, context.Output(0, first.dtype(), TensorShape(dims)));
    if (out->NumElements() == 0) return Status::OK();
    const size_t element = ElementSize(first.dtype());
    const int64_t outer = out->shape().SizeToDimension(*axis);
    const size_t out_row = static_cast<size_t>(out->shape().SizeFromDimension(*axis)) * element;
    size_t column = 0;
    for (const Tensor* input : inputs) {
      const size_t row = static_cast<size_t>(input->shape().SizeFromDimension(*axis)) * element;
      if (row > 0) {
        ORT_RETURN_IF_ERROR(CudaStatus(
            cudaMemcpy2DAsync(static_cast<char*>(out->MutableRawData()) + column, out_row,
                              input->RawData(), row, row, static_cast<size_t>(outer),
                              cudaMemcpyDeviceToDevice, stream()),
            context.node()));
      }
      column += row;
    }
    return Status::OK();
  }

 private:
  int64_t axis_ = 0;
};

}  // namespace

void RegisterCudaConcatKernels(KernelRegistry& registry) {
  registry.Add<Concat>(KernelDef("Concat").Versions(4).Input(0, CudaTensorTypes()));
}

}  // namespace ort
