// TransposeFloats with AVX2: 8x8 tiles transposed in registers (unpack, shuffle, lane permute),
// the ragged edges with plain loops.
#include <immintrin.h>

#include "providers/cpu/kernels/common/transpose_floats.h"

#include "providers/cpu/kernels/common/isa_target_avx2_begin.inc"

namespace ort {
namespace {

inline void Tile8x8(const float* src, int64_t src_stride, float* dst, int64_t dst_stride) {
  __m256 r[8];
  for (int i = 0; i < 8; ++i) r[i] = _mm256_loadu_ps(src + i * src_stride);
  __m256 t[8];
  for (int i = 0; i < 8; i += 2) {
    t[i] = _mm256_unpacklo_ps(r[i], r[i + 1]);
    t[i + 1] = _mm256_unpackhi_ps(r[i], r[i + 1]);
  }
  __m256 s[8];
  for (int i = 0; i < 8; i += 4) {
    s[i] = _mm256_shuffle_ps(t[i], t[i + 2], _MM_SHUFFLE(1, 0, 1, 0));
    s[i + 1] = _mm256_shuffle_ps(t[i], t[i + 2], _MM_SHUFFLE(3, 2, 3, 2));
    s[i + 2] = _mm256_shuffle_ps(t[i + 1], t[i + 3], _MM_SHUFFLE(1, 0, 1, 0));
    s[i + 3] = _mm256_shuffle_ps(t[i + 1], t[i + 3], _MM_SHUFFLE(3, 2, 3, 2));
  }
  for (int i = 0; i < 4; ++i) {
    _mm256_storeu_ps(dst + i * dst_stride, _mm256_permute2f128_ps(s[i], s[i + 4], 0x20));
    _mm256_storeu_ps(dst + (i + 4) * dst_stride, _mm256_permute2f128_ps(s[i], s[i + 4], 0x31));
  }
}

}  // namespace

void TransposeFloatsAvx2(const float* src, int64_t src_stride, float* dst, int64_t dst_stride,
                         int64_t rows, int64_t cols) {
  const int64_t full_rows = rows / 8 * 8, full_cols = cols / 8 * 8;
  const auto tile = [&](int64_t i, int64_t j) {
    Tile8x8(src + i * src_stride + j, src_stride, dst + j * dst_stride + i, dst_stride);
  };
  // The short side is swept innermost, so the cache lines of its few rows (read or written)
  // are finished while they are still in L1.
  if (rows <= cols) {
    for (int64_t j = 0; j < full_cols; j += 8) {
      for (int64_t i = 0; i < full_rows; i += 8) tile(i, j);
    }
  } else {
    for (int64_t i = 0; i < full_rows; i += 8) {
      for (int64_t j = 0; j < full_cols; j += 8) tile(i, j);
    }
  }
  for (int64_t i = 0; i < rows; ++i) {
    const int64_t j0 = i < full_rows ? full_cols : 0;
    for (int64_t j = j0; j < cols; ++j) dst[j * dst_stride + i] = src[i * src_stride + j];
  }
}

}  // namespace ort

#include "providers/cpu/kernels/common/isa_target_end.inc"
