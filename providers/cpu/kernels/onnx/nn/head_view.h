// The [batch, heads, tokens, head_size] view the transformer ops of opset 23 (Attention,
// RotaryEmbedding) take of their 4-D inputs [B, heads, S, D] and 3-D inputs [B, S, heads * D].
#pragma once

#include <cstdint>

#include "lib/common/status.h"
#include "lib/ir/tensor_shape.h"

namespace ort {

struct HeadView {
  int64_t batch = 0, heads = 0, tokens = 0, head_size = 0;
  int64_t batch_stride = 0, head_stride = 0, token_stride = 0;

  /// Element offset of the head vector of batch b, head h, token s.
  int64_t Offset(int64_t b, int64_t h, int64_t s) const {
    return b * batch_stride + h * head_stride + s * token_stride;
  }
};

/// The view of `shape`; a 3-D shape needs the op's heads attribute (> 0, dividing hidden).
inline Result<HeadView> ViewHeads(const TensorShape& shape, int64_t heads_attribute) {
  HeadView v;
  if (shape.rank() == 4) {
    v.batch = shape[0], v.heads = shape[1], v.tokens = shape[2], v.head_size = shape[3];
    v.token_stride = v.head_size;
    v.head_stride = v.tokens * v.head_size;
  } else if (shape.rank() == 3 && heads_attribute > 0 && shape[2] % heads_attribute == 0) {
    v.batch = shape[0], v.tokens = shape[1], v.heads = heads_attribute;
    v.head_size = shape[2] / heads_attribute;
    v.head_stride = v.head_size;
    v.token_stride = shape[2];
  } else {
    return ORT_ERROR(kInvalidArgument,
                     "{} is neither [B, heads, S, head_size] nor [B, S, hidden] with the heads "
                     "attribute ({}) dividing hidden",
                     shape.ToString(), heads_attribute);
  }
  v.batch_stride = v.heads * v.tokens * v.head_size;
  return v;
}

}  // namespace ort
