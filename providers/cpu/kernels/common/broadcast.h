// Numpy-style broadcasting of N inputs, reduced to runs: the output is walked as "outer"
// positions, each covering an innermost run of `inner` elements along which every input either
// advances by one (stride 1) or stays put (stride 0). Adjacent dimensions that broadcast alike
// are merged first, so common cases become one long run.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "lib/common/status.h"
#include "lib/ir/tensor_shape.h"
#include "lib/threading/thread_pool.h"
#include "providers/cpu/kernels/common/vectorize.h"

namespace ort {

struct BroadcastPlan {
  TensorShape output_shape;
  int64_t inner = 1;                                // length of each innermost run
  std::vector<int64_t> outer_dims;                  // merged outer dimensions
  std::vector<std::vector<int64_t>> outer_strides;  // per input, per outer dimension (elements)
  std::vector<int64_t> inner_strides;               // per input: 0 or 1

  int64_t OuterCount() const;
};

/// Plans the broadcast of `shapes`; errors name the incompatible shapes.
Result<BroadcastPlan> MakeBroadcastPlan(std::span<const TensorShape> shapes);

/// Calls fn(output_offset, input_offsets, run_length) for every run, in order over outer
/// positions [begin, end). `input_offsets` has one entry per input.
template <typename Fn>
void ForEachBroadcastRun(const BroadcastPlan& plan, int64_t begin, int64_t end, Fn&& fn) {
  const size_t inputs = plan.inner_strides.size();
  const size_t rank = plan.outer_dims.size();
  std::vector<int64_t> index(rank, 0);
  std::vector<int64_t> offsets(inputs, 0);
  // Decompose `begin` into the outer index and the matching input offsets.
  int64_t remainder = begin;
  for (size_t d = rank; d-- > 0;) {
    index[d] = remainder % plan.outer_dims[d];
    remainder /= plan.outer_dims[d];
    for (size_t k = 0; k < inputs; ++k) offsets[k] += index[d] * plan.outer_strides[k][d];
  }
  for (int64_t position = begin; position < end; ++position) {
    fn(position * plan.inner, static_cast<const int64_t*>(offsets.data()), plan.inner);
    for (size_t d = rank; d-- > 0;) {
      ++index[d];
      for (size_t k = 0; k < inputs; ++k) offsets[k] += plan.outer_strides[k][d];
      if (index[d] < plan.outer_dims[d]) break;
      for (size_t k = 0; k < inputs; ++k) offsets[k] -= index[d] * plan.outer_strides[k][d];
      index[d] = 0;
    }
  }
}

/// ForEachBroadcastRun over all runs, split across `pool` (may be null) by estimated cost;
/// through Vectorized() when kVectorize (floating-point element loops).
template <bool kVectorize = false, typename Fn>
void ParallelForEachBroadcastRun(const BroadcastPlan& plan, ThreadPool* pool,
                                 double cost_per_element, Fn&& fn) {
  const int64_t outer = plan.OuterCount();
  const double cost = cost_per_element * static_cast<double>(plan.inner);
  if constexpr (kVectorize) {
    VectorizedParallelFor(pool, outer, cost, [&](int64_t begin, int64_t end) {
      ForEachBroadcastRun(plan, begin, end, fn);
    });
  } else {
    ThreadPool::TryParallelFor(pool, outer, cost, [&](int64_t begin, int64_t end) {
      ForEachBroadcastRun(plan, begin, end, fn);
    });
  }
}

}  // namespace ort
