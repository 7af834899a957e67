#include "providers/common/reduction/reduce_attributes.h"

namespace ort {
namespace {

// The axes the node lists for this call (the attribute, or input 1 when given).
Result<std::vector<int64_t>> ListedAxes(const ReduceAttributes& attributes,
                                        const KernelContext& context) {
  const Tensor* axes_tensor = attributes.axes_from_input ? context.Input(1) : nullptr;
  if (axes_tensor == nullptr) return attributes.axes;
  if (axes_tensor->shape().rank() > 1) {
    return context.Error("axes must be 1-D, got shape {}", axes_tensor->shape().ToString());
  }
  auto values = ReadInt64Values(*axes_tensor);
  if (!values.ok()) return context.Error("axes: {}", values.status().message());
  return std::move(*values);
}

}  // namespace

int ReduceAxesInputSince(std::string_view op_type) { return op_type == "ReduceSum" ? 13 : 18; }

Status ReduceAttributes::Parse(const KernelInfo& info) {
  ORT_ASSIGN_OR_RETURN(const int64_t keep, info.GetAttributeOr<int64_t>("keepdims", 1));
  keepdims = keep != 0;
  axes_from_input = info.opset() >= ReduceAxesInputSince(info.node().op_type());
  if (axes_from_input) {
    ORT_ASSIGN_OR_RETURN(const int64_t noop,
                         info.GetAttributeOr<int64_t>("noop_with_empty_axes", 0));
    noop_with_empty_axes = noop != 0;
  } else {
    ORT_ASSIGN_OR_RETURN(axes, info.GetAttributeOr<std::vector<int64_t>>("axes", {}));
  }
  return Status::OK();
}

Result<std::vector<size_t>> ReduceAttributes::ResolveAxes(const KernelContext& context,
                                                          const TensorShape& x_shape) const {
  ORT_ASSIGN_OR_RETURN(const std::vector<int64_t> listed, ListedAxes(*this, context));
  const size_t rank = x_shape.rank();
  std::vector<size_t> normalized;
  if (listed.empty()) {
    if (!noop_with_empty_axes) {
      for (size_t i = 0; i < rank; ++i) normalized.push_back(i);
    }
    return normalized;
  }
  for (int64_t axis : listed) {
    auto a = NormalizeAxis(axis, rank);
    if (!a.ok()) {
      return context.Error("axes for X {}: {}", x_shape.ToString(), a.status().message());
    }
    normalized.push_back(*a);
  }
  return normalized;
}

}  // namespace ort
