#include "providers/common/tensor/slice_params.h"

#include <algorithm>

namespace ort {
namespace {

// The parameters of one call before validation; steps empty means all 1.
struct SliceArgs {
  std::vector<int64_t> starts, ends, axes, steps;
  bool has_axes = false;
};

Status ReadInput(const KernelContext& context, size_t index, std::vector<int64_t>& values) {
  ORT_ASSIGN_OR_RETURN(const Tensor* tensor, context.RequiredInput(index));
  if (tensor->shape().rank() != 1) {
    return context.Error("input {} must be 1-D, got {}", index, tensor->Describe());
  }
  auto read = ReadInt64Values(*tensor);
  if (!read.ok()) return context.Error("input {}: {}", index, read.status().message());
  values = std::move(read).value();
  return Status::OK();
}

Result<SliceArgs> ReadArgs(const SliceAttributes& attributes, const KernelContext& context) {
  SliceArgs args{attributes.starts, attributes.ends, attributes.axes, {}, attributes.has_axes};
  if (!attributes.from_attributes) {
    ORT_RETURN_IF_ERROR(ReadInput(context, 1, args.starts));
    ORT_RETURN_IF_ERROR(ReadInput(context, 2, args.ends));
    args.has_axes = context.HasInput(3);
    if (args.has_axes) ORT_RETURN_IF_ERROR(ReadInput(context, 3, args.axes));
    if (context.HasInput(4)) ORT_RETURN_IF_ERROR(ReadInput(context, 4, args.steps));
  }
  return args;
}

// Checks the lengths and fills in the default axes 0, 1, ...
Status CompleteArgs(const KernelContext& context, const Tensor& data, SliceArgs& args) {
  const size_t count = args.starts.size();
  if (args.ends.size() != count || (args.has_axes && args.axes.size() != count) ||
      (!args.steps.empty() && args.steps.size() != count)) {
    return context.Error(
        "starts ({}), ends ({}), axes ({}) and steps ({}) must have the same length", count,
        args.ends.size(), args.axes.size(), args.steps.size());
  }
  if (!args.has_axes) {
    if (count > data.shape().rank()) {
      return context.Error("{} starts for {}", count, data.Describe());
    }
    args.axes.resize(count);
    for (size_t i = 0; i < count; ++i) args.axes[i] = static_cast<int64_t>(i);
  }
  return Status::OK();
}

// Per input axis: the output dim, the first element taken and the step between taken elements.
struct SliceAxes {
  std::vector<int64_t> output_dims, first, steps;
};

// Clamps slice `i` of `args` on axis `axis` (of size `dim` > 0) into `selected`.
void ClampAxis(const SliceArgs& args, size_t i, size_t axis, int64_t dim, int64_t step,
               SliceAxes& selected) {
  // Any step longer than the axis takes one element; bounding it keeps the arithmetic below (and
  // the strides of the view) from overflowing.
  step = std::clamp<int64_t>(step, -dim - 1, dim + 1);
  int64_t start = args.starts[i] < 0 ? args.starts[i] + dim : args.starts[i];
  int64_t end = args.ends[i] < 0 ? args.ends[i] + dim : args.ends[i];
  if (step > 0) {
    start = std::clamp<int64_t>(start, 0, dim);
    end = std::clamp<int64_t>(end, 0, dim);
    selected.output_dims[axis] = end > start ? 1 + (end - start - 1) / step : 0;
  } else {
    start = std::clamp<int64_t>(start, 0, dim - 1);
    end = std::clamp<int64_t>(end, -1, dim - 1);
    selected.output_dims[axis] = start > end ? 1 + (start - end - 1) / -step : 0;
  }
  selected.first[axis] = start;
  selected.steps[axis] = step;
}

// The view of a contiguous input of `shape` that `selected` describes.
SliceView MakeView(const TensorShape& shape, SliceAxes selected) {
  SliceView view{std::move(selected.output_dims), 0, std::vector<int64_t>(shape.rank(), 0)};
  // Nothing is read from an empty selection; skipping the strides keeps them from overflowing
  // for huge empty inputs.
  if (std::ranges::find(view.output_dims, 0) != view.output_dims.end()) return view;
  const std::vector<int64_t> in_strides = ContiguousStrides(shape);
  for (size_t d = 0; d < in_strides.size(); ++d) {
    view.offset += selected.first[d] * in_strides[d];
    view.strides[d] = in_strides[d] * selected.steps[d];
  }
  return view;
}

}  // namespace

Status SliceAttributes::Parse(const KernelInfo& info) {
  from_attributes = info.opset() < 10 && info.node().op_type() == "Slice";
  if (!from_attributes) return Status::OK();
  ORT_ASSIGN_OR_RETURN(starts, info.GetAttribute<std::vector<int64_t>>("starts"));
  ORT_ASSIGN_OR_RETURN(ends, info.GetAttribute<std::vector<int64_t>>("ends"));
  has_axes = info.HasAttribute("axes");
  ORT_ASSIGN_OR_RETURN(axes, info.GetAttributeOr<std::vector<int64_t>>("axes", {}));
  return Status::OK();
}

Result<SliceView> SliceAttributes::Resolve(const KernelContext& context, const Tensor& data) const {
  ORT_ASSIGN_OR_RETURN(SliceArgs args, ReadArgs(*this, context));
  ORT_RETURN_IF_ERROR(CompleteArgs(context, data, args));
  const TensorShape& shape = data.shape();
  const size_t rank = shape.rank();
  SliceAxes selected{shape.dims(), std::vector<int64_t>(rank, 0), std::vector<int64_t>(rank, 1)};
  std::vector<bool> seen(rank, false);
  for (size_t i = 0; i < args.starts.size(); ++i) {
    auto axis = NormalizeAxis(args.axes[i], rank);
    if (!axis.ok()) return context.Error("axes: {}", axis.status().message());
    if (seen[*axis]) return context.Error("axis {} is repeated", args.axes[i]);
    seen[*axis] = true;
    const int64_t step = args.steps.empty() ? 1 : args.steps[i];
    if (step == 0) return context.Error("steps must not be 0");
    if (shape[*axis] != 0) ClampAxis(args, i, *axis, shape[*axis], step, selected);
  }
  return MakeView(shape, std::move(selected));
}

}  // namespace ort
