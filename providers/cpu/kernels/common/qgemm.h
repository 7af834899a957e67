// 8-bit integer matrix multiply with zero points, for MatMulInteger, QLinearMatMul, ConvInteger
// and QLinearConv:
//   C[i, j] = sum_p (A[i, p] - a_zero[i]) * (B[p, j] - b_zero[j])      (int32 accumulation)
// A and B are row-major int8 or uint8; zero points are per row of A / per column of B, or one
// value for all (`*_zero.size() == 1`). The product runs on the microkernels of
// qgemm_kernels.inc; C wraps modulo 2^32 where the exact sum leaves int32, as ORT's does.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <span>
#include <vector>

#include "lib/framework/op_kernel.h"
#include "lib/threading/thread_pool.h"
#include "providers/cpu/kernels/common/qgemm_kernel.h"
#include "providers/cpu/kernels/common/weight_buffer.h"

namespace ort {

/// B packed in a kernel's layout with the sums QGemm needs, wherever its bytes live.
struct QgemmPackedBView {
  const QgemmKernel* kernel = nullptr;
  int64_t k = 0;
  int64_t n = 0;
  /// Depth blocks of groups follow each other; see PackedQgemmB.
  const uint8_t* data = nullptr;
  /// Per column: the sum over the depth of B as the kernel multiplies it (B - 128 for uint8).
  const int32_t* column_sums = nullptr;
  /// Per column: the zero point of B as the kernel sees it, or null when all are zero.
  const int32_t* zero_points = nullptr;
};

/// B (k x n) packed once, for a constant operand such as a weight matrix.
class PackedQgemmB {
 public:
  /// Packs B, stored row-major with leading dimension ldb (or, when `transposed`, as its
  /// transpose: n rows of k, ldb apart, as a weight matrix of filters), and its zero points for
  /// `kernel`.
  template <typename TB>
  PackedQgemmB(const QgemmKernel& kernel, int64_t k, int64_t n, const TB* b, int64_t ldb,
               std::span<const int32_t> b_zero, bool transposed = false);

  const QgemmPackedBView& view() const { return view_; }

 private:
  WeightBuffer storage_;
  std::vector<int32_t> sums_and_zero_points_;
  QgemmPackedBView view_;
};

/// Input `b_index` of the kernel being created packed for BestQgemmKernelFor(its shape), when it is
/// a constant, non-empty, 2-D 8-bit matrix and its zero point (input `zero_index`) is absent or a
/// constant of its type holding 1 or n values; null otherwise (the kernel then packs per call).
/// A `transposed` matrix is stored [n, k] (Gemm's transB).
std::unique_ptr<PackedQgemmB> PackConstantQgemmB(const KernelInfo& info, size_t b_index,
                                                 size_t zero_index, bool transposed = false);

/// What a caller does with each finished block of C while it is still in cache (requantizing it,
/// say): called once per block, on the thread that computed it, with the block's first row and
/// column, its size and its place in C.
using QgemmBlockDone = std::function<void(int64_t row0, int64_t rows, int64_t col0, int64_t cols,
                                          int32_t* c_block, int64_t ldc)>;

/// C = (A - a_zero) x B with B packed; A is m x k (k = b.k), row-major with leading dimension lda.
/// `done`, when given, sees every block of C once it holds its final values. With `c` null
/// (and `done` given) no C is kept: each block lives in its thread's scratch while `done` runs,
/// so a product that is only requantized never streams through memory at four bytes a value.
template <typename TA>
void QGemmPacked(int64_t m, const TA* a, int64_t lda, std::span<const int32_t> a_zero,
                 const QgemmPackedBView& b, int32_t* c, int64_t ldc, ThreadPool* pool,
                 const QgemmBlockDone& done = nullptr);

/// Where QGemmPackedRequantized puts the product: C[i, j] + bias[j] (when not null) times
/// multipliers[j], rounded half to even, plus zero_point, saturated to int8 (`is_signed`) or
/// uint8 at out[i * ldo + j], as RequantizeRow computes it.
struct QgemmRequantizedOutput {
  const int32_t* bias = nullptr;
  const float* multipliers = nullptr;
  int32_t zero_point = 0;
  bool is_signed = false;
  void* out = nullptr;
  int64_t ldo = 0;
};

/// QGemmPacked straight to 8 bits: kernels that requantize (qgemm_kernels.inc) do it from their
/// registers, the others' blocks are requantized while in cache; no int32 C is kept.
template <typename TA>
void QGemmPackedRequantized(int64_t m, const TA* a, int64_t lda, std::span<const int32_t> a_zero,
                            const QgemmPackedBView& b, const QgemmRequantizedOutput& output,
                            ThreadPool* pool);

/// The product as above, packing B on the calling thread for BestQgemmKernelFor(k, n).
template <typename TA, typename TB>
void QGemm(int64_t m, int64_t n, int64_t k, const TA* a, int64_t lda,
           std::span<const int32_t> a_zero, const TB* b, int64_t ldb,
           std::span<const int32_t> b_zero, int32_t* c, int64_t ldc, ThreadPool* pool);

/// QGemm through the given kernel, which the CPU must run; for tests and benchmarks.
template <typename TA, typename TB>
void QGemmWithKernel(const QgemmKernel& kernel, int64_t m, int64_t n, int64_t k, const TA* a,
                     int64_t lda, std::span<const int32_t> a_zero, const TB* b, int64_t ldb,
                     std::span<const int32_t> b_zero, int32_t* c, int64_t ldc, ThreadPool* pool);

/// A requantization factor (a ratio of scales) as the 8-bit kernels apply it: zero when subnormal.
/// That changes no 8-bit output, since its products (below 2^-95 in magnitude for any int32 sum)
/// round to the zero point either way, but subnormal arithmetic takes microcode assists: BERT's
/// attention mask, quantized with a scale of 1e36, made its QLinearAdd 12 times slower.
inline float RequantizationFactor(float factor) {
  return std::fabs(factor) < std::numeric_limits<float>::min() ? 0.0f : factor;
}

/// out[j] = round_half_even(in[j] * multipliers[j]) + zero_point saturated to Q, with one
/// multiplier for all when `per_column` is false. Rounds by adding 1.5 x 2^23, which in float
/// leaves the integer nearest to a value below 2^22 (the clamp first bounds it), ties to even,
/// as ORT's requantization under the default rounding mode; a NaN becomes Q's minimum.
template <typename Q>
void RequantizeRow(const int32_t* in, int64_t count, const float* multipliers, bool per_column,
                   int32_t zero_point, Q* out) {
  constexpr float kRound = 12582912.0f;
  const float low = static_cast<float>(std::numeric_limits<Q>::min() - zero_point);
  const float high = static_cast<float>(std::numeric_limits<Q>::max() - zero_point);
  for (int64_t j = 0; j < count; ++j) {
    float value = static_cast<float>(in[j]) * multipliers[per_column ? j : 0];
    value = value > low ? value : low;
    value = value < high ? value : high;
    out[j] = static_cast<Q>(static_cast<int32_t>((value + kRound) - kRound) + zero_point);
  }
}

}  // namespace ort
