// Slice: opset 1 takes starts/ends/axes attributes; opset 10+ takes starts, ends, axes and steps
// as inputs (negative steps walk backwards). DynamicSlice, the experimental opset-1 op ONNX
// Runtime keeps, is Slice-10 without steps. Bounds are clamped as the spec describes and the
// result is one strided copy of the input.
#include <algorithm>

#include "providers/cpu/kernels/onnx/tensor/tensor_copy.h"
#include "providers/cpu/kernels/onnx/tensor/tensor_kernels.h"

namespace ort {
namespace {

class Slice final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    from_attributes_ = info.opset() < 10 && info.node().op_type() == "Slice";
    if (from_attributes_) {
      ORT_ASSIGN_OR_RETURN(starts_, info.GetAttribute<std::vector<int64_t>>("starts"));
      ORT_ASSIGN_OR_RETURN(ends_, info.GetAttribute<std::vector<int64_t>>("ends"));
      has_axes_ = info.HasAttribute("axes");
      ORT_ASSIGN_OR_RETURN(axes_, info.GetAttributeOr<std::vector<int64_t>>("axes", {}));
    }
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* data, context.RequiredInput(0));
    std::vector<int64_t> starts = starts_;
    std::vector<int64_t> ends = ends_;
    std::vector<int64_t> axes = axes_;
    std::vector<int64_t> steps;
    bool has_axes = has_axes_;
    if (!from_attributes_) {
      ORT_RETURN_IF_ERROR(ReadInput(context, 1, starts));
      ORT_RETURN_IF_ERROR(ReadInput(context, 2, ends));
      has_axes = context.HasInput(3);
      if (has_axes) ORT_RETURN_IF_ERROR(ReadInput(context, 3, axes));
      if (context.HasInput(4)) ORT_RETURN_IF_ERROR(ReadInput(context, 4, steps));
    }
    const size_t count = starts.size();
    if (ends.size() != count || (has_axes && axes.size() != count) ||
        (!steps.empty() && steps.size() != count)) {
      return context.Error("starts, ends, axes and steps must have the same length");
    }
    const size_t rank = data->shape().rank();
    if (!has_axes) {
      if (count > rank) return context.Error("{} starts for {}", count, data->Describe());
      axes.resize(count);
      for (size_t i = 0; i < count; ++i) axes[i] = static_cast<int64_t>(i);
    }

    const auto& in_dims = data->shape().dims();
    std::vector<int64_t> out_dims = in_dims;
    std::vector<int64_t> first(rank, 0);
    std::vector<int64_t> step_of(rank, 1);
    std::vector<bool> seen(rank, false);
    for (size_t i = 0; i < count; ++i) {
      auto normalized = NormalizeAxis(axes[i], rank);
      if (!normalized.ok()) return context.Error("{}", normalized.status().message());
      const size_t axis = *normalized;
      if (seen[axis]) return context.Error("axis {} is repeated", axes[i]);
      seen[axis] = true;
      int64_t step = steps.empty() ? 1 : steps[i];
      if (step == 0) return context.Error("steps must not be 0");
      const int64_t dim = in_dims[axis];
      if (dim == 0) continue;
      // Any step longer than the axis takes one element; bounding it keeps the arithmetic below
      // from overflowing.
      step = std::clamp<int64_t>(step, -dim - 1, dim + 1);
      int64_t start = starts[i];
      int64_t end = ends[i];
      if (start < 0) start += dim;
      if (end < 0) end += dim;
      if (step > 0) {
        start = std::clamp<int64_t>(start, 0, dim);
        end = std::clamp<int64_t>(end, 0, dim);
        out_dims[axis] = end > start ? 1 + (end - start - 1) / step : 0;
      } else {
        start = std::clamp<int64_t>(start, 0, dim - 1);
        end = std::clamp<int64_t>(end, -1, dim - 1);
        out_dims[axis] = start > end ? 1 + (start - end - 1) / -step : 0;
      }
      first[axis] = start;
      step_of[axis] = step;
    }

    ORT_ASSIGN_OR_RETURN(Tensor * output, context.Output(0, data->dtype(), TensorShape(out_dims)));
    if (output->NumElements() == 0) return Status::OK();
    const std::vector<int64_t> in_strides = ContiguousStrides(data->shape());
    std::vector<int64_t> src_strides(rank);
    int64_t offset = 0;
    for (size_t d = 0; d < rank; ++d) {
      offset += first[d] * in_strides[d];
      src_strides[d] = in_strides[d] * step_of[d];
    }
    StridedCopy(data->dtype(), out_dims, ElementAt(data->RawData(), data->dtype(), offset),
                src_strides, output->MutableRawData(), ContiguousStrides(output->shape()),
                context.thread_pool());
    return Status::OK();
  }

 private:
  static Status ReadInput(const KernelContext& context, size_t index,
                          std::vector<int64_t>& values) {
    ORT_ASSIGN_OR_RETURN(const Tensor* tensor, context.RequiredInput(index));
    if (tensor->shape().rank() != 1) {
      return context.Error("input {} must be 1-D, got {}", index, tensor->Describe());
    }
    auto read = ReadInt64Values(*tensor);
    if (!read.ok()) return context.Error("input {}: {}", index, read.status().message());
    values = std::move(read).value();
    return Status::OK();
  }

  bool from_attributes_ = false;
  bool has_axes_ = false;
  std::vector<int64_t> starts_;
  std::vector<int64_t> ends_;
  std::vector<int64_t> axes_;
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
