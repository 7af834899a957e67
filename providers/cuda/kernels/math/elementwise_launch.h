// Launchers of the elementwise CUDA kernels (elementwise.cu): plain types only, so that the host
// code calling them needs no CUDA compiler. BroadcastStrides also drives the strided copy that
// Gemm's bias, Expand and Transpose use.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace ort::cuda {

enum class ElementKind { kFloat, kHalf };
enum class BinaryOp { kAdd, kSub, kMul, kDiv, kPow };
enum class UnaryOp { kRelu, kSigmoid, kTanh, kExp, kLog, kNeg, kAbs, kSqrt, kErf, kReciprocal };

inline constexpr int kMaxBroadcastRank = 8;

/// numpy broadcasting as strides: output index -> input offsets (stride 0 on broadcast axes).
struct BroadcastStrides {
  int rank = 0;
  int64_t output_dims[kMaxBroadcastRank] = {};
  int64_t a_strides[kMaxBroadcastRank] = {};
  int64_t b_strides[kMaxBroadcastRank] = {};
};

/// out[i] = a[...] op b[...] for `count` outputs; `strides` null when a, b and out have one shape.
cudaError_t LaunchBinary(BinaryOp op, ElementKind kind, const void* a, const void* b, void* out,
                         int64_t count, const BroadcastStrides* strides, cudaStream_t stream);

/// dst[i] = src[offset(i)] for `count` outputs of any element type of 1, 2, 4 or 8 bytes, where
/// offset sums each output coordinate times `strides.a_strides` (broadcasts, transposes).
cudaError_t LaunchStridedCopy(size_t element_size, const void* src, void* dst, int64_t count,
                              const BroadcastStrides& strides, cudaStream_t stream);

/// out[o, q, i] = data[o, indices[q], i] with data [outer, axis, inner] and `count` indices
/// already in [0, axis): Gather for any element type of 1, 2, 4 or 8 bytes.
cudaError_t LaunchGather(size_t element_size, const void* data, const int64_t* indices, void* out,
                         int64_t outer, int64_t axis, int64_t inner, int64_t count,
                         cudaStream_t stream);

cudaError_t LaunchUnary(UnaryOp op, ElementKind kind, const void* x, void* y, int64_t count,
                        cudaStream_t stream);

/// y[i] = min(max(x[i], lo), hi) compared in float, NaN staying NaN (Clip).
cudaError_t LaunchClip(ElementKind kind, const void* x, void* y, int64_t count, float lo, float hi,
                       cudaStream_t stream);

}  // namespace ort::cuda
