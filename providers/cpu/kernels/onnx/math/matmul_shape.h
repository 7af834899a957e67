// numpy.matmul shape rules shared by MatMul, MatMulInteger and QLinearMatMul: 1-D operands are
// promoted to matrices (and the added dimension dropped from the result), leading batch
// dimensions broadcast.
#pragma once

#include <cstdint>
#include <vector>

#include "lib/common/status.h"
#include "lib/ir/tensor_shape.h"

namespace ort {

struct MatMulPlan {
  TensorShape output_shape;
  int64_t m = 0;
  int64_t n = 0;
  int64_t k = 0;
  /// Element offsets of each output matrix's operands in A and B (one entry per batch).
  std::vector<int64_t> a_offsets;
  std::vector<int64_t> b_offsets;
  /// True when every batch reads the same B and the A matrices are contiguous in batch order:
  /// the whole product is then a single [batches * m, k] x [k, n] matrix product.
  bool single_gemm = false;

  int64_t BatchCount() const { return static_cast<int64_t>(a_offsets.size()); }
};

/// Plans matmul(a, b); the error message names both shapes.
Result<MatMulPlan> PlanMatMul(const TensorShape& a, const TensorShape& b);

}  // namespace ort
