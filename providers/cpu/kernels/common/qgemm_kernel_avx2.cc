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

// acc + the exact int16 pair products of a and b.
inline __m256i MultiplyAdd(__m256i acc, __m256i a, __m256i b) {
  return _mm256_add_epi32(acc, _mm256_madd_epi16(a, b));
}

#include "providers/cpu/kernels/common/qgemm_kernel_ymm_tile.inc"
// After the tile, which it sweeps.
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
