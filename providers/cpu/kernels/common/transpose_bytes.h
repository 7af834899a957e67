// Transposes byte matrices (8-bit tensors between NCHW and channels-last) with 16x16 register
// tiles where the CPU has SSE2: one scalar load and store per byte made the layout changes around
// an 8-bit convolution cost as much as its product.
#pragma once

#include <cstdint>

namespace ort {

/// dst[j * dst_stride + i] = src[i * src_stride + j] for i < rows, j < cols. The two ranges must
/// not overlap.
void TransposeBytes(const uint8_t* src, int64_t src_stride, uint8_t* dst, int64_t dst_stride,
                    int64_t rows, int64_t cols);

/// The same with plain loops, whatever the CPU (also the reference the tests compare with).
void TransposeBytesPortable(const uint8_t* src, int64_t src_stride, uint8_t* dst,
                            int64_t dst_stride, int64_t rows, int64_t cols);

}  // namespace ort
