// Numpy-style broadcasting of N inputs, reduced to runs: the output is walked as "outer"
// positions, each covering an innermost run of `inner` elements along which every input either
// advances by one (stride 1) or stays put (stride 0). Adjacent dimensions that broadcast alike
// are merged first, so common cases become one long run. Only the plan lives here, for every
// provider; the CPU provider's loops over it are in its kernels/common/broadcast.h.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "lib/common/status.h"
#include "lib/ir/tensor_shape.h"

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

}  // namespace ort
