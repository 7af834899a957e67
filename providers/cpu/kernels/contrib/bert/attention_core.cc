#include "providers/cpu/kernels/contrib/bert/attention_core.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <vector>

#include "providers/cpu/kernels/common/gemm.h"
#include "providers/cpu/kernels/common/row_reduce.h"
#include "providers/cpu/kernels/common/vectorize.h"

namespace ort {
namespace {

// True when the mask of a query row does not depend on the row: then one additive row per batch
// serves every query.
bool MaskIsPerKey(const AttentionMaskIndex& mask) {
  return mask.kind == AttentionMaskKind::kKeyLengths || mask.kind == AttentionMaskKind::kEndStart ||
         mask.kind == AttentionMaskKind::kRaw2D;
}

// Softmax of one row in place, accumulated in float.
void SoftmaxRow(float* row, int64_t n) {
  const float max = RowMax(row, n);
  for (int64_t i = 0; i < n; ++i) row[i] = FastExp(row[i] - max);
  const float inverse = 1.0f / RowSum(row, n);
  for (int64_t i = 0; i < n; ++i) row[i] *= inverse;
}

}  // namespace

Status ComputeAttentionHeads(KernelContext& context, const AttentionHeads& a) {
  const int64_t batch = a.q_view.batch, num_heads = a.q_view.heads;
  const int64_t queries = a.q_view.tokens, keys = a.k_view.tokens;
  const int64_t head = a.q_view.head_size, v_head = a.v_view.head_size;
  const int64_t units = batch * num_heads;
  if (units == 0 || queries == 0) return Status::OK();
  ORT_ASSIGN_OR_RETURN(Tensor scores,
                       context.AllocateTemp(DataType::kFloat, TensorShape({units, queries, keys})));
  float* scores_data = scores.MutableData<float>();
  const AttentionMaskIndex& mask = a.mask;
  const float filter = a.mask_filter_value;
  // Masks that only depend on the key become one additive row per batch.
  const bool per_key_mask = MaskIsPerKey(mask);
  std::vector<float> key_mask(per_key_mask ? static_cast<size_t>(batch * keys) : 0, 0.0f);
  for (int64_t b = 0; per_key_mask && b < batch; ++b) {
    for (int64_t t = 0; t < keys; ++t) {
      if (MaskIndexMasks(mask, batch, b, 0, t, keys)) key_mask[b * keys + t] = filter;
    }
  }
  const bool any_mask = mask.kind != AttentionMaskKind::kNone;
  // ONNX Runtime replaces the padding value of causally hidden keys with the lowest float.
  constexpr float kHidden = std::numeric_limits<float>::lowest();
  const double cost = 2.0 * static_cast<double>(queries) * keys * (head + v_head);
  VectorizedParallelFor(context.thread_pool(), units, cost, [&](int64_t begin, int64_t end) {
    for (int64_t unit = begin; unit < end; ++unit) {
      const int64_t b = unit / num_heads, n = unit % num_heads;
      float* probs = scores_data + unit * queries * keys;
      if (keys > 0) {
        Sgemm(false, true, queries, keys, head, a.scale, a.q + a.q_view.Offset(b, n, 0),
              a.q_view.token_stride, a.k + a.k_view.Offset(b, n, 0), a.k_view.token_stride, 0.0f,
              probs, keys, nullptr);
      }
      const float* bias = nullptr;
      if (a.attention_bias != nullptr) {
        const int64_t bias_unit =
            (a.bias_batch == 1 ? 0 : b) * a.bias_heads + (a.bias_heads == 1 ? 0 : n);
        bias = a.attention_bias + bias_unit * queries * keys;
      }
      for (int64_t s = 0; s < queries; ++s) {
        float* row = probs + s * keys;
        if (bias != nullptr) {
          const float* add = bias + s * keys;
          for (int64_t t = 0; t < keys; ++t) row[t] += add[t];
        }
        const int64_t last_seen = a.causal && s + 1 < queries ? a.causal_offset + s : keys;
        if (per_key_mask) {
          const float* add = key_mask.data() + b * keys;
          for (int64_t t = 0; t < keys; ++t) row[t] += t > last_seen ? kHidden : add[t];
        } else if (any_mask || last_seen < keys) {
          for (int64_t t = 0; t < keys; ++t) {
            if (t > last_seen) {
              row[t] += kHidden;
            } else if (any_mask && MaskIndexMasks(mask, batch, b, s, t, keys)) {
              row[t] += filter;
            }
          }
        }
        if (a.scores_out != nullptr) {
          std::memcpy(a.scores_out + (unit * queries + s) * keys, row, sizeof(float) * keys);
        }
        if (keys > 0) SoftmaxRow(row, keys);
      }
      float* out = a.out + a.out_view.Offset(b, n, 0);
      if (keys == 0) {
        for (int64_t s = 0; s < queries; ++s) {
          std::fill(out + s * a.out_view.token_stride, out + s * a.out_view.token_stride + v_head,
                    0.0f);
        }
        continue;
      }
      Sgemm(false, false, queries, v_head, keys, 1.0f, probs, keys, a.v + a.v_view.Offset(b, n, 0),
            a.v_view.token_stride, 0.0f, out, a.out_view.token_stride, nullptr);
    }
  });
  return Status::OK();
}

}  // namespace ort
