// CompareValues: tolerances, mismatch counts and cosine similarity on hand-worked tensors.
#include <catch2/catch.hpp>

#include "lib/io/compare.h"

namespace ort {
namespace {

Value Floats(std::vector<float> values) {
  const int64_t count = static_cast<int64_t>(values.size());
  return Value(Tensor::FromVector<float>(TensorShape({count}), values));
}

}  // namespace

TEST_CASE("CompareValues counts mismatches and measures cosine similarity", "[io][compare]") {
  // Parallel vectors: cosine 1 though every element differs; |x - y| = 1, 2, 3.
  const Comparison parallel =
      CompareValues(Floats({2, 4, 6}), Floats({1, 2, 3}), Tolerance{1e-3, 1e-5});
  CHECK_FALSE(parallel.match);
  CHECK(parallel.mismatches == 3);
  CHECK(parallel.max_abs_diff == 3.0);
  CHECK(parallel.max_rel_diff == 1.0);
  CHECK(parallel.cosine == Approx(1.0));
  // Orthogonal: cosine 0. (1, 1) against (1, -1): within atol 2.5 both.
  const Comparison orthogonal = CompareValues(Floats({1, 1}), Floats({1, -1}), Tolerance{0, 2.5});
  CHECK(orthogonal.match);
  CHECK(orthogonal.cosine == Approx(0.0).margin(1e-12));
  // (3, 4) against (4, 3): 24 / 25.
  CHECK(CompareValues(Floats({3, 4}), Floats({4, 3}), Tolerance{}).cosine == Approx(0.96));
  // All zeros on both sides: equal, cosine 1; zeros against values: cosine 0.
  CHECK(CompareValues(Floats({0, 0}), Floats({0, 0}), Tolerance{}).cosine == 1.0);
  CHECK(CompareValues(Floats({0, 0}), Floats({1, 0}), Tolerance{}).cosine == 0.0);
  // Another shape: no match and no similarity.
  const Comparison shapes = CompareValues(Floats({1, 2}), Floats({1, 2, 3}), Tolerance{});
  CHECK_FALSE(shapes.match);
  CHECK(shapes.cosine == 0.0);
}

}  // namespace ort
