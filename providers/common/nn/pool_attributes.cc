#include "providers/common/nn/pool_attributes.h"

namespace ort {

Status PoolAttributes::Parse(const KernelInfo& info, bool average) {
  ORT_RETURN_IF_ERROR(window.Parse(info, true));
  ORT_ASSIGN_OR_RETURN(const int64_t ceil, info.GetAttributeOr<int64_t>("ceil_mode", 0));
  ceil_mode = ceil != 0;
  if (average) {
    ORT_ASSIGN_OR_RETURN(const int64_t include,
                         info.GetAttributeOr<int64_t>("count_include_pad", 0));
    count_include_pad = include != 0;
  }
  return Status::OK();
}

Result<WindowGeometry> ResolvePoolWindow(const KernelContext& context,
                                         const PoolAttributes& attributes, const TensorShape& x) {
  const size_t rank = attributes.window.kernel_shape.size();
  if (x.rank() != rank + 2) {
    return context.Error("X {} must be [N, C] plus {} spatial dims (kernel_shape)", x.ToString(),
                         rank);
  }
  const std::span<const int64_t> spatial(x.dims().begin() + 2, x.dims().end());
  auto window = ResolveWindow(attributes.window, spatial, attributes.window.kernel_shape,
                              attributes.ceil_mode);
  if (!window.ok()) return context.Error("{}", window.status().message());
  return window;
}

TensorShape PoolOutputShape(const TensorShape& x, const WindowGeometry& window) {
  std::vector<int64_t> dims = {x[0], x[1]};
  dims.insert(dims.end(), window.output.begin(), window.output.end());
  return TensorShape(std::move(dims));
}

Result<TensorShape> GlobalPoolOutputShape(const KernelContext& context, const TensorShape& x) {
  if (x.rank() < 2) return context.Error("X {} must be [N, C, spatial...]", x.ToString());
  std::vector<int64_t> dims(x.rank(), 1);
  dims[0] = x[0];
  dims[1] = x[1];
  return TensorShape(std::move(dims));
}

}  // namespace ort
