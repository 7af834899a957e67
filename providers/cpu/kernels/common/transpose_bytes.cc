#include "providers/cpu/kernels/common/transpose_bytes.h"

#include <algorithm>

#include "lib/common/cpu_info.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace ort {

void TransposeBytesPortable(const uint8_t* src, int64_t src_stride, uint8_t* dst,
                            int64_t dst_stride, int64_t rows, int64_t cols) {
  // Tiles of 64 columns keep the rows read and the columns written in L1.
  constexpr int64_t kTile = 64;
  for (int64_t j0 = 0; j0 < cols; j0 += kTile) {
    const int64_t j1 = std::min(cols, j0 + kTile);
    for (int64_t i = 0; i < rows; ++i) {
      for (int64_t j = j0; j < j1; ++j) dst[j * dst_stride + i] = src[i * src_stride + j];
    }
  }
}

#if defined(__SSE2__)
namespace {

// One 16x16 tile in four rounds of interleaves, each doubling the run of one source row's bytes
// that stay together: bytes, then pairs, quads and eight-byte halves.
void Transpose16x16(const uint8_t* src, int64_t src_stride, uint8_t* dst, int64_t dst_stride) {
  __m128i r[16], t[16];
  for (int i = 0; i < 16; ++i) {
    r[i] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i * src_stride));
  }
  for (int i = 0; i < 8; ++i) {
    t[2 * i] = _mm_unpacklo_epi8(r[2 * i], r[2 * i + 1]);
    t[2 * i + 1] = _mm_unpackhi_epi8(r[2 * i], r[2 * i + 1]);
  }
  // t[2i] holds columns 0-7 and t[2i+1] columns 8-15 of rows 2i, 2i+1, as byte pairs.
  for (int q = 0; q < 4; ++q) {
    const __m128i* a = t + 4 * q;
    r[4 * q] = _mm_unpacklo_epi16(a[0], a[2]);
    r[4 * q + 1] = _mm_unpackhi_epi16(a[0], a[2]);
    r[4 * q + 2] = _mm_unpacklo_epi16(a[1], a[3]);
    r[4 * q + 3] = _mm_unpackhi_epi16(a[1], a[3]);
  }
  // r[4q + c] holds columns 4c..4c+3 of rows 4q..4q+3, four bytes per column.
  for (int h = 0; h < 2; ++h) {
    for (int c = 0; c < 4; ++c) {
      t[8 * h + 2 * c] = _mm_unpacklo_epi32(r[8 * h + c], r[8 * h + 4 + c]);
      t[8 * h + 2 * c + 1] = _mm_unpackhi_epi32(r[8 * h + c], r[8 * h + 4 + c]);
    }
  }
  // t[8h + p] holds columns 2p, 2p+1 of rows 8h..8h+7, eight bytes per column.
  for (int p = 0; p < 8; ++p) {
    const __m128i low = _mm_unpacklo_epi64(t[p], t[8 + p]);
    const __m128i high = _mm_unpackhi_epi64(t[p], t[8 + p]);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + (2 * p) * dst_stride), low);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + (2 * p + 1) * dst_stride), high);
  }
}

void TransposeBytesSse2(const uint8_t* src, int64_t src_stride, uint8_t* dst, int64_t dst_stride,
                        int64_t rows, int64_t cols) {
  const int64_t full_rows = rows / 16 * 16, full_cols = cols / 16 * 16;
  for (int64_t i = 0; i < full_rows; i += 16) {
    for (int64_t j = 0; j < full_cols; j += 16) {
      Transpose16x16(src + i * src_stride + j, src_stride, dst + j * dst_stride + i, dst_stride);
    }
  }
  if (full_cols < cols) {
    TransposeBytesPortable(src + full_cols, src_stride, dst + full_cols * dst_stride, dst_stride,
                           rows, cols - full_cols);
  }
  if (full_rows < rows) {
    TransposeBytesPortable(src + full_rows * src_stride, src_stride, dst + full_rows, dst_stride,
                           rows - full_rows, full_cols);
  }
}

}  // namespace
#endif

void TransposeBytes(const uint8_t* src, int64_t src_stride, uint8_t* dst, int64_t dst_stride,
                    int64_t rows, int64_t cols) {
#if defined(__SSE2__)
  static const bool vector = MaxCpuIsa() != CpuIsa::kPortable;
  if (vector) {
    TransposeBytesSse2(src, src_stride, dst, dst_stride, rows, cols);
    return;
  }
#endif
  TransposeBytesPortable(src, src_stride, dst, dst_stride, rows, cols);
}

}  // namespace ort
