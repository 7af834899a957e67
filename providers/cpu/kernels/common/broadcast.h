// The CPU loops over a broadcast plan (providers/common/tensor/broadcast_plan.h): every run of
// the output with its inputs' offsets, in order or split across the thread pool.
#pragma once

#include <cstdint>
#include <vector>

#include "lib/threading/thread_pool.h"
#include "providers/common/tensor/broadcast_plan.h"
#include "providers/cpu/kernels/common/vectorize.h"

namespace ort {

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
