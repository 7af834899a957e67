// Float convolution with one group and constant filters as Y = W col, the GEMM's way round for
// images with many output positions: W packed once into the microkernel's A panels, the column
// matrix written straight from the image into B panels a cache block at a time, and the product
// stored into Y's rows, where the bias, Z and activation are applied while they are in cache.
#pragma once

#include <cstdint>
#include <vector>

#include "lib/threading/thread_pool.h"
#include "providers/cpu/kernels/common/fused_activation.h"
#include "providers/cpu/kernels/common/sgemm_kernel.h"
#include "providers/cpu/kernels/common/weight_buffer.h"
#include "providers/cpu/kernels/onnx/nn/conv_plan.h"

namespace ort {

/// W ([filters, depth], row-major) packed as the A operand of the Sgemm microkernel that pads
/// the filters least: per depth block of the GEMM's Kc, panels of mr filters column by column.
class PackedConvFilters {
 public:
  PackedConvFilters(int64_t filters, int64_t depth, const float* w);

  int64_t filters() const { return filters_; }
  int64_t depth() const { return depth_; }
  const SgemmKernel& kernel() const { return *kernel_; }
  int64_t depth_block() const { return depth_block_; }
  /// Filters [m0, ...) (m0 a multiple of mr) of the depth block starting at p0 (a multiple of
  /// Kc): panels of mr filters, each depth-block-long.
  const float* Block(int64_t p0, int64_t m0) const;

 private:
  const SgemmKernel* kernel_;
  int64_t filters_;
  int64_t depth_;
  int64_t padded_filters_;
  int64_t depth_block_;
  WeightBuffer storage_;
  float* data_;
};

/// True when the Y = W col form pays for `p` over the transposed one (Y^T = col^T W^T, W^T packed
/// as B): an image of at least a few B panels of output positions. Below that its B panels would
/// be mostly padding, while the transposed form pads only the filters.
bool PackedFiltersPay(const ConvProblem& p);

/// Y = activation(conv(X, W) + B + Z) for a float convolution with one group; B and Z optional,
/// Z may be Y's own buffer.
void RunPackedFiltersConv(const ConvProblem& p, const float* x, const PackedConvFilters& filters,
                          const float* bias, const float* sum, const FusedActivation& activation,
                          float* y, ThreadPool* pool);

}  // namespace ort
