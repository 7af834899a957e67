// Concat: each input is copied into its slab of the output; StridedCopy turns that into one
// memcpy per outer index.
#include "providers/cpu/kernels/onnx/tensor/tensor_copy.h"
#include "providers/cpu/kernels/onnx/tensor/tensor_kernels.h"

namespace ort {
namespace {

class Concat final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    // Opset 1 defaults the axis to 1; from opset 4 it is required.
    if (info.opset() < 4) {
      ORT_ASSIGN_OR_RETURN(axis_, info.GetAttributeOr<int64_t>("axis", 1));
    } else {
      ORT_ASSIGN_OR_RETURN(axis_, info.GetAttribute<int64_t>("axis"));
    }
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    std::vector<const Tensor*> inputs;
    for (size_t i = 0; i < context.InputCount(); ++i) {
      if (!context.HasInput(i)) continue;
      ORT_ASSIGN_OR_RETURN(const Tensor* input, context.RequiredInput(i));
      inputs.push_back(input);
    }
    if (inputs.empty()) return context.Error("needs at least one input");
    const Tensor& first = *inputs[0];
    const size_t rank = first.shape().rank();
    if (rank == 0) return context.Error("cannot concatenate scalars");
    auto normalized = NormalizeAxis(axis_, rank);
    if (!normalized.ok()) return context.Error("{}", normalized.status().message());
    const size_t axis = *normalized;
    std::vector<int64_t> out_dims = first.shape().dims();
    out_dims[axis] = 0;
    for (const Tensor* input : inputs) {
      const auto& dims = input->shape().dims();
      bool compatible = input->dtype() == first.dtype() && dims.size() == rank;
      for (size_t d = 0; compatible && d < rank; ++d) {
        compatible = d == axis || dims[d] == out_dims[d];
      }
      if (!compatible) {
        return context.Error("cannot concatenate {} with {} along axis {}", first.Describe(),
                             input->Describe(), axis);
      }
      if (__builtin_add_overflow(out_dims[axis], dims[axis], &out_dims[axis])) {
        return context.Error("the inputs' sizes along axis {} add up past int64", axis);
      }
    }
    if (inputs.size() == 1) return context.SetOutput(0, first);
    ORT_ASSIGN_OR_RETURN(Tensor * output, context.Output(0, first.dtype(), TensorShape(out_dims)));
    const std::vector<int64_t> out_strides = ContiguousStrides(output->shape());
    int64_t offset = 0;
    for (const Tensor* input : inputs) {
      const std::vector<int64_t> in_strides = ContiguousStrides(input->shape());
      StridedCopy(input->dtype(), input->shape().dims(), input->RawData(), in_strides,
                  ElementAt(output->MutableRawData(), output->dtype(), offset * out_strides[axis]),
                  out_strides, context.thread_pool());
      offset += input->shape()[axis];
    }
    return Status::OK();
  }

 private:
  int64_t axis_ = 1;
};

}  // namespace

void RegisterConcatKernels(KernelRegistry& registry) {
  registry.Add<Concat>(KernelDef("Concat").Versions(1).Input(0, AllDataTypes()));
}

}  // namespace ort
