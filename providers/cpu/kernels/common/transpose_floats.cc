#include "providers/cpu/kernels/common/transpose_floats.h"

#include <algorithm>

#include "lib/common/cpu_info.h"

namespace ort {

void TransposeFloatsPortable(const float* src, int64_t src_stride, float* dst, int64_t dst_stride,
                             int64_t rows, int64_t cols) {
  // Tiles of 32 columns keep the rows read and the columns written in L1.
  constexpr int64_t kTile = 32;
  for (int64_t j0 = 0; j0 < cols; j0 += kTile) {
    const int64_t j1 = std::min(cols, j0 + kTile);
    for (int64_t i = 0; i < rows; ++i) {
      for (int64_t j = j0; j < j1; ++j) dst[j * dst_stride + i] = src[i * src_stride + j];
    }
  }
}

void TransposeFloats(const float* src, int64_t src_stride, float* dst, int64_t dst_stride,
                     int64_t rows, int64_t cols) {
  static const bool avx2 = MaxCpuIsa() != CpuIsa::kPortable;
  if (avx2) {
    TransposeFloatsAvx2(src, src_stride, dst, dst_stride, rows, cols);
  } else {
    TransposeFloatsPortable(src, src_stride, dst, dst_stride, rows, cols);
  }
}

}  // namespace ort
