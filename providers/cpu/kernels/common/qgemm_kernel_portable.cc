// 8-bit GEMM microkernel in portable C++: 4 rows x 16 columns of C, unsigned A bytes by signed B
// bytes, 4 depth steps per group as the VNNI kernel packs them.
#include <algorithm>
#include <cstdint>

#include "providers/cpu/kernels/common/qgemm_kernel.h"

namespace ort {
namespace {

constexpr const QgemmKernel& kKernel = QgemmKernelOf("qgemm_u8s8_4x16_portable");
constexpr int kMr = static_cast<int>(kKernel.mr);
constexpr int kNr = static_cast<int>(kKernel.nr);

void Tile(int64_t rows, int64_t groups, const uint8_t* a, int64_t a_stride, const uint8_t* b,
          bool first, const int32_t* column_offsets, int32_t* c, int64_t ldc, int64_t cols) {
  // Unsigned, so that depths beyond int32's range wrap as the SIMD kernels do rather than overflow.
  uint32_t acc[kMr][kNr] = {};
  const auto* b_signed = reinterpret_cast<const int8_t*>(b);
  for (int64_t g = 0; g < groups; ++g) {
    const int8_t* b_group = b_signed + g * kNr * kQgemmGroupBytes;
    for (int64_t r = 0; r < rows; ++r) {
      const uint8_t* a_group = a + r * a_stride + g * kQgemmGroupBytes;
      for (int j = 0; j < kNr; ++j) {
        int32_t sum = 0;
        for (int s = 0; s < kQgemmGroupBytes; ++s) {
          sum += static_cast<int32_t>(a_group[s]) * b_group[j * kQgemmGroupBytes + s];
        }
        acc[r][j] += static_cast<uint32_t>(sum);
      }
    }
  }
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t j = 0; j < cols; ++j) {
      const int32_t start = column_offsets != nullptr ? column_offsets[j] : 0;
      const auto prior = static_cast<uint32_t>(first ? start : c[r * ldc + j]);
      c[r * ldc + j] = static_cast<int32_t>(prior + acc[r][j]);
    }
  }
}

}  // namespace

void qgemm_u8s8_4x16_portable(int64_t rows, int64_t cols, int64_t groups, const uint8_t* a,
                              int64_t a_stride, const uint8_t* b, int64_t b_panel_stride,
                              bool first, const int32_t* column_offsets, int32_t* c, int64_t ldc,
                              const QgemmRequantization* /*requantization: never given, as the
                                                           kernel does not requantize*/) {
  for (int64_t col0 = 0; col0 < cols; col0 += kNr) {
    const int64_t panel_cols = std::min<int64_t>(kNr, cols - col0);
    for (int64_t row0 = 0; row0 < rows; row0 += kMr) {
      Tile(std::min<int64_t>(kMr, rows - row0), groups, a + row0 * a_stride, a_stride, b, first,
           column_offsets != nullptr ? column_offsets + col0 : nullptr, c + row0 * ldc + col0, ldc,
           panel_cols);
    }
    b += b_panel_stride;
  }
}

}  // namespace ort
