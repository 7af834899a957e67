// Squeeze and Unsqueeze: views of the input with unit dimensions removed or inserted. Axes are an
// attribute before opset 13 and an input from 13.
#include <algorithm>

#include "lib/ir/tensor.h"
#include "providers/common/tensor/view_kernels.h"

namespace ort {
namespace {

class AxesKernel : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    axes_from_input_ = info.opset() >= 13;
    if (!axes_from_input_) {
      has_axes_ = info.HasAttribute("axes");
      ORT_ASSIGN_OR_RETURN(axes_, info.GetAttributeOr<std::vector<int64_t>>("axes", {}));
    }
    return Status::OK();
  }

 protected:
  // The requested axes as given; `present` is false when the op was given none.
  Status RawAxes(const KernelContext& context, std::vector<int64_t>& axes, bool& present) const {
    axes = axes_;
    present = has_axes_;
    if (axes_from_input_ && context.HasInput(1)) {
      ORT_ASSIGN_OR_RETURN(const Tensor* tensor, context.RequiredInput(1));
      if (tensor->shape().rank() > 1) return context.Error("axes must be 1-D");
      auto values = ReadInt64Values(*tensor);
      if (!values.ok()) return context.Error("axes: {}", values.status().message());
      axes = std::move(values).value();
      present = true;
    }
    return Status::OK();
  }

  // `raw` normalized to [0, rank), rejecting repeats.
  static Status NormalizeAxes(const KernelContext& context, const std::vector<int64_t>& raw,
                              size_t rank, std::vector<size_t>& axes) {
    axes.clear();
    for (int64_t axis : raw) {
      auto normalized = NormalizeAxis(axis, rank);
      if (!normalized.ok()) return context.Error("{}", normalized.status().message());
      if (std::find(axes.begin(), axes.end(), *normalized) != axes.end()) {
        return context.Error("axis {} is repeated", axis);
      }
      axes.push_back(*normalized);
    }
    return Status::OK();
  }

 private:
  bool axes_from_input_ = false;
  bool has_axes_ = false;
  std::vector<int64_t> axes_;
};

class Squeeze final : public AxesKernel {
 public:
  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* data, context.RequiredInput(0));
    const auto& in_dims = data->shape().dims();
    std::vector<int64_t> raw;
    bool present = false;
    ORT_RETURN_IF_ERROR(RawAxes(context, raw, present));
    std::vector<size_t> axes;
    ORT_RETURN_IF_ERROR(NormalizeAxes(context, raw, in_dims.size(), axes));
    std::vector<bool> drop(in_dims.size(), false);
    // No axes, or an empty list, squeeze every unit dimension.
    if (!axes.empty()) {
      for (size_t axis : axes) {
        if (in_dims[axis] != 1) {
          return context.Error("cannot squeeze axis {} of {}: its size is not 1", axis,
                               data->Describe());
        }
        drop[axis] = true;
      }
    } else {
      for (size_t d = 0; d < in_dims.size(); ++d) drop[d] = in_dims[d] == 1;
    }
    std::vector<int64_t> dims;
    for (size_t d = 0; d < in_dims.size(); ++d) {
      if (!drop[d]) dims.push_back(in_dims[d]);
    }
    ORT_ASSIGN_OR_RETURN(Tensor view, data->Reshaped(TensorShape(std::move(dims))));
    return context.SetOutput(0, std::move(view));
  }
};

class Unsqueeze final : public AxesKernel {
 public:
  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* data, context.RequiredInput(0));
    const auto& in_dims = data->shape().dims();
    std::vector<int64_t> raw;
    bool present = false;
    ORT_RETURN_IF_ERROR(RawAxes(context, raw, present));
    if (!present) return context.Error("axes are required");
    const size_t out_rank = in_dims.size() + raw.size();
    std::vector<size_t> axes;
    ORT_RETURN_IF_ERROR(NormalizeAxes(context, raw, out_rank, axes));
    std::vector<int64_t> dims(out_rank, 0);
    std::vector<bool> inserted(out_rank, false);
    for (size_t axis : axes) inserted[axis] = true;
    size_t next = 0;
    for (size_t d = 0; d < out_rank; ++d) dims[d] = inserted[d] ? 1 : in_dims[next++];
    ORT_ASSIGN_OR_RETURN(Tensor view, data->Reshaped(TensorShape(std::move(dims))));
    return context.SetOutput(0, std::move(view));
  }
};

}  // namespace

void RegisterSqueezeKernels(KernelRegistry& registry, const std::vector<DataType>& types) {
  registry.Add<Squeeze>(KernelDef("Squeeze").Versions(1).Input(0, types).HostInput(1).Alias(0, 0));
  registry.Add<Unsqueeze>(
      KernelDef("Unsqueeze").Versions(1).Input(0, types).HostInput(1).Alias(0, 0));
}

}  // namespace ort
