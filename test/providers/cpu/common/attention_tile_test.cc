// Every instruction set's attention tile kernels this CPU can run against the products summed in
// double: every operand width the kernels take, row counts that leave each tail of row tiles,
// and row strides wider than the rows.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <vector>

#include "providers/cpu/kernels/common/attention_tile.h"
#include "providers/cpu/kernels/common/isa_dispatch.h"

namespace ort::test {
namespace {

std::vector<float> Random(size_t count, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> values(-1.0f, 1.0f);
  std::vector<float> out(count);
  for (float& v : out) v = values(rng);
  return out;
}

void CheckNear(float got, double want, double magnitude) {
  INFO("got " << got << ", want " << want);
  CHECK(std::abs(static_cast<double>(got) - want) <= 1e-5 * (1.0 + magnitude));
}

TEST_CASE("attention tile kernels compute scale Q K^T and P V", "[attention]") {
  for (const auto* entry : RunnableEntries(kAttentionTileKernels)) {
    const AttentionTileKernel& kernel = *entry->kernel;
    for (int64_t vectors = 1; vectors <= kAttentionTileMaxVectors; ++vectors) {
      const int64_t width = vectors * kernel.block;
      for (const int64_t rows : {int64_t{1}, int64_t{3}, int64_t{5}, int64_t{9}}) {
        INFO(entry->name << " width " << width << " rows " << rows);
        const int64_t depth = 7, q_stride = 9, keys = width - 3, v_stride = width + 5;
        const int64_t p_stride = keys + 2, out_stride = width + 1;
        const auto q = Random(static_cast<size_t>(rows * q_stride), 1);
        const auto kt = Random(static_cast<size_t>(depth * width), 2);
        std::vector<float> scores(static_cast<size_t>(rows * width));
        kernel.scores(q.data(), q_stride, rows, depth, kt.data(), width, 0.5f, scores.data());
        for (int64_t r = 0; r < rows; ++r) {
          for (int64_t t = 0; t < width; ++t) {
            double sum = 0.0, magnitude = 0.0;
            for (int64_t d = 0; d < depth; ++d) {
              const double product = static_cast<double>(q[r * q_stride + d]) * kt[d * width + t];
              sum += product;
              magnitude += std::abs(product);
            }
            CheckNear(scores[r * width + t], 0.5 * sum, magnitude);
          }
        }
        const auto p = Random(static_cast<size_t>(rows * p_stride), 3);
        const auto v = Random(static_cast<size_t>(keys * v_stride), 4);
        std::vector<float> out(static_cast<size_t>(rows * out_stride), 7.0f);
        kernel.context(p.data(), p_stride, rows, keys, v.data(), v_stride, width, out.data(),
                       out_stride);
        for (int64_t r = 0; r < rows; ++r) {
          for (int64_t h = 0; h < width; ++h) {
            double sum = 0.0, magnitude = 0.0;
            for (int64_t t = 0; t < keys; ++t) {
              const double product = static_cast<double>(p[r * p_stride + t]) * v[t * v_stride + h];
              sum += product;
              magnitude += std::abs(product);
            }
            CheckNear(out[r * out_stride + h], sum, magnitude);
          }
          // The kernels write whole rows of `width` and nothing past them.
          CHECK(out[r * out_stride + width] == 7.0f);
        }
      }
    }
  }
}

}  // namespace
}  // namespace ort::test
