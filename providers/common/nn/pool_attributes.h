// Attributes and output shapes shared by the pooling kernels of every provider: MaxPool,
// AveragePool and LpPool (a window over the spatial dims, see window_attributes.h), the NCHWc
// pools, and the Global*Pool ops (one value per image and channel).
#pragma once

#include "lib/framework/op_kernel.h"
#include "providers/common/nn/window_attributes.h"

namespace ort {

/// The attributes every windowed pool reads: the window (kernel_shape required), ceil_mode and,
/// for AveragePool, count_include_pad. Op-specific ones (storage_order, p) stay with the kernel.
struct PoolAttributes {
  WindowAttributes window;
  bool ceil_mode = false;
  /// AveragePool only: padded positions count towards the divisor.
  bool count_include_pad = false;

  /// Reads the attributes; `average` adds count_include_pad.
  Status Parse(const KernelInfo& info, bool average);
};

/// The window geometry of pooling X, which must be [N, C] plus kernel_shape.size() spatial dims.
/// Errors name the node (through `context`).
Result<WindowGeometry> ResolvePoolWindow(const KernelContext& context,
                                         const PoolAttributes& attributes, const TensorShape& x);

/// The output of pooling X through `window`: [N, C, window.output...].
TensorShape PoolOutputShape(const TensorShape& x, const WindowGeometry& window);

/// The output of a global pool of X ([N, C, spatial...], rank >= 2): [N, C, 1...], same rank.
/// Errors name the node (through `context`).
Result<TensorShape> GlobalPoolOutputShape(const KernelContext& context, const TensorShape& x);

}  // namespace ort
