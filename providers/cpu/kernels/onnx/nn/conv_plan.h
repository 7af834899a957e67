// Shape checks and window geometry of a forward convolution, shared by Conv, ConvInteger and
// QLinearConv.
#pragma once

#include "providers/common/nn/window_attributes.h"

namespace ort {

struct ConvProblem {
  WindowGeometry geometry;
  int64_t batch = 0;
  int64_t channels = 0;  // C
  int64_t filters = 0;   // M
  int64_t group = 1;

  /// [N, M, output spatial...].
  TensorShape OutputShape() const;
};

/// Validates X [N, C, spatial...] against W [M, C / group, kernel...] and the attributes and
/// resolves the geometry; errors are plain messages for the caller to prefix with the node.
Result<ConvProblem> PlanConv(const WindowAttributes& attributes, const TensorShape& x,
                             const TensorShape& w);

}  // namespace ort
