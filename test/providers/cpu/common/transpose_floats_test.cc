// TransposeFloats on every usable path against an index-by-index transpose: sizes around the
// 8x8 tiles, both sweep orders (more rows than columns and the reverse), padded strides.
#include <catch2/catch.hpp>

#include <vector>

#include "lib/common/cpu_info.h"
#include "providers/cpu/kernels/common/transpose_floats.h"

namespace ort::test {
namespace {

using TransposeFn = void (*)(const float*, int64_t, float*, int64_t, int64_t, int64_t);

void Check(TransposeFn transpose, int64_t rows, int64_t cols) {
  const int64_t src_stride = cols + 3, dst_stride = rows + 5;
  std::vector<float> src(static_cast<size_t>(rows * src_stride));
  for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<float>(i);
  std::vector<float> dst(static_cast<size_t>(cols * dst_stride), -1.0f);
  transpose(src.data(), src_stride, dst.data(), dst_stride, rows, cols);
  for (int64_t j = 0; j < cols; ++j) {
    for (int64_t i = 0; i < dst_stride; ++i) {
      INFO("rows " << rows << " cols " << cols << " at " << j << ", " << i);
      const float expected = i < rows ? src[static_cast<size_t>(i * src_stride + j)] : -1.0f;
      REQUIRE(dst[static_cast<size_t>(j * dst_stride + i)] == expected);
    }
  }
}

TEST_CASE("TransposeFloats of every usable path matches an element-wise transpose",
          "[common][transpose]") {
  std::vector<TransposeFn> paths{TransposeFloatsPortable, TransposeFloats};
  const CpuFeatures& features = GetCpuFeatures();
  if (features.avx2 && features.fma) paths.push_back(TransposeFloatsAvx2);
  for (TransposeFn transpose : paths) {
    for (int64_t rows : {1, 7, 8, 16, 19}) {
      for (int64_t cols : {1, 8, 13, 16, 61}) Check(transpose, rows, cols);
    }
  }
}

}  // namespace
}  // namespace ort::test
