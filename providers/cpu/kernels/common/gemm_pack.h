// Packing of GEMM operands into the panels the microkernels read (gemm_driver.h): op(A) into
// panels of mr rows stored column by column, op(B) into panels of nr columns stored row by row.
#pragma once

#include <algorithm>
#include <cstdint>

#include "providers/cpu/kernels/common/gemm_view.h"
#include "providers/cpu/kernels/common/transpose_floats.h"

namespace ort::gemm_detail {

// Each packed panel starts on a cache line.
constexpr int64_t kPanelAlign = 64;

/// `storage` rounded up to the next multiple of kPanelAlign bytes; storage must hold
/// kPanelAlign / sizeof(T) elements more than the panels need.
template <typename T>
T* AlignToPanel(T* storage) {
  auto address = reinterpret_cast<uintptr_t>(storage);
  address = (address + kPanelAlign - 1) & ~static_cast<uintptr_t>(kPanelAlign - 1);
  return reinterpret_cast<T*>(address);
}

/// `valid` rows of `source` (`stride` apart, `depth` values each) as the first columns of a panel
/// of `nr` stored row by row, transposed in register tiles: scattering one value at a time,
/// packing R(2+1)D's 91 MB of 3-D conv weights took 100 ms of session creation, and packing a
/// row-major A of Swin's K = 96 GEMMs an eighth of their time. False (nothing written) for other
/// types.
inline bool TransposeIntoPanel(const float* source, int64_t stride, float* panel, int64_t nr,
                               int64_t valid, int64_t depth) {
  TransposeFloats(source, stride, panel, nr, valid, depth);
  return true;
}
template <typename T>
bool TransposeIntoPanel(const T*, int64_t, T*, int64_t, int64_t, int64_t) {
  return false;
}

/// Packs rows [row0, row0 + rows) x columns [col0, col0 + depth) of op(A), scaled by alpha, into
/// panels of mr rows stored column by column; rows past the end are zero.
template <typename T>
void PackA(const MatrixView<T>& a, int64_t mr, int64_t row0, int64_t rows, int64_t col0,
           int64_t depth, T alpha, T* packed) {
  for (int64_t r = 0; r < rows; r += mr) {
    const int64_t valid = std::min(mr, rows - r);
    T* panel = packed + r * depth;
    const T* source = a.data + (row0 + r) * a.row_stride + col0 * a.col_stride;
    if (a.col_stride == 1 && TransposeIntoPanel(source, a.row_stride, panel, mr, valid, depth)) {
      if (valid == mr && alpha == T(1)) continue;
      for (int64_t p = 0; p < depth; ++p) {
        T* out = panel + p * mr;
        if (alpha != T(1)) {
          for (int64_t i = 0; i < valid; ++i) out[i] *= alpha;
        }
        for (int64_t i = valid; i < mr; ++i) out[i] = T(0);
      }
      continue;
    }
    for (int64_t p = 0; p < depth; ++p) {
      const T* column = source + p * a.col_stride;
      T* out = panel + p * mr;
      for (int64_t i = 0; i < valid; ++i) out[i] = alpha * column[i * a.row_stride];
      for (int64_t i = valid; i < mr; ++i) out[i] = T(0);
    }
  }
}

/// Packs rows [row0, row0 + depth) x columns [col0, col0 + cols) of op(B) into panels of nr
/// columns stored row by row; columns past the end are zero.
template <typename T>
void PackB(const MatrixView<T>& b, int64_t nr, int64_t row0, int64_t depth, int64_t col0,
           int64_t cols, T* packed) {
  for (int64_t c = 0; c < cols; c += nr) {
    const int64_t valid = std::min(nr, cols - c);
    T* panel = packed + c * depth;
    const T* source = b.data + row0 * b.row_stride + (col0 + c) * b.col_stride;
    if (valid == nr && b.col_stride == 1) {
      for (int64_t p = 0; p < depth; ++p) {
        std::copy_n(source + p * b.row_stride, nr, panel + p * nr);
      }
    } else if (b.row_stride == 1 &&
               TransposeIntoPanel(source, b.col_stride, panel, nr, valid, depth)) {
      for (int64_t p = 0; p < depth; ++p) {
        for (int64_t j = valid; j < nr; ++j) panel[p * nr + j] = T(0);
      }
    } else {
      // Walk each source column along its contiguous direction (transposed B) and scatter into
      // the panel, which is small enough to stay in L1.
      for (int64_t j = 0; j < valid; ++j) {
        const T* column = source + j * b.col_stride;
        for (int64_t p = 0; p < depth; ++p) panel[p * nr + j] = column[p * b.row_stride];
      }
      for (int64_t p = 0; p < depth; ++p) {
        for (int64_t j = valid; j < nr; ++j) panel[p * nr + j] = T(0);
      }
    }
  }
}

}  // namespace ort::gemm_detail
