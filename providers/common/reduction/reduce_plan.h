// How a reduction walks its input: after dropping size-1 dimensions and merging neighbours that
// are all reduced or all kept, the innermost merged dimension is a contiguous run that is either
// reduced (each output folds whole runs) or kept (a group of `run` outputs folds runs
// elementwise). Offsets of the remaining kept and reduced positions are listed explicitly.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "lib/ir/tensor_shape.h"

namespace ort {

struct ReducePlan {
  TensorShape output_shape;
  /// True when the innermost run is reduced; false when it is kept.
  bool run_reduced = false;
  int64_t run = 1;
  /// Start offset of each output (run reduced) or each group of `run` outputs (run kept).
  std::vector<int64_t> kept_offsets;
  /// Offsets, relative to a kept offset, of the runs folded into it.
  std::vector<int64_t> reduce_offsets;
  /// Input elements folded into each output (0 when a reduced dimension is empty).
  int64_t reduce_count = 1;

  int64_t OutputCount() const { return output_shape.NumElements(); }
};

/// Plans the reduction of `shape` over `axes` (already normalized to [0, rank), duplicates
/// allowed). The input must not be empty (callers fill empty reductions with identities).
ReducePlan MakeReducePlan(const TensorShape& shape, std::span<const size_t> axes, bool keepdims);

/// The output shape of reducing `shape` over `axes`.
TensorShape ReducedShape(const TensorShape& shape, std::span<const size_t> axes, bool keepdims);

}  // namespace ort
