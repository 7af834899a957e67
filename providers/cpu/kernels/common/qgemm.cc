#include "providers/cpu/kernels/common/qgemm.h"

#include <vector>

namespace ort {
namespace {

// Columns of C per block: the int16 block of B (k x kBlockN) is reused by every row of A.
constexpr int64_t kBlockN = 256;
constexpr int64_t kBlockM = 16;

}  // namespace

template <typename TA, typename TB>
void QGemm(int64_t m, int64_t n, int64_t k, const TA* a, int64_t lda,
           std::span<const int32_t> a_zero, const TB* b, int64_t ldb,
           std::span<const int32_t> b_zero, int32_t* c, int64_t ldc, ThreadPool* pool) {
  if (m <= 0 || n <= 0) return;
  const int64_t col_blocks = (n + kBlockN - 1) / kBlockN;
  const int64_t row_blocks = (m + kBlockM - 1) / kBlockM;
  const double cost = 2.0 * static_cast<double>(std::min(m, kBlockM) * std::min(n, kBlockN) * k);
  ThreadPool::TryParallelFor(pool, row_blocks * col_blocks, cost, [&](int64_t begin, int64_t end) {
    // Offsets fit int16 (|x - zero| <= 255), so the products widen cheaply to int32.
    std::vector<int16_t> b_block(static_cast<size_t>(k * kBlockN));
    std::vector<int16_t> a_row(static_cast<size_t>(k));
    std::vector<int32_t> sums(kBlockN);
    int64_t packed_block = -1;
    for (int64_t block = begin; block < end; ++block) {
      const int64_t col_block = block % col_blocks;
      const int64_t row0 = (block / col_blocks) * kBlockM;
      const int64_t col0 = col_block * kBlockN;
      const int64_t cols = std::min(kBlockN, n - col0);
      if (packed_block != col_block) {
        for (int64_t p = 0; p < k; ++p) {
          for (int64_t j = 0; j < cols; ++j) {
            const int32_t zero = b_zero.size() == 1 ? b_zero[0] : b_zero[col0 + j];
            b_block[p * cols + j] = static_cast<int16_t>(b[p * ldb + col0 + j] - zero);
          }
        }
        packed_block = col_block;
      }
      for (int64_t i = row0; i < std::min(m, row0 + kBlockM); ++i) {
        const int32_t zero = a_zero.size() == 1 ? a_zero[0] : a_zero[i];
        for (int64_t p = 0; p < k; ++p) a_row[p] = static_cast<int16_t>(a[i * lda + p] - zero);
        std::fill(sums.begin(), sums.begin() + cols, 0);
        int32_t* __restrict acc = sums.data();
        for (int64_t p = 0; p < k; ++p) {
          const int32_t value = a_row[p];
          if (value == 0) continue;
          const int16_t* __restrict row = b_block.data() + p * cols;
          for (int64_t j = 0; j < cols; ++j) acc[j] += value * row[j];
        }
        std::copy(sums.begin(), sums.begin() + cols, c + i * ldc + col0);
      }
    }
  });
}

template void QGemm<uint8_t, uint8_t>(int64_t, int64_t, int64_t, const uint8_t*, int64_t,
                                      std::span<const int32_t>, const uint8_t*, int64_t,
                                      std::span<const int32_t>, int32_t*, int64_t, ThreadPool*);
template void QGemm<uint8_t, int8_t>(int64_t, int64_t, int64_t, const uint8_t*, int64_t,
                                     std::span<const int32_t>, const int8_t*, int64_t,
                                     std::span<const int32_t>, int32_t*, int64_t, ThreadPool*);
template void QGemm<int8_t, uint8_t>(int64_t, int64_t, int64_t, const int8_t*, int64_t,
                                     std::span<const int32_t>, const uint8_t*, int64_t,
                                     std::span<const int32_t>, int32_t*, int64_t, ThreadPool*);
template void QGemm<int8_t, int8_t>(int64_t, int64_t, int64_t, const int8_t*, int64_t,
                                    std::span<const int32_t>, const int8_t*, int64_t,
                                    std::span<const int32_t>, int32_t*, int64_t, ThreadPool*);

}  // namespace ort
