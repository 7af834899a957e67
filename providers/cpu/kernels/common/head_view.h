// The [batch, heads, tokens, head_size] view the transformer kernels take of their tensors:
// [B, heads, S, D] (head-major), [B, S, heads * D] (token-major), and the heads of a packed row
// (the Q, K or V part of a fused projection) laid out token-major with a wider row.
#pragma once

#include <cstdint>

#include "lib/common/status.h"
#include "lib/ir/tensor_shape.h"

namespace ort {

struct HeadView {
  int64_t batch = 0, heads = 0, tokens = 0, head_size = 0;
  int64_t batch_stride = 0, head_stride = 0, token_stride = 0;
  /// How many consecutive heads read one stored head (grouped-query attention's keys and
  /// values, which `heads` / group heads hold).
  int64_t group = 1;

  /// Element offset of the head vector of batch b, head h, token s.
  int64_t Offset(int64_t b, int64_t h, int64_t s) const {
    return b * batch_stride + h / group * head_stride + s * token_stride;
  }
};

/// Heads stored [B, heads, tokens, head_size].
inline HeadView HeadMajorHeads(int64_t batch, int64_t heads, int64_t tokens, int64_t head_size) {
  return {batch,    heads, tokens, head_size, heads * tokens * head_size, tokens * head_size,
          head_size};
}

/// Heads stored [B, tokens, heads, head_size] within rows of `row_stride` values (heads *
/// head_size for a plain [B, S, hidden] tensor; more when the row packs Q, K and V).
inline HeadView TokenMajorHeads(int64_t batch, int64_t tokens, int64_t heads, int64_t head_size,
                                int64_t row_stride) {
  return {batch, heads, tokens, head_size, tokens * row_stride, head_size, row_stride};
}

/// The view of `shape`; a 3-D shape needs the op's heads attribute (> 0, dividing hidden).
inline Result<HeadView> ViewHeads(const TensorShape& shape, int64_t heads_attribute) {
  if (shape.rank() == 4) return HeadMajorHeads(shape[0], shape[1], shape[2], shape[3]);
  if (shape.rank() == 3 && heads_attribute > 0 && shape[2] % heads_attribute == 0) {
    return TokenMajorHeads(shape[0], shape[1], heads_attribute, shape[2] / heads_attribute,
                           shape[2]);
  }
  return ORT_ERROR(kInvalidArgument,
                   "{} is neither [B, heads, S, head_size] nor [B, S, hidden] with the heads "
                   "attribute ({}) dividing hidden",
                   shape.ToString(), heads_attribute);
}

}  // namespace ort
