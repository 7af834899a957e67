#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

// Expected values come from the numpy formulas of each op (population variance).
namespace ort::test {

namespace {

// Tensors several cases share, named by role and shape.
const std::vector<float> kX1x5x2x2 = {-0.625f, 0.875f, -1.75f,  1.5f,    1.5f,  1.875f, -1.5f,
                                      -1.5f,   1.625f, -0.375f, -0.875f, -0.5f, 0.625f, -1.375f,
                                      -0.0f,   0.625f, 0.875f,  -2.0f,   1.25f, -0.25f};

}  // namespace

TEST_CASE("LRN sums squares over neighbouring channels", "[nn][LRN]") {
  OpTester("LRN", 13)
      .AttrInt("size", 3)
      .AttrFloat("alpha", 0.5f)
      .AttrFloat("beta", 0.75f)
      .AttrFloat("bias", 2.0f)
      .Input<float>("x", {1, 5, 2, 2}, kX1x5x2x2)
      .Output<float>("y", {1, 5, 2, 2},
                     {-0.32012805f, 0.41386211f,  -0.79046321f, 0.70241171f,  0.67845857f,
                      0.88114554f,  -0.65590304f, -0.69453412f, 0.7349968f,   -0.16768526f,
                      -0.43975818f, -0.25287083f, 0.30238837f,  -0.60241634f, -0.0f,
                      0.35609061f,  0.48559299f,  -0.88140255f, 0.67806077f,  -0.14457549f})
      .Run();
  OpTester("LRN", 1)
      .AttrInt("size", 4)
      .AttrFloat("alpha", 0.25f)
      .Input<float>("x", {1, 5, 2, 2}, kX1x5x2x2)
      .Output<float>("y", {1, 5, 2, 2},
                     {-0.50462896f, 0.72866237f, -1.3745369f, 1.2342913f,  1.1947f,
                      1.4611005f,   -1.1781745f, -1.2171465f, 1.2777123f,  -0.26400849f,
                      -0.72450882f, -0.4403514f, 0.53274888f, -1.0817162f, -0.0f,
                      0.60516208f,  0.83038837f, -1.5809799f, 1.1656288f,  -0.2448182f})
      .Run();
}

}  // namespace ort::test
