// The byte transpose against its definition, over sizes with and without whole 16x16 tiles and
// strides wider than the matrix (the vector path runs unless ORT_CPU_ISA=portable).
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "providers/cpu/kernels/common/transpose_bytes.h"

namespace ort::test {

TEST_CASE("TransposeBytes matches dst[j][i] = src[i][j]", "[transpose]") {
  for (const int64_t rows : {1, 15, 16, 17, 33, 64}) {
    for (const int64_t cols : {1, 7, 16, 31, 48, 50}) {
      const int64_t src_stride = cols + 3, dst_stride = rows + 5;
      std::vector<uint8_t> src(static_cast<size_t>(rows * src_stride));
      for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<uint8_t>(i * 37 + 11);
      std::vector<uint8_t> dst(static_cast<size_t>(cols * dst_stride), 0xA5);
      TransposeBytes(src.data(), src_stride, dst.data(), dst_stride, rows, cols);
      int64_t wrong = 0;
      for (int64_t j = 0; j < cols; ++j) {
        for (int64_t i = 0; i < dst_stride; ++i) {
          const uint8_t want = i < rows ? src[i * src_stride + j] : 0xA5;
          wrong += dst[j * dst_stride + i] != want;
        }
      }
      INFO("rows " << rows << " cols " << cols);
      CHECK(wrong == 0);
    }
  }
}

}  // namespace ort::test
