// Transposes float matrices with 8x8 register tiles where the CPU has AVX2, so layout changes
// (NCHW <-> NCHWc reorders) run at memory speed instead of one scalar load and store per value.
#pragma once

#include <cstdint>

namespace ort {

/// dst[j * dst_stride + i] = src[i * src_stride + j] for i < rows, j < cols. The two ranges must
/// not overlap.
void TransposeFloats(const float* src, int64_t src_stride, float* dst, int64_t dst_stride,
                     int64_t rows, int64_t cols);

/// The same with plain loops, whatever the CPU (also the reference the tests compare with).
void TransposeFloatsPortable(const float* src, int64_t src_stride, float* dst, int64_t dst_stride,
                             int64_t rows, int64_t cols);

/// The AVX2 version; callable only where the CPU has AVX2.
void TransposeFloatsAvx2(const float* src, int64_t src_stride, float* dst, int64_t dst_stride,
                         int64_t rows, int64_t cols);

}  // namespace ort
