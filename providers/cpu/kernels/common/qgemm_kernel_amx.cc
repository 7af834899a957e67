// 8-bit GEMM microkernel on AMX tiles: 32 rows x 32 columns of C in four 16 x 16 int32 tiles.
// Each 16-group step (64 bytes of depth) loads two A tiles (16 rows x 64 bytes, straight from
// the packed rows) and two B tiles (16 groups x 16 columns x 4 bytes: the packed panel rows as
// they are, which is the layout TDPBUSD takes) for four TDPBUSD of 16 x 16 x 64 products. The
// tiles go through a local buffer to C, where the vector code adds the column offsets or the
// earlier depth blocks.
#include <immintrin.h>

#include <algorithm>
#include <cstdint>

#include "providers/cpu/kernels/common/qgemm_kernel.h"

#if defined(__clang__)
#pragma clang attribute push(                                                        \
    __attribute__((target("amx-tile,amx-int8,avx512f,avx512bw,avx512vl,avx2,fma"))), \
    apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("amx-tile,amx-int8,avx512f,avx512bw,avx512vl,avx2,fma")
#endif

namespace ort {
namespace {

constexpr const QgemmKernel& kKernel = QgemmKernelOf("qgemm_u8s8_32x64_amx");
constexpr int64_t kTileRows = 16;
constexpr int64_t kTileBytes = 64;
constexpr int64_t kTileGroups = kTileBytes / kQgemmGroupBytes;
constexpr int64_t kBlockRows = 2 * kTileRows;
constexpr int64_t kBlockColumns = 2 * kTileRows;
static_assert(kKernel.mr == kBlockRows && kKernel.nr % kBlockColumns == 0);

// The tile palette: tiles 0-3 accumulate C, 4-5 hold A, 6-7 hold B; each 16 rows of 64 bytes.
struct alignas(64) TileConfig {
  uint8_t palette = 1;
  uint8_t start_row = 0;
  uint8_t reserved[14] = {};
  uint16_t row_bytes[16] = {};
  uint8_t rows[16] = {};
};

TileConfig MakeConfig() {
  TileConfig config;
  for (int t = 0; t < 8; ++t) {
    config.row_bytes[t] = kTileBytes;
    config.rows[t] = kTileRows;
  }
  return config;
}

// C[rows, cols] from the 32 x 32 `sums` (row stride kBlockColumns), with the offsets or C's
// earlier contents added.
void StoreBlock(const int32_t* sums, int64_t rows, int64_t cols, bool first,
                const int32_t* column_offsets, int32_t* c, int64_t ldc) {
  for (int64_t v = 0; v * 16 < cols; ++v) {
    const int64_t left = cols - 16 * v;
    const __mmask16 mask = left >= 16 ? 0xFFFF : (1u << left) - 1;
    const __m512i offsets = first && column_offsets != nullptr
                                ? _mm512_maskz_loadu_epi32(mask, column_offsets + 16 * v)
                                : _mm512_setzero_si512();
    for (int64_t r = 0; r < rows; ++r) {
      int32_t* out = c + r * ldc + 16 * v;
      const __m512i prior = first ? offsets : _mm512_maskz_loadu_epi32(mask, out);
      const __m512i sum = _mm512_loadu_si512(sums + r * kBlockColumns + 16 * v);
      _mm512_mask_storeu_epi32(out, mask, _mm512_add_epi32(sum, prior));
    }
  }
}

}  // namespace

// Rows past `rows` (up to the next multiple of 32) are read from `a` and their results dropped:
// QGemm's packed A holds whole blocks. Columns past `cols` are never read from `b`.
void qgemm_u8s8_32x64_amx(int64_t rows, int64_t cols, int64_t groups, const uint8_t* a,
                          int64_t a_stride, const uint8_t* b, int64_t b_panel_stride, bool first,
                          const int32_t* column_offsets, int32_t* c, int64_t ldc,
                          const QgemmRequantization* /*requantization: never given, as the kernel
                                                       does not requantize*/) {
  static const TileConfig config = MakeConfig();
  _tile_loadconfig(&config);
  alignas(64) int32_t sums[kBlockRows * kBlockColumns];
  for (int64_t col0 = 0; col0 < cols; col0 += kKernel.nr) {
    const int64_t panel_cols = std::min<int64_t>(kKernel.nr, cols - col0);
    const int64_t width = (panel_cols + 15) / 16 * 16;
    const int64_t b_row = width * kQgemmGroupBytes;
    for (int64_t half = 0; half * kBlockColumns < panel_cols; ++half) {
      const int64_t block_cols = std::min(kBlockColumns, panel_cols - half * kBlockColumns);
      const bool two_b = block_cols > 16;
      const uint8_t* b_half = b + half * kBlockColumns * kQgemmGroupBytes;
      for (int64_t row0 = 0; row0 < rows; row0 += kBlockRows) {
        const int64_t block_rows = std::min(kBlockRows, rows - row0);
        const bool two_a = block_rows > kTileRows;
        const uint8_t* a_block = a + row0 * a_stride;
        _tile_zero(0);
        _tile_zero(1);
        _tile_zero(2);
        _tile_zero(3);
        for (int64_t g = 0; g < groups; g += kTileGroups) {
          _tile_loadd(4, a_block + g * kQgemmGroupBytes, a_stride);
          _tile_loadd(6, b_half + g * b_row, b_row);
          _tile_dpbusd(0, 4, 6);
          if (two_b) {
            _tile_loadd(7, b_half + g * b_row + 16 * kQgemmGroupBytes, b_row);
            _tile_dpbusd(1, 4, 7);
          }
          if (two_a) {
            _tile_loadd(5, a_block + kTileRows * a_stride + g * kQgemmGroupBytes, a_stride);
            _tile_dpbusd(2, 5, 6);
            if (two_b) _tile_dpbusd(3, 5, 7);
          }
        }
        constexpr int64_t kStride = kBlockColumns * sizeof(int32_t);
        _tile_stored(0, sums, kStride);
        _tile_stored(1, sums + 16, kStride);
        _tile_stored(2, sums + kTileRows * kBlockColumns, kStride);
        _tile_stored(3, sums + kTileRows * kBlockColumns + 16, kStride);
        const int64_t offset_col = col0 + half * kBlockColumns;
        StoreBlock(sums, block_rows, block_cols, first,
                   column_offsets != nullptr ? column_offsets + offset_col : nullptr,
                   c + row0 * ldc + offset_col, ldc);
      }
    }
    b += b_panel_stride;
  }
  _tile_release();
}

}  // namespace ort

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
