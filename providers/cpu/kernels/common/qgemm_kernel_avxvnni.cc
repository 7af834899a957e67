// 8-bit GEMM microkernel for AVX-VNNI (256-bit VPDPBUSD, on CPUs without AVX-512): 6 rows x 16
// columns of C in 12 ymm accumulators. Each depth group (4 bytes of every row and column) loads
// 2 B vectors and broadcasts 6 A dwords for 12 VPDPBUSD, each 32 multiply-adds of unsigned A by
// signed B into int32.
#include <immintrin.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <utility>

#include "providers/cpu/kernels/common/qgemm_kernel.h"

#include "providers/cpu/kernels/common/isa_target_avxvnni_begin.inc"

namespace ort {
namespace {

constexpr const QgemmKernel& kKernel = QgemmKernelOf("qgemm_u8s8_6x16_avxvnni");
constexpr int kMr = static_cast<int>(kKernel.mr);
constexpr int kVectorColumns = 8;
constexpr int kNv = static_cast<int>(kKernel.nr) / kVectorColumns;

// acc + the four byte products per lane of a (unsigned) and b (signed). In assembly, as in the
// AVX-512 kernel: GCC 12 copies the intrinsic's accumulators through the stack. {vex} selects
// AVX-VNNI's encoding; "x" keeps to the 16 registers it can name.
inline __m256i MultiplyAdd(__m256i acc, __m256i a, __m256i b) {
  __asm__("%{vex%} vpdpbusd %[b], %[a], %[acc]" : [acc] "+x"(acc) : [a] "x"(a), [b] "x"(b));
  return acc;
}

#include "providers/cpu/kernels/common/qgemm_kernel_ymm_tile.inc"
// After the tile, which it sweeps.
#include "providers/cpu/kernels/common/qgemm_kernel_body.inc"

}  // namespace

void qgemm_u8s8_6x16_avxvnni(int64_t rows, int64_t cols, int64_t groups, const uint8_t* a,
                             int64_t a_stride, const uint8_t* b, int64_t b_panel_stride, bool first,
                             const int32_t* column_offsets, int32_t* c, int64_t ldc,
                             const QgemmRequantization* requantization) {
  Block(rows, cols, groups, a, a_stride, b, b_panel_stride, first, column_offsets, c, ldc,
        requantization);
}

}  // namespace ort

#include "providers/cpu/kernels/common/isa_target_end.inc"
