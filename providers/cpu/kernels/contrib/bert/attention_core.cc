#include "providers/cpu/kernels/contrib/bert/attention_core.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <vector>

#include "lib/common/cpu_info.h"
#include "providers/cpu/kernels/common/attention_tile.h"
#include "providers/cpu/kernels/common/gemm.h"
#include "providers/cpu/kernels/common/row_reduce.h"
#include "providers/cpu/kernels/common/thread_scratch.h"
#include "providers/cpu/kernels/common/transpose_floats.h"
#include "providers/cpu/kernels/common/vectorize.h"

namespace ort {
namespace {

// Query rows per task.
constexpr int64_t kQueryBlock = 64;

// True when the mask of a query row does not depend on the row: then one additive row per batch
// serves every query.
bool MaskIsPerKey(const AttentionMaskIndex& mask) {
  return mask.kind == AttentionMaskKind::kKeyLengths || mask.kind == AttentionMaskKind::kEndStart ||
         mask.kind == AttentionMaskKind::kRaw2D;
}

int64_t RoundUp(int64_t value, int64_t block) { return (value + block - 1) / block * block; }

// Softmax of one row in place, accumulated in float.
void SoftmaxRow(float* row, int64_t n) {
  const float max = RowMax(row, n);
  for (int64_t i = 0; i < n; ++i) row[i] = SoftmaxExp(row[i] - max);
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
  // Tasks of kQueryBlock query rows of one (batch, head): a few heads of long sequences (MViT's
  // first blocks, one head over 25089 tokens) still spread over every thread, and the scores in
  // flight are [kQueryBlock, T] per task, not [S, T] per head.
  const int64_t blocks = (queries + kQueryBlock - 1) / kQueryBlock;
  const double cost = 2.0 * static_cast<double>(std::min(queries, kQueryBlock)) * keys *
                      static_cast<double>(head + v_head);
  // Short sequences and heads (windowed vision attention) take the tile kernels, from K
  // transposed once per task and V read in place, or copied when its head is no whole number of
  // vectors. Not on CPUs without AVX2, where the portable tiles run slower than Sgemm.
  const AttentionTileKernel& tiles = BestAttentionTileKernel();
  const int64_t max_width = kAttentionTileMaxVectors * tiles.block;
  const int64_t key_width = RoundUp(keys, tiles.block), head_width = RoundUp(v_head, tiles.block);
  const bool tiled =
      MaxCpuIsa() != CpuIsa::kPortable && key_width <= max_width && head_width <= max_width;
  const bool v_copied = tiled && head_width != v_head;
  const int64_t score_stride = tiled ? key_width : keys;
  VectorizedParallelFor(
      context.thread_pool(), units * blocks, cost, [&](int64_t begin, int64_t end) {
        thread_local AlignedScratch<float> scratch;
        const int64_t block_rows = std::min(queries, kQueryBlock);
        const int64_t kt_floats = tiled ? head * key_width : 0;
        const int64_t v_floats = v_copied ? keys * head_width : 0;
        const int64_t out_floats = v_copied ? block_rows * head_width : 0;
        float* probs = scratch.Get(
            static_cast<size_t>(block_rows * score_stride + kt_floats + v_floats + out_floats));
        float* kt = probs + block_rows * score_stride;
        float* v_padded = kt + kt_floats;
        float* out_padded = v_padded + v_floats;
        for (int64_t task = begin; task < end; ++task) {
          const int64_t unit = task / blocks, first = task % blocks * kQueryBlock;
          const int64_t rows = std::min(kQueryBlock, queries - first);
          const int64_t b = unit / num_heads, n = unit % num_heads;
          float* out = a.out + a.out_view.Offset(b, n, first);
          if (keys == 0) {
            for (int64_t r = 0; r < rows; ++r) {
              std::fill(out + r * a.out_view.token_stride,
                        out + r * a.out_view.token_stride + v_head, 0.0f);
            }
            continue;
          }
          if (tiled) {
            TransposeFloats(a.k + a.k_view.Offset(b, n, 0), a.k_view.token_stride, kt, key_width,
                            keys, head);
            for (int64_t d = 0; d < head; ++d) {
              std::fill(kt + d * key_width + keys, kt + (d + 1) * key_width, 0.0f);
            }
            for (int64_t t = 0; v_copied && t < keys; ++t) {
              const float* v_row = a.v + a.v_view.Offset(b, n, t);
              std::copy(v_row, v_row + v_head, v_padded + t * head_width);
              std::fill(v_padded + t * head_width + v_head, v_padded + (t + 1) * head_width, 0.0f);
            }
            tiles.scores(a.q + a.q_view.Offset(b, n, first), a.q_view.token_stride, rows, head, kt,
                         key_width, a.scale, probs);
          } else {
            Sgemm(false, true, rows, keys, head, a.scale, a.q + a.q_view.Offset(b, n, first),
                  a.q_view.token_stride, a.k + a.k_view.Offset(b, n, 0), a.k_view.token_stride,
                  0.0f, probs, keys, nullptr);
          }
          const float* bias = nullptr;
          if (a.attention_bias != nullptr) {
            const int64_t bias_unit =
                (a.bias_batch == 1 ? 0 : b) * a.bias_heads + (a.bias_heads == 1 ? 0 : n);
            bias = a.attention_bias + (bias_unit * queries + first) * keys;
          }
          for (int64_t r = 0; r < rows; ++r) {
            const int64_t s = first + r;
            float* row = probs + r * score_stride;
            if (bias != nullptr) {
              const float* add = bias + r * keys;
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
            SoftmaxRow(row, keys);
          }
          if (!tiled) {
            Sgemm(false, false, rows, v_head, keys, 1.0f, probs, keys,
                  a.v + a.v_view.Offset(b, n, 0), a.v_view.token_stride, 0.0f, out,
                  a.out_view.token_stride, nullptr);
          } else if (!v_copied) {
            tiles.context(probs, score_stride, rows, keys, a.v + a.v_view.Offset(b, n, 0),
                          a.v_view.token_stride, head_width, out, a.out_view.token_stride);
          } else {
            tiles.context(probs, score_stride, rows, keys, v_padded, head_width, head_width,
                          out_padded, head_width);
            for (int64_t r = 0; r < rows; ++r) {
              std::copy(out_padded + r * head_width, out_padded + r * head_width + v_head,
                        out + r * a.out_view.token_stride);
            }
          }
        }
      });
  return Status::OK();
}

Status ComputeProjectedAttention(KernelContext& context, const HeadAttentionAttributes& attributes,
                                 const AttentionSizes& sizes, const float* qkv,
                                 const float* attention_bias, const float* past, float* present,
                                 float* output) {
  const int64_t batch = sizes.batch, sequence = sizes.sequence, keys = sizes.keys;
  const int64_t num_heads = attributes.num_heads, head = sizes.head, hidden = sizes.hidden;
  AttentionHeads heads;
  heads.q = qkv;
  heads.k = qkv + hidden;
  heads.v = qkv + 2 * hidden;
  heads.q_view = TokenMajorHeads(batch, sequence, num_heads, head, sizes.total);
  heads.k_view = heads.q_view;
  heads.v_view = TokenMajorHeads(batch, sequence, num_heads, sizes.v_head, sizes.total);
  // As onnxruntime, keys and values that follow a past are gathered (head-major, K then V) into
  // the present output only.
  if (past != nullptr && present == nullptr) {
    return context.Error("the past input needs the present output");
  }
  if (present != nullptr) {
    if (sizes.v_head != head) return context.Error("present needs Q, K and V of one size");
    const HeadView cache_view = HeadMajorHeads(batch, num_heads, keys, head);
    const int64_t part = batch * num_heads * keys * head, past_rows = sizes.past * head;
    for (int64_t kv = 0; kv < 2; ++kv) {
      float* to = present + kv * part;
      const float* fresh = kv == 0 ? heads.k : heads.v;
      for (int64_t unit = 0; unit < batch * num_heads; ++unit) {
        const int64_t b = unit / num_heads, n = unit % num_heads;
        float* rows = to + cache_view.Offset(b, n, 0);
        if (past != nullptr) {
          const float* from = past + (kv * batch * num_heads + unit) * past_rows;
          std::copy(from, from + past_rows, rows);
        }
        for (int64_t s = 0; s < sequence; ++s) {
          const float* from = fresh + heads.k_view.Offset(b, n, s);
          std::copy(from, from + head, rows + (sizes.past + s) * head);
        }
      }
    }
    heads.k = present;
    heads.v = present + part;
    heads.k_view = cache_view;
    heads.v_view = cache_view;
  }
  heads.out = output;
  heads.out_view =
      TokenMajorHeads(batch, sequence, num_heads, sizes.v_head, num_heads * sizes.v_head);
  heads.scale = sizes.scale;
  if (attention_bias != nullptr) {
    heads.attention_bias = attention_bias;
    heads.bias_batch = sizes.bias_batch;
    heads.bias_heads = sizes.bias_heads;
  }
  heads.mask = sizes.mask;
  heads.mask_filter_value = attributes.mask_filter_value;
  heads.causal = sizes.causal;
  heads.causal_offset = sizes.past;
  return ComputeAttentionHeads(context, heads);
}

}  // namespace ort
