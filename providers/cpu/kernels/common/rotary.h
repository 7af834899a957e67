// The rotation of one head vector by rotary position embeddings, shared by the ai.onnx
// RotaryEmbedding-23 and com.microsoft RotaryEmbedding kernels.
#pragma once

#include <algorithm>
#include <cstdint>

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

}  // namespace ort
