// Strided access to a GEMM operand, transposed or not; shared by the GEMM files (gemm.h).
#pragma once

#include <cstdint>

namespace ort::gemm_detail {

/// Element (i, p) of op(A) and (p, j) of op(B), whatever the transposition.
template <typename T>
struct MatrixView {
  const T* data;
  int64_t row_stride;
  int64_t col_stride;
  T At(int64_t row, int64_t col) const { return data[row * row_stride + col * col_stride]; }
};

template <typename T>
MatrixView<T> MakeView(const T* data, int64_t ld, bool transposed) {
  return transposed ? MatrixView<T>{data, 1, ld} : MatrixView<T>{data, ld, 1};
}

}  // namespace ort::gemm_detail
