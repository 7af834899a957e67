// The rotation of one head vector by rotary position embeddings, shared by the ai.onnx
// RotaryEmbedding-23 and com.microsoft RotaryEmbedding kernels.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "lib/threading/thread_pool.h"
#include "providers/cpu/kernels/common/head_view.h"

namespace ort {

/// Rotates the first `rotary_dim` (even) channels of the head vector `src` into `dst` by the
/// angles whose cosines and sines are cos[0, rotary_dim / 2) and sin[...], and copies the other
/// channels up to `head_size`. Pairs are (i, i + rotary_dim / 2), or (2i, 2i + 1) when
/// interleaved: (x1, x2) -> (cos x1 - sin x2, sin x1 + cos x2), computed in C.
template <typename C, typename T>
void RotateHead(const T* src, T* dst, const T* cos, const T* sin, int64_t rotary_dim,
                int64_t head_size, bool interleaved) {
  const int64_t half = rotary_dim / 2;
  for (int64_t i = 0; i < half; ++i) {
    const int64_t first = interleaved ? 2 * i : i;
    const int64_t second = interleaved ? 2 * i + 1 : i + half;
    const C c(cos[i]), s(sin[i]);
    const C x1(src[first]), x2(src[second]);
    dst[first] = static_cast<T>(c * x1 - s * x2);
    dst[second] = static_cast<T>(s * x1 + c * x2);
  }
  std::copy(src + rotary_dim, src + head_size, dst + rotary_dim);
}

/// Rotates every head vector of `view` into `out` (laid out alike), in parallel: token s of
/// sample b uses row rows[b * tokens + s] of the caches, whose rows are `width` wide.
template <typename C, typename T>
void RotateHeads(ThreadPool* pool, const HeadView& view, const T* in, T* out, const T* cos,
                 const T* sin, const std::vector<int64_t>& rows, int64_t width, int64_t rotary_dim,
                 bool interleaved) {
  const int64_t heads = view.heads, tokens = view.tokens;
  ThreadPool::TryParallelFor(
      pool, view.batch * heads * tokens, 6.0 * static_cast<double>(view.head_size),
      [&](int64_t begin, int64_t end) {
        for (int64_t unit = begin; unit < end; ++unit) {
          const int64_t b = unit / (heads * tokens), h = unit / tokens % heads;
          const int64_t s = unit % tokens;
          const int64_t offset = view.Offset(b, h, s);
          const int64_t row = rows[static_cast<size_t>(b * tokens + s)] * width;
          RotateHead<C>(in + offset, out + offset, cos + row, sin + row, rotary_dim, view.head_size,
                        interleaved);
        }
      });
}

}  // namespace ort
