// 8-bit GEMM microkernel for AVX2: 6 rows x 16 columns of C in 12 ymm accumulators, operands
// widened to int16 pairs at packing. Each depth group (2 steps) loads 2 B vectors and broadcasts
// 6 A pairs for 12 VPMADDWD, each 16 exact multiply-adds into int32.
#include <immintrin.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <utility>

#include "providers/cpu/kernels/common/qgemm_kernel.h"

#include "providers/cpu/kernels/common/isa_target_avx2_begin.inc"

namespace ort {
namespace {

constexpr const QgemmKernel& kKernel = QgemmKernelOf("qgemm_s16_6x16_avx2");
constexpr int kMr = static_cast<int>(kKernel.mr);
constexpr int kVectorColumns = 8;
constexpr int kNv = static_cast<int>(kKernel.nr) / kVectorColumns;

inline int32_t LoadGroup(const uint8_t* p) {
  int32_t value;
  std::memcpy(&value, p, sizeof(value));
  return value;
}

// Columns [0, count) of a vector: lane j is all ones when j < count.
inline __m256i ColumnMask(int64_t count) {
  const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int32_t>(count)), lanes);
}

// The kernel does not requantize (qgemm_kernels.inc): its QgemmRequantization is always null.
template <int R, int V>
void Tile(int64_t groups, const uint8_t* a, int64_t a_stride, const uint8_t* b, int64_t b_row,
          bool first, const int32_t* column_offsets, int32_t* c, int64_t ldc, int64_t cols,
          const QgemmRequantization* /*requantization*/) {
  __m256i acc[R][V];
  for (int r = 0; r < R; ++r) {
    for (int v = 0; v < V; ++v) acc[r][v] = _mm256_setzero_si256();
  }
  for (int64_t g = 0; g < groups; ++g) {
    __m256i bv[V];
    for (int v = 0; v < V; ++v) {
      bv[v] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + g * b_row + 32 * v));
    }
    for (int r = 0; r < R; ++r) {
      const __m256i av = _mm256_set1_epi32(LoadGroup(a + r * a_stride + 4 * g));
      for (int v = 0; v < V; ++v) {
        acc[r][v] = _mm256_add_epi32(acc[r][v], _mm256_madd_epi16(av, bv[v]));
      }
    }
  }
  for (int v = 0; v < V; ++v) {
    const int64_t left = cols - kVectorColumns * v;
    const __m256i mask = ColumnMask(left);
    const __m256i offsets = first && column_offsets != nullptr
                                ? _mm256_maskload_epi32(column_offsets + kVectorColumns * v, mask)
                                : _mm256_setzero_si256();
    for (int r = 0; r < R; ++r) {
      int32_t* out = c + r * ldc + kVectorColumns * v;
      const __m256i prior = first ? offsets : _mm256_maskload_epi32(out, mask);
      _mm256_maskstore_epi32(out, mask, _mm256_add_epi32(acc[r][v], prior));
    }
  }
}

#include "providers/cpu/kernels/common/qgemm_kernel_body.inc"

}  // namespace

void qgemm_s16_6x16_avx2(int64_t rows, int64_t cols, int64_t groups, const uint8_t* a,
                         int64_t a_stride, const uint8_t* b, int64_t b_panel_stride, bool first,
                         const int32_t* column_offsets, int32_t* c, int64_t ldc,
                         const QgemmRequantization* requantization) {
  Block(rows, cols, groups, a, a_stride, b, b_panel_stride, first, column_offsets, c, ldc,
        requantization);
}

}  // namespace ort

#include "providers/cpu/kernels/common/isa_target_end.inc"
