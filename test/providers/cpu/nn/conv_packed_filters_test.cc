#include "providers/cpu/kernels/onnx/nn/conv_packed_filters.h"

#include <catch2/catch.hpp>

#include <vector>

#include "lib/threading/thread_pool.h"

// Expected values come from the convolution's definition, summed in double by the loops below.
namespace ort::test {
namespace {

// Small integers and quarters, so that the float sums of the kernel are exact.
std::vector<float> Quarters(size_t count, int seed) {
  std::vector<float> values(count);
  for (size_t i = 0; i < count; ++i)
    values[i] = static_cast<float>((i * 5 + seed) % 9) * 0.25f - 1.0f;
  return values;
}

ConvProblem Problem2d(int64_t batch, int64_t channels, int64_t filters, int64_t size,
                      int64_t stride) {
  ConvProblem p;
  p.batch = batch;
  p.channels = channels;
  p.filters = filters;
  p.geometry.input = {size, size + 3};
  p.geometry.kernel = {3, 3};
  p.geometry.strides = {stride, stride};
  p.geometry.dilations = {1, 1};
  p.geometry.pads = {1, 1, 1, 1};
  for (int64_t in : p.geometry.input) p.geometry.output.push_back((in + 2 - 3) / stride + 1);
  return p;
}

// y = relu(conv(x, w) + bias + z) by the definition of a 3x3 convolution with one-pixel pads.
std::vector<float> Reference(const ConvProblem& p, const std::vector<float>& x,
                             const std::vector<float>& w, const std::vector<float>& bias,
                             const std::vector<float>& z) {
  const auto& g = p.geometry;
  const int64_t in_h = g.input[0], in_w = g.input[1], out_h = g.output[0], out_w = g.output[1];
  std::vector<float> y;
  for (int64_t n = 0; n < p.batch; ++n) {
    for (int64_t f = 0; f < p.filters; ++f) {
      for (int64_t oh = 0; oh < out_h; ++oh) {
        for (int64_t ow = 0; ow < out_w; ++ow) {
          double sum = bias[f] + z[y.size()];
          for (int64_t c = 0; c < p.channels; ++c) {
            for (int64_t kh = 0; kh < 3; ++kh) {
              for (int64_t kw = 0; kw < 3; ++kw) {
                const int64_t ih = oh * g.strides[0] - 1 + kh, iw = ow * g.strides[1] - 1 + kw;
                if (ih < 0 || ih >= in_h || iw < 0 || iw >= in_w) continue;
                sum += static_cast<double>(x[((n * p.channels + c) * in_h + ih) * in_w + iw]) *
                       w[((f * p.channels + c) * 3 + kh) * 3 + kw];
              }
            }
          }
          y.push_back(static_cast<float>(sum > 0.0 ? sum : 0.0));
        }
      }
    }
  }
  return y;
}

}  // namespace

TEST_CASE("Packed-filters Conv adds the bias and Z, in Y's buffer or its own, then activates",
          "[nn][Conv]") {
  // 100 channels x 9 taps span two depth blocks; 13 filters leave a partial panel; both strides
  // give images of several column blocks whose runs straddle B panels.
  for (const int64_t stride : {1, 2}) {
    const ConvProblem p = Problem2d(2, 100, 13, 40, stride);
    REQUIRE(PackedFiltersPay(p));
    const int64_t out_size = p.geometry.OutputSize();
    const auto x = Quarters(static_cast<size_t>(2 * 100 * p.geometry.InputSize()), 1);
    const auto w = Quarters(13 * 100 * 9, 2);
    const auto bias = Quarters(13, 3);
    const auto z = Quarters(static_cast<size_t>(2 * 13 * out_size), 4);
    const auto expected = Reference(p, x, w, bias, z);
    const PackedConvFilters filters(13, 900, w.data());
    FusedActivation relu;
    relu.kind = ActivationKind::kRelu;
    ThreadPool pool("conv_test", 2, false);
    for (ThreadPool* threads : {static_cast<ThreadPool*>(nullptr), &pool}) {
      for (const bool z_in_y : {false, true}) {
        std::vector<float> y(expected.size(), z_in_y ? 0.0f : 99.0f);
        if (z_in_y) y = z;
        RunPackedFiltersConv(p, x.data(), filters, bias.data(), z_in_y ? y.data() : z.data(), relu,
                             y.data(), threads);
        CAPTURE(stride, threads != nullptr, z_in_y);
        REQUIRE(y == expected);
      }
    }
  }
}

TEST_CASE("Packed-filters Conv splits the filters when an image has too few columns to share",
          "[nn][Conv]") {
  // One image of one column block: two threads each take a share of the 64 filters.
  const ConvProblem p = Problem2d(1, 8, 64, 14, 1);
  const auto x = Quarters(static_cast<size_t>(8 * p.geometry.InputSize()), 5);
  const auto w = Quarters(64 * 8 * 9, 6);
  const std::vector<float> bias(64, 0.5f);
  const std::vector<float> zeros(static_cast<size_t>(64 * p.geometry.OutputSize()), 0.0f);
  const auto expected = Reference(p, x, w, bias, zeros);
  const PackedConvFilters filters(64, 72, w.data());
  FusedActivation relu;
  relu.kind = ActivationKind::kRelu;
  ThreadPool pool("conv_test", 2, false);
  std::vector<float> y(expected.size());
  RunPackedFiltersConv(p, x.data(), filters, bias.data(), nullptr, relu, y.data(), &pool);
  REQUIRE(y == expected);
}

}  // namespace ort::test
