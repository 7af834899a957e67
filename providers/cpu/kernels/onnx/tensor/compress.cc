// Compress: keeps the slices along an axis (or the elements of the flattened input) whose
// condition entry is true. A condition shorter than the axis treats the rest as false.
#include "providers/cpu/kernels/onnx/tensor/tensor_copy.h"
#include "providers/cpu/kernels/onnx/tensor/tensor_kernels.h"

namespace ort {
namespace {

class Compress final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    has_axis_ = info.HasAttribute("axis");
    ORT_ASSIGN_OR_RETURN(axis_, info.GetAttributeOr<int64_t>("axis", 0));
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* data, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* condition, context.RequiredInput(1));
    if (condition->dtype() != DataType::kBool || condition->shape().rank() != 1) {
      return context.Error("condition must be a 1-D bool tensor, got {}", condition->Describe());
    }
    int64_t outer = 1;
    int64_t dim = data->NumElements();
    int64_t inner = 1;
    std::vector<int64_t> out_dims;
    size_t axis = 0;
    if (has_axis_) {
      auto normalized = NormalizeAxis(axis_, data->shape().rank());
      if (!normalized.ok()) return context.Error("{}", normalized.status().message());
      axis = *normalized;
      outer = data->shape().SizeToDimension(axis);
      dim = data->shape()[axis];
      inner = data->shape().SizeFromDimension(axis + 1);
      out_dims = data->shape().dims();
    }
    const bool* keep = condition->Data<bool>();
    std::vector<int64_t> selected;
    for (int64_t i = 0; i < condition->NumElements(); ++i) {
      if (!keep[i]) continue;
      if (i >= dim) {
        return context.Error("condition selects index {} beyond the axis size {}", i, dim);
      }
      selected.push_back(i);
    }
    const auto count = static_cast<int64_t>(selected.size());
    if (has_axis_) {
      out_dims[axis] = count;
    } else {
      out_dims = {count};
    }
    ORT_ASSIGN_OR_RETURN(Tensor * output,
                         context.Output(0, data->dtype(), TensorShape(std::move(out_dims))));
    if (output->NumElements() == 0) return Status::OK();
    return DispatchByElementSize(data->dtype(), "Compress", [&]<typename T>() {
      const T* src = static_cast<const T*>(data->RawData());
      T* dst = static_cast<T*>(output->MutableRawData());
      for (int64_t o = 0; o < outer; ++o) {
        for (int64_t j = 0; j < count; ++j) {
          CopyElements(src + (o * dim + selected[static_cast<size_t>(j)]) * inner,
                       dst + (o * count + j) * inner, inner);
        }
      }
      return Status::OK();
    });
  }

 private:
  bool has_axis_ = false;
  int64_t axis_ = 0;
};

}  // namespace

void RegisterCompressKernels(KernelRegistry& registry) {
  registry.Add<Compress>(KernelDef("Compress")
                             .Versions(9)
                             .Input(0, AllDataTypes())
                             .Input(1, {DataType::kBool})
                             .HostInput(1));
}

}  // namespace ort
