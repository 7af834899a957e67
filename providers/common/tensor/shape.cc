// Shape (opset 15 adds the start/end slice of the dimensions) and Size.
#include <algorithm>

#include "providers/common/tensor/view_kernels.h"

namespace ort {
namespace {

class Shape final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    if (info.opset() >= 15) {
      ORT_ASSIGN_OR_RETURN(start_, info.GetAttributeOr<int64_t>("start", 0));
      has_end_ = info.HasAttribute("end");
      ORT_ASSIGN_OR_RETURN(end_, info.GetAttributeOr<int64_t>("end", 0));
    }
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* data, context.RequiredInput(0));
    const auto& dims = data->shape().dims();
    const auto rank = static_cast<int64_t>(dims.size());
    const auto clamp = [rank](int64_t axis) {
      return std::clamp<int64_t>(axis < 0 ? axis + rank : axis, 0, rank);
    };
    const int64_t start = clamp(start_);
    const int64_t end = has_end_ ? clamp(end_) : rank;
    const int64_t count = std::max<int64_t>(end - start, 0);
    ORT_ASSIGN_OR_RETURN(Tensor * output, context.Output(0, DataType::kInt64, TensorShape{count}));
    std::copy_n(dims.begin() + start, count, output->MutableData<int64_t>());
    return Status::OK();
  }

 private:
  int64_t start_ = 0;
  int64_t end_ = 0;
  bool has_end_ = false;
};

class Size final : public OpKernel {
 public:
  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* data, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(Tensor * output, context.Output(0, DataType::kInt64, TensorShape{}));
    *output->MutableData<int64_t>() = data->NumElements();
    return Status::OK();
  }
};

}  // namespace

void RegisterShapeKernels(KernelRegistry& registry, const std::vector<DataType>& types) {
  registry.Add<Shape>(
      KernelDef("Shape").Versions(1).Input(0, types).ShapeOnlyInput(0).HostOutput(0));
  registry.Add<Size>(KernelDef("Size").Versions(1).Input(0, types).ShapeOnlyInput(0).HostOutput(0));
}

}  // namespace ort
