// Single-precision GEMM with op(B) packed once (PackedSgemmB, gemm.h): weights of MatMul, Gemm
// and Conv skip packing on every run.
#include <algorithm>
#include <cstdint>
#include <iterator>
#include <memory>
#include <utility>
#include <vector>

#include "providers/cpu/kernels/common/gemm.h"
#include "providers/cpu/kernels/common/gemm_pack.h"
#include "providers/cpu/kernels/common/sgemm_kernel.h"
#include "providers/cpu/kernels/common/sgemm_plan.h"
#include "providers/cpu/kernels/common/vectorize.h"

namespace ort {
namespace {

using gemm_detail::Gemm;
using gemm_detail::GemmPlan;
using gemm_detail::MakeView;
using gemm_detail::MatrixView;
using gemm_detail::OperandB;
using gemm_detail::PackB;
using gemm_detail::SgemmPlan;

/// out[0, nr) += a[0, depth) * one packed panel (depth x nr, row by row). With nr fixed at
/// compile time the sums stay in registers; even and odd depth steps use separate sums so that
/// consecutive multiply-adds do not wait for each other.
template <int kNr>
inline void PanelRow(int64_t depth, const MatrixView<float>& a, int64_t p0,
                     const float* __restrict panel, float* __restrict out) {
  float even[kNr] = {}, odd[kNr] = {};
  int64_t p = 0;
  for (; p + 2 <= depth; p += 2) {
    const float first = a.At(0, p0 + p), second = a.At(0, p0 + p + 1);
    for (int j = 0; j < kNr; ++j) even[j] += first * panel[p * kNr + j];
    for (int j = 0; j < kNr; ++j) odd[j] += second * panel[(p + 1) * kNr + j];
  }
  if (p < depth) {
    const float last = a.At(0, p0 + p);
    for (int j = 0; j < kNr; ++j) even[j] += last * panel[p * kNr + j];
  }
  for (int j = 0; j < kNr; ++j) out[j] += even[j] + odd[j];
}

void PanelRowAnyWidth(int64_t nr, int64_t depth, const MatrixView<float>& a, int64_t p0,
                      const float* __restrict panel, float* __restrict out) {
  for (int64_t p = 0; p < depth; ++p) {
    const float value = a.At(0, p0 + p);
    for (int64_t j = 0; j < nr; ++j) out[j] += value * panel[p * nr + j];
  }
}

/// PanelRow for the panel width of each vector kernel in sgemm_kernels.inc; other widths (the
/// portable kernel's) take PanelRowAnyWidth.
template <size_t... kIndex>
void PanelRowOfWidth(std::index_sequence<kIndex...>, int64_t nr, int64_t depth,
                     const MatrixView<float>& a, int64_t p0, const float* panel, float* out) {
  const bool fixed =
      ((kSgemmKernels[kIndex].isa != CpuIsa::kPortable && nr == kSgemmKernels[kIndex].nr &&
        (PanelRow<kSgemmKernels[kIndex].nr>(depth, a, p0, panel, out), true)) ||
       ...);
  if (!fixed) PanelRowAnyWidth(nr, depth, a, p0, panel, out);
}

/// C's single row (m == 1) from a pre-packed B: the panels are read once, in order, so the
/// product runs at memory speed without packing the vector.
void PackedRowProduct(const GemmPlan<float>& plan, int64_t k, int64_t n, float alpha,
                      const MatrixView<float>& a, const float* packed, int64_t packed_stride,
                      float beta, float* c, ThreadPool* pool) {
  const int64_t nr = plan.nr;
  const int64_t panels = (n + nr - 1) / nr;
  const double cost = 2.0 * static_cast<double>(k * nr);
  VectorizedParallelFor(pool, panels, cost, [&](int64_t begin, int64_t end) {
    std::vector<float> sums(static_cast<size_t>((end - begin) * nr), 0.0f);
    for (int64_t p0 = 0; p0 < k; p0 += plan.kc) {
      const int64_t depth = std::min(plan.kc, k - p0);
      for (int64_t panel = begin; panel < end; ++panel) {
        const float* source = packed + p0 * packed_stride + panel * nr * depth;
        float* out = sums.data() + (panel - begin) * nr;
        PanelRowOfWidth(std::make_index_sequence<std::size(kSgemmKernels)>(), nr, depth, a, p0,
                        source, out);
      }
    }
    const int64_t col_end = std::min(n, end * nr);
    for (int64_t j = begin * nr; j < col_end; ++j) {
      const float sum = alpha * sums[static_cast<size_t>(j - begin * nr)];
      c[j] = beta == 0.0f ? sum : sum + beta * c[j];
    }
  });
}

}  // namespace

PackedSgemmB::PackedSgemmB(const SgemmKernel& kernel, bool transpose_b, int64_t k, int64_t n,
                           const float* b, int64_t ldb)
    : kernel_(&kernel),
      k_(k),
      n_(n),
      padded_n_((n + kernel.nr - 1) / kernel.nr * kernel.nr),
      storage_(std::max<int64_t>(k, 1) * padded_n_) {
  const GemmPlan<float>& plan = SgemmPlan(kernel);
  float* packed = storage_.data();
  data_ = packed;
  const MatrixView<float> view = MakeView(b, ldb, transpose_b);
  for (int64_t p0 = 0; p0 < k; p0 += plan.kc) {
    PackB(view, plan.nr, p0, std::min(plan.kc, k - p0), 0, n, packed + p0 * padded_n_);
  }
}

PackedSgemmB::PackedSgemmB(bool transpose_b, int64_t k, int64_t n, const float* b, int64_t ldb)
    : PackedSgemmB(BestSgemmKernelFor(n), transpose_b, k, n, b, ldb) {}

std::unique_ptr<PackedSgemmB> PackConstantB(const KernelInfo& info, size_t index, bool transpose) {
  const Tensor* b = info.ConstantInput(index);
  if (b == nullptr || b->dtype() != DataType::kFloat || b->shape().rank() != 2 ||
      b->NumElements() == 0) {
    return nullptr;
  }
  const int64_t rows = b->shape()[0], cols = b->shape()[1];
  return std::make_unique<PackedSgemmB>(transpose, transpose ? cols : rows, transpose ? rows : cols,
                                        b->Data<float>(), cols);
}

void SgemmPackedB(bool transpose_a, int64_t m, float alpha, const float* a, int64_t lda,
                  const PackedSgemmB& b, float beta, float* c, int64_t ldc, ThreadPool* pool) {
  const GemmPlan<float>& plan = SgemmPlan(b.kernel());
  if (m == 1 && b.n() > 0 && b.k() > 0 && alpha != 0.0f) {
    PackedRowProduct(plan, b.k(), b.n(), alpha, MakeView(a, lda, transpose_a), b.data(),
                     b.padded_n(), beta, c, pool);
    return;
  }
  const OperandB<float> operand{MatrixView<float>{nullptr, 0, 0}, b.data(), b.padded_n()};
  Gemm<float>(plan, transpose_a, m, b.n(), b.k(), alpha, a, lda, operand, beta, c, ldc, pool);
}

}  // namespace ort
