#include <catch2/catch.hpp>

#include <vector>

#include "test/providers/cpu/op_tester.h"

// Expected values come from a direct numpy loop over output positions and kernel taps.
namespace ort::test {

namespace {

// Tensors several cases share, named by role and shape.
const std::vector<float> kX1x2x4x5 = {0.5f,   1.5f,   1.0f,   -1.0f,  -0.75f, 1.5f,   -2.0f, 1.25f,
                                      1.25f,  -0.25f, -0.75f, -1.0f,  -1.0f,  -0.25f, 0.0f,  0.25f,
                                      2.0f,   1.25f,  0.5f,   2.0f,   -1.25f, -1.25f, 0.5f,  -1.75f,
                                      -1.75f, 0.0f,   -0.25f, 1.75f,  0.5f,   0.0f,   -0.0f, -1.0f,
                                      -2.0f,  -1.25f, 0.75f,  -1.25f, -0.5f,  -2.0f,  1.25f, -1.5f};
const std::vector<float> kW3x2x3x3 = {
    -1.0f, 1.5f,   0.0f,   1.5f,   0.5f,   1.0f,  -1.75f, 0.25f,  0.0f,   1.5f,   -0.5f,
    0.5f,  -1.75f, -0.5f,  -0.75f, -1.5f,  1.25f, -0.5f,  2.0f,   0.25f,  0.5f,   0.5f,
    0.75f, -1.5f,  -0.25f, -1.0f,  -0.5f,  -1.5f, 1.75f,  -1.25f, 0.75f,  -0.75f, 1.5f,
    0.75f, -1.5f,  1.5f,   1.75f,  1.5f,   0.25f, -1.5f,  -1.25f, 1.75f,  0.25f,  -1.25f,
    1.5f,  0.5f,   0.25f,  -0.5f,  -0.25f, -1.0f, -1.75f, 1.5f,   -0.25f, 0.25f};
const std::vector<float> kX2x3x6x5 = {
    -1.75f, 1.5f,   0.25f,  -0.5f,  0.25f,  1.0f,   -0.5f,  1.25f,  1.75f,  -0.5f,  -1.5f,  1.0f,
    2.0f,   -1.5f,  0.75f,  1.25f,  1.75f,  -1.5f,  -1.75f, 2.0f,   -1.5f,  -1.25f, 0.25f,  -0.25f,
    1.0f,   -1.25f, 1.75f,  -1.25f, 1.0f,   -1.75f, -0.0f,  -1.75f, -0.75f, -0.75f, 1.0f,   -0.25f,
    -1.75f, 2.0f,   1.5f,   1.75f,  -1.0f,  -0.5f,  -1.0f,  -1.5f,  -1.75f, 0.0f,   -1.5f,  -1.25f,
    1.5f,   -0.0f,  -1.25f, 0.75f,  -1.0f,  0.0f,   -0.75f, 0.0f,   0.5f,   0.25f,  -0.5f,  1.25f,
    1.5f,   -1.25f, -1.5f,  -1.5f,  2.0f,   1.75f,  -1.0f,  2.0f,   -1.25f, 0.0f,   -0.0f,  1.75f,
    -1.75f, -0.75f, 0.5f,   -1.75f, -1.0f,  -0.25f, 1.5f,   1.0f,   1.25f,  1.0f,   0.75f,  1.5f,
    0.75f,  1.0f,   -0.75f, -1.25f, 1.0f,   -1.25f, 1.75f,  0.5f,   -0.75f, 1.75f,  -1.5f,  0.0f,
    -1.75f, 1.75f,  0.25f,  1.25f,  -0.75f, 1.25f,  0.75f,  0.5f,   1.75f,  -0.25f, -0.25f, 0.75f,
    1.25f,  -0.75f, 0.75f,  -1.25f, 0.25f,  1.0f,   -1.75f, 1.0f,   -2.0f,  1.75f,  -0.25f, -0.25f,
    1.0f,   0.0f,   1.0f,   -1.75f, 0.25f,  0.25f,  1.75f,  -1.75f, -0.25f, 0.5f,   0.25f,  -1.75f,
    0.25f,  -1.0f,  -1.25f, 1.5f,   -1.25f, -0.25f, 1.0f,   0.75f,  0.25f,  1.25f,  -0.25f, 0.5f,
    1.25f,  0.75f,  0.5f,   -0.5f,  0.25f,  -0.5f,  1.0f,   -0.5f,  -0.25f, 1.0f,   0.0f,   -0.75f,
    1.25f,  -0.5f,  1.5f,   1.25f,  -0.25f, 0.75f,  -1.75f, -0.5f,  1.5f,   0.25f,  0.25f,  0.75f,
    0.75f,  0.25f,  -0.25f, -1.25f, -0.75f, -0.75f, -0.25f, 2.0f,   -0.5f,  -0.25f, -0.5f,  0.25f};
const std::vector<float> kW6x1x3x3 = {
    1.75f,  1.5f,   -0.5f,  -1.0f,  1.5f,  -0.0f,  0.75f,  -1.75f, 1.5f,   -0.75f, -0.0f,
    -1.25f, -0.25f, 1.25f,  1.25f,  -0.0f, 1.0f,   -0.25f, -0.5f,  0.25f,  -1.25f, -0.75f,
    0.75f,  1.0f,   -1.75f, 1.0f,   1.25f, -0.25f, -1.75f, 0.75f,  -1.0f,  0.5f,   -0.5f,
    0.5f,   -1.0f,  -0.0f,  0.0f,   0.5f,  -1.25f, 1.75f,  -0.75f, -0.75f, -1.0f,  -1.75f,
    -0.25f, 1.0f,   0.75f,  -1.25f, -1.5f, -0.75f, 1.0f,   -0.0f,  1.75f,  0.75f};
const std::vector<float> kX2x3x2x3 = {
    -1.25f, -0.0f,  1.75f,  -1.75f, -1.25f, -0.0f,  0.0f,  1.0f,   -0.25f, -1.5f,  -0.5f,  2.0f,
    1.0f,   -1.5f,  1.25f,  -0.75f, 1.25f,  -2.0f,  1.5f,  -1.25f, -0.25f, 0.75f,  0.0f,   -1.25f,
    -1.5f,  -0.75f, -1.75f, -1.25f, -1.5f,  -0.25f, -0.5f, 0.25f,  -1.0f,  -1.75f, -0.75f, 1.0f};
const std::vector<float> kX1x1x5x4 = {-1.5f,  2.0f,  0.75f,  -1.5f, 1.5f, -1.5f,  -1.75f,
                                      -0.75f, 1.75f, -1.75f, 1.75f, 0.5f, -1.75f, 0.25f,
                                      -0.25f, 0.25f, 1.0f,   0.75f, 2.0f, -1.25f};
const std::vector<float> kW1x1x3x2 = {1.25f, -0.25f, 1.25f, 1.5f, 2.0f, -1.0f};

// The convolution by its definition, in double: y[n, f, o...] = b[f] + sum over the group's
// channels c and kernel taps k of x[n, c, o * stride - pad + k * dilation] * w[f, c, k], for any
// spatial rank (strides and dilations 1 unless given).
std::vector<float> ReferenceConv(const std::vector<float>& x, const std::vector<int64_t>& x_dims,
                                 const std::vector<float>& w, const std::vector<int64_t>& w_dims,
                                 const std::vector<float>& bias, int64_t group,
                                 const std::vector<int64_t>& strides,
                                 const std::vector<int64_t>& pads, std::vector<int64_t>* y_dims) {
  const size_t rank = x_dims.size() - 2;
  const int64_t batch = x_dims[0], channels = x_dims[1], filters = w_dims[0];
  const int64_t group_channels = channels / group, group_filters = filters / group;
  std::vector<int64_t> out(rank);
  *y_dims = {batch, filters};
  int64_t out_size = 1, in_size = 1, kernel_size = 1;
  for (size_t d = 0; d < rank; ++d) {
    out[d] = (x_dims[2 + d] + pads[d] + pads[rank + d] - w_dims[2 + d]) / strides[d] + 1;
    y_dims->push_back(out[d]);
    out_size *= out[d], in_size *= x_dims[2 + d], kernel_size *= w_dims[2 + d];
  }
  std::vector<float> y(static_cast<size_t>(batch * filters * out_size));
  for (int64_t n = 0; n < batch; ++n) {
    for (int64_t f = 0; f < filters; ++f) {
      for (int64_t o = 0; o < out_size; ++o) {
        double acc = bias.empty() ? 0.0 : bias[f];
        for (int64_t c = 0; c < group_channels; ++c) {
          for (int64_t k = 0; k < kernel_size; ++k) {
            int64_t in_offset = 0, o_rest = o, k_rest = k, in_stride = in_size;
            int64_t out_stride = out_size, k_stride = kernel_size;
            bool inside = true;
            for (size_t d = 0; d < rank; ++d) {
              out_stride /= out[d], k_stride /= w_dims[2 + d], in_stride /= x_dims[2 + d];
              const int64_t position =
                  o_rest / out_stride * strides[d] - pads[d] + k_rest / k_stride;
              o_rest %= out_stride, k_rest %= k_stride;
              inside = inside && position >= 0 && position < x_dims[2 + d];
              in_offset += position * in_stride;
            }
            if (!inside) continue;
            const int64_t channel = f / group_filters * group_channels + c;
            acc += static_cast<double>(x[(n * channels + channel) * in_size + in_offset]) *
                   w[(f * group_channels + c) * kernel_size + k];
          }
        }
        y[(n * filters + f) * out_size + o] = static_cast<float>(acc);
      }
    }
  }
  return y;
}

// Small integers and quarters, so that float sums of a few hundred products are exact.
std::vector<float> Pattern(size_t count, int seed) {
  std::vector<float> values(count);
  for (size_t i = 0; i < count; ++i)
    values[i] = static_cast<float>((i * 7 + seed) % 9) * 0.25f - 1.0f;
  return values;
}

}  // namespace

TEST_CASE("Conv 2-D with asymmetric pads, strides and bias", "[nn][Conv]") {
  OpTester("Conv", 11)
      .AttrInts("strides", {2, 1})
      .AttrInts("pads", {1, 0, 1, 2})
      .Input<float>("x", {1, 2, 4, 5}, kX1x2x4x5)
      .Input<float>("w", {3, 2, 3, 3}, kW3x2x3x3)
      .Input<float>("b", {3}, {0.5f, -1.0f, 2.0f})
      .Output<float>("y", {1, 3, 2, 5},
                     {1.125f,   11.625f,  -1.8125f, -0.4375f, 2.875f,   -1.3125f, -0.75f,  8.6875f,
                      -3.0625f, -1.8125f, 3.625f,   -5.375f,  -1.9375f, -1.75f,   -2.625f, -8.25f,
                      -0.75f,   -7.625f,  0.125f,   -2.5625f, 7.0625f,  -1.25f,   6.0f,    8.0f,
                      3.5f,     3.3125f,  7.25f,    8.25f,    3.875f,   -0.375f})
      .Run();
}

TEST_CASE("Conv 2-D with dilations and constant weights", "[nn][Conv]") {
  OpTester("Conv", 11)
      .AttrInts("dilations", {2, 2})
      .AttrInts("pads", {1, 1, 1, 1})
      .Input<float>("x", {1, 2, 4, 5}, kX1x2x4x5)
      .ConstantInput<float>("w", {3, 2, 3, 3}, kW3x2x3x3)
      .Output<float>("y", {1, 3, 2, 3},
                     {-0.75f, 1.75f, -3.25f, 2.6875f, -3.1875f, -3.25f, -2.0625f, -1.75f, -3.875f,
                      -1.625f, 7.3125f, 1.0625f, 2.75f, -6.25f, -0.1875f, 6.5625f, 5.625f, 3.375f})
      .Run();
}

TEST_CASE("Conv with groups", "[nn][Conv]") {
  OpTester("Conv", 11)
      .AttrInt("group", 2)
      .AttrInts("pads", {1, 1, 1, 1})
      .Input<float>("x", {1, 4, 5, 5},
                    {-0.75f, 1.0f,   -2.0f,  -0.5f,  -2.0f,  -1.5f,  1.75f,  0.75f, -0.25f, 0.0f,
                     1.5f,   -0.5f,  0.25f,  0.75f,  -0.5f,  0.0f,   1.0f,   1.75f, -1.5f,  1.75f,
                     -2.0f,  1.0f,   1.25f,  -1.5f,  -0.25f, 1.25f,  -2.0f,  0.5f,  1.25f,  0.0f,
                     1.0f,   -1.0f,  -1.25f, -0.5f,  -1.25f, -0.5f,  1.75f,  0.25f, -0.75f, -1.0f,
                     1.75f,  -0.25f, 2.0f,   0.0f,   0.0f,   1.5f,   1.0f,   0.25f, -0.25f, 1.5f,
                     -0.25f, 1.75f,  -1.75f, -0.25f, 0.0f,   1.75f,  -1.0f,  1.25f, 0.75f,  0.75f,
                     0.5f,   2.0f,   -0.75f, -0.5f,  -1.25f, -1.75f, -1.25f, 1.75f, 1.25f,  -1.5f,
                     0.5f,   -0.0f,  0.5f,   0.75f,  -0.75f, 1.75f,  -0.25f, 0.5f,  0.5f,   -1.25f,
                     -1.75f, -0.25f, 1.0f,   1.25f,  1.0f,   -1.5f,  1.75f,  1.25f, 1.5f,   0.0f,
                     1.75f,  -1.75f, -2.0f,  -2.0f,  -1.0f,  -1.0f,  -1.25f, 0.25f, -1.75f, 0.25f})
      .Input<float>(
          "w", {6, 2, 3, 3},
          {-1.25f, 0.75f,  -2.0f, -0.75f, 1.75f,  0.25f,  1.25f,  0.75f,  0.5f,   -1.25f, 0.25f,
           -1.75f, 1.25f,  1.75f, 1.5f,   -1.75f, -0.75f, -0.75f, -1.5f,  0.5f,   1.25f,  -0.75f,
           1.5f,   1.25f,  -1.5f, 1.0f,   1.5f,   -1.25f, 0.25f,  0.5f,   0.5f,   -1.5f,  0.75f,
           0.5f,   1.25f,  1.25f, -0.75f, 1.0f,   1.5f,   1.5f,   -1.25f, -2.0f,  0.5f,   -1.25f,
           0.25f,  1.75f,  -0.5f, -1.0f,  -0.25f, 0.75f,  -1.5f,  -0.5f,  -1.5f,  0.75f,  1.25f,
           -0.5f,  -0.5f,  0.25f, -1.25f, -1.0f,  -0.75f, -0.25f, -1.75f, 1.0f,   0.25f,  -0.75f,
           -1.75f, 1.0f,   -1.5f, -1.5f,  -1.5f,  -1.75f, 1.75f,  -1.0f,  -0.75f, 1.25f,  0.5f,
           -1.25f, -0.25f, 1.5f,  -0.5f,  0.75f,  -1.5f,  1.0f,   1.0f,   1.25f,  0.75f,  -0.5f,
           -1.75f, 0.0f,   1.0f,  -1.25f, -1.0f,  0.25f,  1.0f,   1.5f,   -1.5f,  -1.25f, 1.25f,
           0.5f,   1.0f,   2.0f,  1.75f,  1.25f,  1.0f,   -0.5f,  0.5f,   -1.25f})
      .Input<float>("b", {6}, {1.0f, 1.0f, 1.0f, -0.25f, -0.5f, -0.25f})
      .Output<float>(
          "y", {1, 6, 5, 5},
          {-1.125f,  1.375f,   2.5625f,  8.1875f,   0.9375f,  0.25f,    6.75f,    -7.3125f,
           3.0f,     -1.4375f, 2.0f,     1.5f,      4.9375f,  0.4375f,  -3.0625f, 0.0f,
           1.125f,   4.3125f,  1.4375f,  1.8125f,   0.75f,    0.0625f,  7.25f,    -9.8125f,
           7.1875f,  -1.125f,  7.375f,   -9.125f,   -6.5625f, -2.4375f, 1.1875f,  3.9375f,
           4.0f,     -3.25f,   -2.25f,   9.25f,     5.375f,   1.125f,   0.875f,   5.5f,
           2.9375f,  14.625f,  -4.8125f, -3.0625f,  7.8125f,  -0.6875f, 6.4375f,  -1.5f,
           -4.5625f, 2.5f,     3.9375f,  -2.625f,   6.875f,   4.5625f,  4.4375f,  3.8125f,
           -3.5625f, -7.4375f, 1.8125f,  3.25f,     -3.8125f, 12.125f,  -7.1875f, 3.0f,
           -0.8125f, 1.1875f,  -14.625f, 7.8125f,   6.9375f,  -7.875f,  2.0f,     -0.9375f,
           1.5625f,  6.0625f,  3.125f,   4.8125f,   -6.8125f, -1.375f,  -6.4375f, -6.5625f,
           -7.375f,  0.375f,   -8.125f,  -5.375f,   -3.875f,  -4.5625f, 2.1875f,  1.875f,
           10.875f,  4.5625f,  8.1875f,  -3.0f,     7.25f,    7.25f,    7.8125f,  3.25f,
           -0.125f,  -0.375f,  -2.3125f, 4.25f,     5.375f,   2.8125f,  2.0f,     -4.875f,
           -3.3125f, -2.3125f, 0.5625f,  0.0f,      -3.8125f, 2.625f,   -7.0f,    6.75f,
           9.375f,   10.4375f, -0.0625f, 5.5625f,   -8.1875f, -2.375f,  2.0625f,  -2.3125f,
           -4.125f,  -4.0625f, -8.625f,  3.125f,    2.3125f,  0.0625f,  1.75f,    -1.3125f,
           -3.6875f, -3.1875f, -3.6875f, -4.5f,     4.6875f,  3.375f,   4.4375f,  3.375f,
           11.3125f, 8.5625f,  -0.25f,   2.9375f,   -3.625f,  1.25f,    7.3125f,  -8.5f,
           -3.5625f, -0.5625f, -9.25f,   -13.8125f, -5.3125f, -2.4375f})
      .Run();
}

TEST_CASE("Conv depthwise with a channel multiplier, strides and dilations", "[nn][Conv]") {
  OpTester("Conv", 11)
      .AttrInt("group", 3)
      .AttrInts("pads", {1, 2, 1, 0})
      .AttrInts("strides", {2, 1})
      .Input<float>("x", {2, 3, 6, 5}, kX2x3x6x5)
      .Input<float>("w", {6, 1, 3, 3}, kW6x1x3x3)
      .Input<float>("b", {6}, {0.5f, 1.0f, 1.0f, -0.5f, -1.0f, -0.25f})
      .Output<float>(
          "y", {2, 6, 3, 5},
          {2.0f,     -4.625f,  8.0f,     -0.5625f, -3.375f,  1.875f,   0.4375f,   -0.5f,
           3.9375f,  6.25f,    -2.0f,    4.0625f,  -0.1875f, 8.8125f,  -11.6875f, -1.4375f,
           1.8125f,  2.8125f,  1.125f,   2.5f,     -2.4375f, 1.8125f,  4.9375f,   -1.5f,
           -3.0f,    -2.125f,  -6.3125f, 3.125f,   0.6875f,  1.9375f,  0.6875f,   -3.1875f,
           0.125f,   7.9375f,  2.1875f,  0.3125f,  0.0f,     -5.5f,    1.875f,    -0.25f,
           -0.25f,   3.3125f,  3.5f,     -3.0f,    2.625f,   -0.5f,    0.625f,    0.625f,
           -1.625f,  -1.125f,  -0.1875f, -1.625f,  6.875f,   -1.1875f, -3.3125f,  0.125f,
           -2.625f,  2.8125f,  1.9375f,  -0.8125f, -2.5625f, -4.0f,    3.1875f,   -3.125f,
           -3.8125f, -2.75f,   3.125f,   -0.4375f, 7.5625f,  -7.125f,  0.0f,      -3.875f,
           0.3125f,  -0.25f,   -2.0625f, 2.5625f,  -0.3125f, -3.3125f, 3.8125f,   2.9375f,
           -3.75f,   0.25f,    -6.75f,   0.4375f,  7.875f,   3.9375f,  0.9375f,   -6.5625f,
           -5.3125f, -1.3125f, 0.5f,     0.5f,     5.1875f,  -5.125f,  6.625f,    0.125f,
           0.3125f,  1.0f,     0.1875f,  0.5625f,  2.125f,   -3.375f,  3.5625f,   -2.75f,
           6.6875f,  3.1875f,  4.25f,    -1.9375f, 3.8125f,  1.4375f,  0.125f,    3.625f,
           1.0625f,  3.6875f,  2.1875f,  2.0f,     2.1875f,  -3.625f,  3.3125f,   0.1875f,
           2.3125f,  4.1875f,  0.375f,   -5.125f,  2.625f,   2.8125f,  -2.75f,    -1.9375f,
           3.6875f,  1.375f,   0.3125f,  5.75f,    -0.6875f, -1.375f,  2.75f,     -1.0f,
           -0.25f,   -3.625f,  3.5f,     -3.125f,  -0.4375f, -0.125f,  -4.1875f,  3.9375f,
           -0.5f,    0.5f,     -5.3125f, 1.5f,     0.125f,   -2.25f,   -1.5625f,  -0.375f,
           0.0f,     -3.1875f, -4.625f,  0.0625f,  -3.8125f, -0.3125f, -1.875f,   -7.75f,
           -1.625f,  -3.4375f, -1.8125f, -1.5625f, -0.4375f, 0.1875f,  -1.875f,   0.1875f,
           1.9375f,  2.9375f,  0.625f,   -0.8125f, -0.375f,  0.3125f,  4.8125f,   0.6875f,
           1.6875f,  -1.25f,   0.5f,     1.5f})
      .Run();
  OpTester("Conv", 11)
      .AttrInt("group", 3)
      .AttrInts("dilations", {2, 1})
      .AttrInts("pads", {2, 1, 2, 1})
      .AttrInts("strides", {1, 2})
      .Input<float>("x", {2, 3, 6, 5}, kX2x3x6x5)
      .Input<float>("w", {6, 1, 3, 3}, kW6x1x3x3)
      .Output<float>(
          "y", {2, 6, 6, 3},
          {1.5f,     -6.125f,  -1.5625f, 1.9375f,  3.6875f,  -7.3125f, -4.875f,  3.5f,     0.1875f,
           8.4375f,  1.125f,   10.875f,  -5.0f,    7.125f,   0.25f,    -0.875f,  -1.9375f, -3.6875f,
           -2.0625f, 1.6875f,  1.1875f,  1.4375f,  2.8125f,  0.9375f,  -3.6875f, 0.1875f,  2.6875f,
           2.6875f,  -7.8125f, -0.125f,  -4.6875f, 1.4375f,  2.4375f,  -1.5625f, 0.125f,   -1.125f,
           -3.375f,  -2.0f,    2.1875f,  -3.8125f, 7.5625f,  -2.4375f, 0.625f,   -2.5625f, -0.3125f,
           1.25f,    -0.0625f, 0.6875f,  0.1875f,  0.5625f,  -0.25f,   2.375f,   -2.125f,  0.5625f,
           1.875f,   2.5f,     2.25f,    0.75f,    2.5f,     0.125f,   -0.3125f, 3.3125f,  -0.1875f,
           -0.125f,  -1.8125f, -6.4375f, 0.375f,   -0.5f,    3.0625f,  -1.375f,  3.5625f,  0.75f,
           -0.625f,  1.5625f,  -4.25f,   2.75f,    -1.25f,   -5.4375f, -1.4375f, 3.375f,   -3.5f,
           2.625f,   2.5625f,  3.0625f,  -3.875f,  0.125f,   2.3125f,  0.1875f,  -3.125f,  3.1875f,
           -1.0625f, -2.125f,  1.625f,   -6.125f,  -0.5625f, 3.625f,   7.375f,   -0.125f,  2.0625f,
           4.0625f,  3.8125f,  -6.4375f, -2.125f,  0.8125f,  -3.1875f, -1.5625f, 0.0f,     1.6875f,
           5.8125f,  -1.25f,   -6.6875f, 0.0625f,  4.75f,    3.875f,   -1.9375f, -1.125f,  6.75f,
           -4.25f,   -4.125f,  0.1875f,  -0.625f,  4.6875f,  -0.125f,  1.25f,    4.6875f,  0.9375f,
           1.75f,    1.75f,    -0.5625f, -2.375f,  3.375f,   0.75f,    1.0625f,  -1.3125f, -1.0f,
           3.0625f,  5.375f,   -1.6875f, -2.1875f, 0.3125f,  -2.8125f, -0.9375f, 1.0f,     -1.1875f,
           -1.1875f, 1.0625f,  2.0f,     1.875f,   0.3125f,  -0.4375f, 0.5f,     1.125f,   1.125f,
           -0.875f,  -0.3125f, -0.875f,  3.6875f,  1.5625f,  0.75f,    3.0f,     -1.1875f, -0.875f,
           0.25f,    0.25f,    2.625f,   -2.25f,   -2.875f,  0.25f,    -1.0f,    0.1875f,  -0.625f,
           1.5f,     3.8125f,  -0.8125f, -2.25f,   -2.375f,  2.5625f,  -3.4375f, 0.625f,   -2.0625f,
           -0.125f,  1.0f,     -0.375f,  -0.875f,  -0.3125f, 0.5f,     1.5f,     4.375f,   -0.8125f,
           -5.6875f, -1.75f,   1.8125f,  0.0625f,  -1.3125f, -0.375f,  -1.3125f, -0.875f,  -0.9375f,
           -1.125f,  -1.5f,    1.125f,   2.4375f,  1.875f,   -2.75f,   0.9375f,  -4.125f,  0.1875f,
           1.0625f,  -2.0f,    1.5625f,  -2.1875f, 1.75f,    1.9375f,  -2.125f,  0.3125f,  1.5f})
      .Run();
}

TEST_CASE("Conv depthwise with dilations along both axes", "[nn][Conv]") {
  OpTester("Conv", 11)
      .AttrInt("group", 2)
      .AttrInts("dilations", {2, 2})
      .AttrInts("pads", {1, 2, 0, 1})
      .AttrInts("strides", {1, 2})
      .Input<float>("x", {1, 2, 5, 7},
                    {1.0f,   0.5f,   0.75f,  -1.75f, 0.5f,   2.0f,   -0.25f, -1.5f,  1.75f,  0.75f,
                     -1.25f, 0.75f,  2.0f,   -1.25f, 1.5f,   0.75f,  -1.0f,  -1.25f, 1.75f,  -0.75f,
                     -0.25f, 0.5f,   -0.25f, -2.0f,  -1.0f,  -0.0f,  1.0f,   0.5f,   -0.25f, -1.25f,
                     1.25f,  -1.25f, 1.0f,   -0.0f,  0.25f,  -0.5f,  -1.25f, -1.25f, 0.5f,   -1.0f,
                     -2.0f,  -1.25f, 1.75f,  0.75f,  0.25f,  -0.5f,  1.25f,  -1.0f,  0.5f,   -2.0f,
                     0.5f,   2.0f,   0.75f,  -1.75f, 0.25f,  -0.75f, 1.75f,  -2.0f,  -2.0f,  -1.5f,
                     -0.75f, 1.5f,   0.25f,  0.75f,  -1.75f, -1.25f, -0.5f,  0.5f,   1.0f,   0.25f})
      .Input<float>("w", {2, 1, 3, 3},
                    {-1.0f, -1.25f, -0.25f, -1.0f, 1.0f, 1.5f, 1.25f, -1.5f, 1.25f, -2.0f, -1.5f,
                     0.75f, -0.75f, 1.25f, 0.75f, 0.5f, 0.5f, 1.75f})
      .Input<float>("b", {2}, {1.25f, -2.0f})
      .Output<float>("y", {1, 2, 2, 3},
                     {-2.375f, 8.25f, -2.5f, 1.75f, -1.625f, 2.6875f, -2.25f, -3.5f, -1.1875f,
                      -5.0f, 3.4375f, -3.125f})
      .Run();
}

TEST_CASE("Conv 1-D and 3-D", "[nn][Conv]") {
  const std::vector<float> w1d{0.75f,  0.25f, 1.75f, 0.5f,   -0.75f, 0.0f,  -2.0f,  1.0f,   0.75f,
                               -0.25f, 1.5f,  1.0f,  -0.75f, -1.75f, -1.5f, -1.25f, -0.75f, -0.25f};
  // Constant weights take the pre-packed path for few output pixels (here 4 per image).
  for (const bool constant : {false, true}) {
    OpTester t("Conv", 11);
    t.AttrInts("strides", {2})
        .AttrInts("pads", {1, 1})
        .Input<float>(
            "x", {2, 3, 7},
            {-0.0f,  -1.5f,  -0.25f, 0.5f,   -1.5f,  -1.5f,  -1.25f, -0.75f, 1.75f, -2.0f,  -1.25f,
             -1.25f, -0.0f,  -2.0f,  -0.25f, -1.25f, -1.0f,  1.25f,  -1.25f, 0.5f,  -0.25f, -0.25f,
             1.25f,  -1.25f, 1.75f,  1.5f,   0.75f,  -1.75f, 0.75f,  0.5f,   1.0f,  -1.25f, 1.75f,
             1.5f,   -1.5f,  -0.75f, -1.75f, 1.25f,  1.75f,  2.0f,   0.5f,   0.75f});
    if (constant) {
      t.ConstantInput<float>("w", {2, 3, 3}, w1d);
    } else {
      t.Input<float>("w", {2, 3, 3}, w1d);
    }
    t.Input<float>("b", {2}, {1.75f, -1.0f})
        .Output<float>("y", {2, 2, 4},
                       {-1.5f, 6.25f, -3.9375f, 0.5625f, -3.3125f, 5.5625f, -2.5f, 0.5625f, 1.25f,
                        11.0f, 1.6875f, 3.5f, -1.1875f, -0.875f, -6.625f, -3.5f})
        .Run();
  }
  OpTester("Conv", 11)
      .AttrInts("pads", {1, 0, 1, 0, 1, 0})
      .AttrInts("dilations", {1, 2, 1})
      .Input<float>(
          "x", {1, 2, 3, 4, 3},
          {1.5f,   0.75f, 1.5f,   -0.5f,  -2.0f,  1.25f,  -1.0f,  -1.5f, 1.25f,  0.75f,  -1.25f,
           -1.0f,  1.75f, -1.0f,  0.75f,  -1.5f,  1.25f,  -1.5f,  0.0f,  -1.75f, 0.25f,  1.5f,
           -1.75f, -1.0f, 1.0f,   0.5f,   -0.75f, 0.5f,   -0.25f, 1.5f,  -0.75f, 1.0f,   0.5f,
           1.0f,   -0.5f, 1.0f,   0.75f,  -0.5f,  -2.0f,  1.75f,  0.75f, -1.25f, 1.0f,   -1.0f,
           -0.0f,  1.5f,  -0.25f, -0.75f, -0.75f, -1.75f, -1.0f,  -1.0f, -1.25f, -1.75f, -0.25f,
           -1.25f, 1.0f,  1.75f,  -1.0f,  0.25f,  0.0f,   -1.75f, -1.5f, 1.5f,   -0.0f,  1.25f,
           -1.75f, 0.5f,  1.5f,   1.5f,   -2.0f,  0.0f})
      .Input<float>("w", {2, 2, 2, 3, 2},
                    {-0.5f, 1.0f,  -1.75f, -1.0f,  1.25f, -0.0f, -0.25f, 1.75f,  -0.75f, -1.75f,
                     -0.5f, -1.5f, -1.75f, 0.25f,  1.75f, 0.25f, 0.5f,   -0.75f, 0.25f,  1.0f,
                     0.25f, 1.25f, 0.25f,  -1.25f, 0.25f, -0.0f, -1.25f, 0.5f,   1.25f,  -1.5f,
                     0.25f, 1.0f,  -0.5f,  -1.0f,  -0.5f, 0.25f, 0.75f,  0.25f,  -1.5f,  1.25f,
                     1.75f, -1.5f, -1.0f,  -1.25f, 1.5f,  1.75f, -1.75f, -0.75f})
      .Output<float>("y", {1, 2, 3, 1, 3},
                     {6.375f, 3.0f, -1.0f, 4.9375f, 0.625f, 3.0625f, 2.375f, -2.125f, 1.9375f,
                      3.3125f, 2.75f, 2.6875f, 3.1875f, 0.125f, 7.3125f, -1.8125f, -2.0625f, 9.0f})
      .Run();
}

TEST_CASE("Conv 1x1 multiplies the image directly", "[nn][Conv]") {
  const std::vector<float> w1x1{-1.0f,  -0.5f, 1.0f,  -0.25f, 1.5f,   1.75f,
                                -0.75f, 1.0f,  -1.0f, -1.5f,  -0.25f, 0.5f};
  for (const bool constant : {false, true}) {
    OpTester t("Conv", 11);
    t.Input<float>("x", {2, 3, 2, 3}, kX2x3x2x3);
    if (constant) {
      t.ConstantInput<float>("w", {4, 3, 1, 1}, w1x1);
    } else {
      t.Input<float>("w", {4, 3, 1, 1}, w1x1);
    }
    t.Input<float>("b", {4}, {1.75f, -1.5f, 0.75f, -0.0f})
        .Output<float>(
            "y", {2, 4, 2, 3},
            {4.0f,     -0.25f,  1.375f,   3.5f,    4.5f,     -1.25f,   0.5625f,  -2.625f,
             -0.125f,  -4.625f, 0.25f,    -2.0f,   0.6875f,  3.25f,    -2.0625f, 1.3125f,
             -0.0625f, 4.75f,   2.375f,   -1.0f,   -1.9375f, 2.625f,   2.625f,   -1.5f,
             0.5f,     3.625f,  1.875f,   -0.125f, 1.75f,    4.125f,   -5.0f,    -1.875f,
             -5.8125f, -6.625f, -5.0625f, 0.1875f, -1.375f,  0.6875f,  0.1875f,  0.6875f,
             0.0f,     0.4375f, -2.125f,  2.1875f, 0.3125f,  -1.6875f, 0.0f,     2.4375f})
        .Run();
  }
  OpTester("Conv", 11)
      .AttrInts("strides", {2, 2})
      .Input<float>("x", {2, 3, 2, 3}, kX2x3x2x3)
      .Input<float>(
          "w", {4, 3, 1, 1},
          {-1.0f, -0.5f, 1.0f, -0.25f, 1.5f, 1.75f, -0.75f, 1.0f, -1.0f, -1.5f, -0.25f, 0.5f})
      .Output<float>("y", {2, 4, 1, 2},
                     {2.25f, -0.375f, 2.0625f, 1.375f, -0.0625f, -2.8125f, 2.375f, -1.9375f, -1.25f,
                      0.125f, -3.5f, -4.3125f, -2.125f, -0.5625f, -2.125f, 0.3125f})
      .Run();
}

TEST_CASE("Conv auto_pad SAME_UPPER, SAME_LOWER and VALID", "[nn][Conv]") {
  OpTester("Conv", 11)
      .AttrString("auto_pad", "SAME_UPPER")
      .AttrInts("strides", {2, 2})
      .Input<float>("x", {1, 1, 5, 4}, kX1x1x5x4)
      .Input<float>("w", {1, 1, 3, 2}, kW1x1x3x2)
      .Output<float>("y", {1, 1, 3, 2}, {5.625f, -4.0625f, -1.9375f, 0.1875f, 0.125f, 0.25f})
      .Run();
  OpTester("Conv", 11)
      .AttrString("auto_pad", "SAME_LOWER")
      .Input<float>("x", {1, 1, 5, 4}, kX1x1x5x4)
      .Input<float>("w", {1, 1, 3, 2}, kW1x1x3x2)
      .Output<float>("y", {1, 1, 5, 4},
                     {-3.75f,   5.625f, 2.375f,   -4.0625f, 0.875f,  2.5f,     -7.4375f,
                      1.0f,     4.0f,   -1.9375f, -0.25f,   0.1875f, -4.0625f, 2.0625f,
                      -3.1875f, 7.375f, 1.9375f,  0.125f,   4.3125f, 0.25f})
      .Run();
  OpTester("Conv", 1)
      .AttrString("auto_pad", "VALID")
      .Input<float>("x", {1, 1, 5, 4}, kX1x1x5x4)
      .Input<float>("w", {1, 1, 3, 2}, kW1x1x3x2)
      .Output<float>("y", {1, 1, 3, 3},
                     {2.5f, -7.4375f, 1.0f, -1.9375f, -0.25f, 0.1875f, 2.0625f, -3.1875f, 7.375f})
      .Run();
}

TEST_CASE("Conv on double and float16", "[nn][Conv]") {
  OpTester("Conv", 11)
      .Input<double>("x", {1, 2, 3, 3},
                     {-0.25, 1.75, 1.75, -0.5, 1.75, -0.5, -0.5, 1.0, -0.0, -0.25, -0.5, -0.25,
                      -1.5, -1.75, 1.0, 0.25, 0.75, 1.25})
      .Input<double>("w", {2, 2, 2, 2},
                     {-1.0, -1.0, -1.0, -0.75, 1.0, -0.5, -0.75, 0.5, -1.25, -1.5, 0.75, 1.0, -0.75,
                      0.5, -1.75, -0.5})
      .Output<double>("y", {1, 2, 2, 2},
                      {-2.0625, -3.4375, -1.9375, -4.4375, 2.5, -1.1875, -1.9375, -0.8125})
      .Run();
  OpTester("Conv", 11)
      .Input<Float16>(
          "x", {1, 1, 3, 3},
          {Float16(0.25f), Float16(-1.0f), Float16(-0.5f), Float16(0.5f), Float16(0.25f),
           Float16(-1.5f), Float16(0.75f), Float16(-1.75f), Float16(2.0f)})
      .Input<Float16>("w", {1, 1, 2, 2},
                      {Float16(-1.25f), Float16(-1.0f), Float16(-1.25f), Float16(2.0f)})
      .Output<Float16>("y", {1, 1, 2, 2},
                       {Float16(0.5625f), Float16(-1.5625f), Float16(-5.3125f), Float16(7.375f)})
      .Run();
}

TEST_CASE("Conv splits images and groups across threads", "[nn][Conv]") {
  // All-ones input and weights: each output counts the in-bounds taps times the group's
  // channels, which a direct count reproduces.
  const int64_t batch = 3, channels = 4, filters = 6, group = 2, size = 9;
  std::vector<float> x(batch * channels * size * size, 1.0f);
  std::vector<float> w(filters * (channels / group) * 9, 1.0f);
  std::vector<float> expected;
  for (int64_t i = 0; i < batch * filters; ++i) {
    for (int64_t h = 0; h < size; ++h) {
      for (int64_t v = 0; v < size; ++v) {
        const int64_t rows = 3 - (h == 0) - (h == size - 1);
        const int64_t cols = 3 - (v == 0) - (v == size - 1);
        expected.push_back(static_cast<float>(rows * cols * (channels / group)));
      }
    }
  }
  for (int threads : {1, 2}) {
    OpTester("Conv", 11)
        .AttrInt("group", group)
        .AttrInts("pads", {1, 1, 1, 1})
        .Input<float>("x", {batch, channels, size, size}, x)
        .Input<float>("w", {filters, channels / group, 3, 3}, w)
        .Output<float>("y", {batch, filters, size, size}, expected)
        .Threads(threads)
        .Run();
  }
}

TEST_CASE("Conv 3-D over several cache slabs matches the definition", "[nn][Conv]") {
  // 2 x 3 x 20 x 30 outputs per filter: the packed-weights path multiplies them in several slabs
  // of whole 30-wide runs, the last one short; the generic path (weights not constant) too.
  const std::vector<int64_t> x_dims = {2, 5, 4, 21, 31}, w_dims = {6, 5, 3, 3, 3};
  const std::vector<int64_t> strides = {1, 1, 1}, pads = {0, 0, 0, 1, 1, 1};
  const auto x = Pattern(2 * 5 * 4 * 21 * 31, 1), w = Pattern(6 * 5 * 27, 2);
  const std::vector<float> bias = {0.5f, -1.0f, 0.25f, 2.0f, 0.0f, -0.75f};
  std::vector<int64_t> y_dims;
  const auto expected = ReferenceConv(x, x_dims, w, w_dims, bias, 1, strides, pads, &y_dims);
  REQUIRE(y_dims == std::vector<int64_t>{2, 6, 3, 20, 30});
  for (const bool constant_weights : {true, false}) {
    for (const int threads : {1, 2}) {
      OpTester tester("Conv", 11);
      tester.AttrInts("pads", pads).Input<float>("x", x_dims, x);
      if (constant_weights) {
        tester.ConstantInput<float>("w", w_dims, w).ConstantInput<float>("b", {6}, bias);
      } else {
        tester.Input<float>("w", w_dims, w).Input<float>("b", {6}, bias);
      }
      tester.Output<float>("y", y_dims, expected).Threads(threads).Run();
    }
  }
}

TEST_CASE("Conv with constant weights over long images matches the definition", "[nn][Conv]") {
  // Hundreds of output positions per image take the Y = W col path: a 1-D stride of 3 gathers
  // its columns one by one, a 3-D stride of 2 by pairs, and a 1x1 kernel packs the image itself.
  struct Case {
    std::vector<int64_t> x_dims, w_dims, strides, pads;
  };
  const std::vector<Case> cases = {
      {{2, 7, 1000}, {9, 7, 5}, {3}, {2, 1}},
      {{1, 4, 3, 20, 21}, {5, 4, 1, 3, 3}, {1, 2, 2}, {0, 1, 1, 0, 1, 1}},
      {{1, 20, 16, 16}, {24, 20, 1, 1}, {1, 1}, {0, 0, 0, 0}},
  };
  for (const Case& c : cases) {
    int64_t x_count = 1, w_count = 1;
    for (int64_t d : c.x_dims) x_count *= d;
    for (int64_t d : c.w_dims) w_count *= d;
    const auto x = Pattern(static_cast<size_t>(x_count), 5),
               w = Pattern(static_cast<size_t>(w_count), 6);
    const auto bias = Pattern(static_cast<size_t>(c.w_dims[0]), 7);
    std::vector<int64_t> y_dims;
    const auto expected =
        ReferenceConv(x, c.x_dims, w, c.w_dims, bias, 1, c.strides, c.pads, &y_dims);
    for (const int threads : {1, 2}) {
      CAPTURE(c.x_dims, threads);
      OpTester("Conv", 11)
          .AttrInts("strides", c.strides)
          .AttrInts("pads", c.pads)
          .Input<float>("x", c.x_dims, x)
          .ConstantInput<float>("w", c.w_dims, w)
          .ConstantInput<float>("b", {c.w_dims[0]}, bias)
          .Output<float>("y", y_dims, expected)
          .Threads(threads)
          .Run();
    }
  }
}

TEST_CASE("Conv with narrow groups, strides and pads matches the definition", "[nn][Conv]") {
  // 8 channels per group, as in RegNet (direct loop), and 24 (im2col per group).
  for (const int64_t group_channels : {8, 24}) {
    const int64_t group = 3, channels = group * group_channels, filters = 6;
    const std::vector<int64_t> x_dims = {2, channels, 11, 9},
                               w_dims = {filters, group_channels, 3, 3};
    const std::vector<int64_t> strides = {2, 2}, pads = {1, 1, 1, 0};
    const auto x = Pattern(2 * channels * 11 * 9, 3), w = Pattern(filters * group_channels * 9, 4);
    std::vector<int64_t> y_dims;
    const auto expected = ReferenceConv(x, x_dims, w, w_dims, {}, group, strides, pads, &y_dims);
    for (const int threads : {1, 2}) {
      OpTester("Conv", 11)
          .AttrInt("group", group)
          .AttrInts("strides", strides)
          .AttrInts("pads", pads)
          .Input<float>("x", x_dims, x)
          .ConstantInput<float>("w", w_dims, w)
          .Output<float>("y", y_dims, expected)
          .Threads(threads)
          .Run();
    }
  }
}

TEST_CASE("Conv handles an empty batch", "[nn][Conv]") {
  OpTester("Conv", 11)
      .Input<float>("x", {0, 1, 3, 3}, {})
      .Input<float>("w", {2, 1, 2, 2}, {1, 1, 1, 1, 1, 1, 1, 1})
      .Output<float>("y", {0, 2, 2, 2}, {})
      .Run();
}

TEST_CASE("Conv rejects inconsistent shapes and attributes", "[nn][Conv]") {
  const std::vector<float> nine(9, 1.0f);
  OpTester("Conv", 11)
      .Input<float>("x", {1, 2, 3, 3}, std::vector<float>(18, 1.0f))
      .Input<float>("w", {1, 1, 3, 3}, nine)
      .Output<float>("y", {1, 1, 1, 1}, {0})
      .RunExpectingError("do not fit group");
  OpTester("Conv", 11)
      .Input<float>("x", {1, 1, 2, 2}, {1, 2, 3, 4})
      .Input<float>("w", {1, 1, 3, 3}, nine)
      .Output<float>("y", {1, 1, 1, 1}, {0})
      .RunExpectingError("exceeds the padded input");
  OpTester("Conv", 11)
      .Input<float>("x", {1, 1, 3, 3}, nine)
      .Input<float>("w", {1, 1, 3, 3}, nine)
      .Input<float>("b", {2}, {1, 2})
      .Output<float>("y", {1, 1, 1, 1}, {0})
      .RunExpectingError("must be [1]");
  OpTester("Conv", 11)
      .AttrInts("strides", {1})
      .Input<float>("x", {1, 1, 3, 3}, nine)
      .Input<float>("w", {1, 1, 3, 3}, nine)
      .Output<float>("y", {1, 1, 1, 1}, {0})
      .RunExpectingError("spatial dims need");
  OpTester("Conv", 11)
      .AttrInts("strides", {0, 1})
      .Input<float>("x", {1, 1, 3, 3}, nine)
      .Input<float>("w", {1, 1, 3, 3}, nine)
      .Output<float>("y", {1, 1, 1, 1}, {0})
      .RunExpectingError("strides must be positive");
}

}  // namespace ort::test
