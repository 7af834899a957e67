// Double-precision GEMM (Dgemm, gemm.h): the shared driver (gemm_driver.h) around a portable
// register tile that the compiler vectorizes.
#include <algorithm>
#include <cstdint>

#include "providers/cpu/kernels/common/gemm.h"
#include "providers/cpu/kernels/common/gemm_driver.h"

namespace ort {
namespace {

using gemm_detail::Gemm;
using gemm_detail::GemmPlan;
using gemm_detail::MakeView;
using gemm_detail::OperandB;

constexpr int64_t kDgemmMr = 4;
constexpr int64_t kDgemmNr = 8;

/// The double-precision register tile: acc[Mr][Nr] = sum over depth of an A panel column times
/// a B panel row. Fixed trip counts and the B row copied to a local let the compiler keep `acc`
/// in vector registers.
inline void DgemmMicroKernel(int64_t depth, const double* __restrict a, const double* __restrict b,
                             double (&acc)[kDgemmMr][kDgemmNr]) {
  for (int64_t i = 0; i < kDgemmMr; ++i) {
    for (int64_t j = 0; j < kDgemmNr; ++j) acc[i][j] = 0.0;
  }
  for (int64_t p = 0; p < depth; ++p) {
    double row[kDgemmNr];
    for (int64_t j = 0; j < kDgemmNr; ++j) row[j] = b[j];
    for (int64_t i = 0; i < kDgemmMr; ++i) {
      const double value = a[i];
      for (int64_t j = 0; j < kDgemmNr; ++j) acc[i][j] += value * row[j];
    }
    a += kDgemmMr;
    b += kDgemmNr;
  }
}

/// The double-precision BlockFn (the contract of SgemmBlockFn, sgemm_kernel.h) for packed A
/// only: its plan does not ask for A in place, so lda is always 0.
void DgemmBlock(int64_t rows, int64_t cols, int64_t depth, const double* packed_a, int64_t,
                const double* packed_b, double beta, bool first, double* c, int64_t ldc) {
  for (int64_t j = 0; j < cols; j += kDgemmNr) {
    const int64_t tile_cols = std::min(kDgemmNr, cols - j);
    for (int64_t i = 0; i < rows; i += kDgemmMr) {
      double acc[kDgemmMr][kDgemmNr];
      DgemmMicroKernel(depth, packed_a + i * depth, packed_b + j * depth, acc);
      const int64_t tile_rows = std::min(kDgemmMr, rows - i);
      for (int64_t r = 0; r < tile_rows; ++r) {
        double* out = c + (i + r) * ldc + j;
        if (!first || beta == 1.0) {
          for (int64_t q = 0; q < tile_cols; ++q) out[q] += acc[r][q];
        } else if (beta == 0.0) {
          for (int64_t q = 0; q < tile_cols; ++q) out[q] = acc[r][q];
        } else {
          for (int64_t q = 0; q < tile_cols; ++q) out[q] = acc[r][q] + beta * out[q];
        }
      }
    }
  }
}

constexpr GemmPlan<double> kDgemmPlan{kDgemmMr, kDgemmNr, 256, 64, 256, false, DgemmBlock};

}  // namespace

void Dgemm(bool transpose_a, bool transpose_b, int64_t m, int64_t n, int64_t k, double alpha,
           const double* a, int64_t lda, const double* b, int64_t ldb, double beta, double* c,
           int64_t ldc, ThreadPool* pool) {
  Gemm<double>(kDgemmPlan, transpose_a, m, n, k, alpha, a, lda,
               OperandB<double>{MakeView(b, ldb, transpose_b)}, beta, c, ldc, pool);
}

}  // namespace ort
