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

/// How one operand of com.microsoft FusedMatMul lies in memory: matrix `b` (flattened over the
/// operand's own batch dims) starts at b * batch_stride and has rows `ld` elements apart.
struct MatMulOperandLayout {
  std::vector<int64_t> logical;  // shape as matmul sees it, after both transpositions
  int64_t batch_stride = 0;
  int64_t ld = 0;
  bool transpose = false;  // the GEMM reads the stored matrix transposed
};

/// The layout of an operand stored as `shape`, read transposed (`trans`: the last two axes
/// swapped) and/or with its leading axis moved behind the batch axes (`trans_batch`: stored
/// [M, batch..., K], read [batch..., M, K]). `right` for B, whose vector form is a column.
MatMulOperandLayout LayoutMatMulOperand(const TensorShape& shape, bool trans, bool trans_batch,
                                        bool right);

}  // namespace ort
