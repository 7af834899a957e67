// 8-bit GEMM microkernel for AVX-512 VNNI: 6 rows x 64 columns of C in 24 zmm accumulators.
// Each depth group (4 bytes of every row and column) loads 4 B vectors and broadcasts 6 A
// dwords for 24 VPDPBUSD, each 64 multiply-adds of unsigned A by signed B into int32.
#include <immintrin.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <utility>

#include "providers/cpu/kernels/common/qgemm_kernel.h"

#include "providers/cpu/kernels/common/isa_target_avx512vnni_begin.inc"

namespace ort {
namespace {

constexpr const QgemmKernel& kKernel = QgemmKernelOf("qgemm_u8s8_6x64_avx512vnni");
constexpr int kMr = static_cast<int>(kKernel.mr);
constexpr int kVectorColumns = 16;
constexpr int kNv = static_cast<int>(kKernel.nr) / kVectorColumns;

// acc += A bytes (unsigned) x B bytes (signed), four products per int32 lane. In assembly because
// GCC 12 treats the intrinsic's accumulator as a fresh value: it copied all 24 accumulators
// through the stack every depth step.
inline __m512i DotBytes(__m512i acc, __m512i a, __m512i b) {
  __asm__("vpdpbusd %[b], %[a], %[acc]" : [acc] "+v"(acc) : [a] "v"(a), [b] "v"(b));
  return acc;
}

template <int R, int V>
void Tile(int64_t groups, const uint8_t* a, int64_t a_stride, const uint8_t* b, int64_t b_row,
          bool first, const int32_t* column_offsets, int32_t* c, int64_t ldc, int64_t cols,
          const QgemmRequantization* requantization) {
  __m512i acc[R][V];
  for (int r = 0; r < R; ++r) {
    for (int v = 0; v < V; ++v) acc[r][v] = _mm512_setzero_si512();
  }
  for (int64_t g = 0; g < groups; ++g) {
    __m512i bv[V];
    for (int v = 0; v < V; ++v) bv[v] = _mm512_loadu_si512(b + g * b_row + 64 * v);
    for (int r = 0; r < R; ++r) {
      const __m512i av = _mm512_set1_epi32(LoadQgemmGroup(a + r * a_stride + 4 * g));
      for (int v = 0; v < V; ++v) acc[r][v] = DotBytes(acc[r][v], av, bv[v]);
    }
  }
  for (int v = 0; v < V; ++v) {
    const int64_t left = cols - kVectorColumns * v;
    const __mmask16 mask = left >= kVectorColumns ? 0xFFFF : (1u << left) - 1;
    const __m512i offsets =
        first && column_offsets != nullptr
            ? _mm512_maskz_loadu_epi32(mask, column_offsets + kVectorColumns * v)
            : _mm512_setzero_si512();
    if (requantization == nullptr) {
      for (int r = 0; r < R; ++r) {
        int32_t* out = c + r * ldc + kVectorColumns * v;
        const __m512i prior = first ? offsets : _mm512_maskz_loadu_epi32(mask, out);
        _mm512_mask_storeu_epi32(out, mask, _mm512_add_epi32(acc[r][v], prior));
      }
      continue;
    }
    // RequantizeRow's steps from the registers: scale, clamp about the zero point, round half
    // to even; the masked forms, whose unmasked twins start from undefined registers.
    const QgemmRequantization& q = *requantization;
    const __m512 multipliers = _mm512_maskz_loadu_ps(mask, q.multipliers + kVectorColumns * v);
    const __m512 low = _mm512_set1_ps(q.low), high = _mm512_set1_ps(q.high);
    const __m512i zero_point = _mm512_set1_epi32(q.zero_point);
    for (int r = 0; r < R; ++r) {
      const __m512i prior =
          first ? offsets : _mm512_maskz_loadu_epi32(mask, c + r * ldc + kVectorColumns * v);
      const __m512i sums = _mm512_add_epi32(acc[r][v], prior);
      __m512 value = _mm512_mul_ps(_mm512_maskz_cvtepi32_ps(mask, sums), multipliers);
      value = _mm512_maskz_min_ps(mask, _mm512_maskz_max_ps(mask, value, low), high);
      const __m512i quantized = _mm512_add_epi32(_mm512_maskz_cvtps_epi32(mask, value), zero_point);
      _mm512_mask_cvtepi32_storeu_epi8(q.out + r * q.ldo + kVectorColumns * v, mask, quantized);
    }
  }
}

#include "providers/cpu/kernels/common/qgemm_kernel_body.inc"

}  // namespace

void qgemm_u8s8_6x64_avx512vnni(int64_t rows, int64_t cols, int64_t groups, const uint8_t* a,
                                int64_t a_stride, const uint8_t* b, int64_t b_panel_stride,
                                bool first, const int32_t* column_offsets, int32_t* c, int64_t ldc,
                                const QgemmRequantization* requantization) {
  Block(rows, cols, groups, a, a_stride, b, b_panel_stride, first, column_offsets, c, ldc,
        requantization);
}

}  // namespace ort

#include "providers/cpu/kernels/common/isa_target_end.inc"
