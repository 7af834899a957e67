// Runs com.microsoft.nchwc kernels on cases written in plain NCHW: the expected values come from
// numpy in NCHW (tools/contrib_kernel_tests/gen_nchwc.py) and are blocked here for this CPU's
// block size, with filters in ORT's layouts, by loops independent of the optimizer's.
#pragma once

#include <functional>
#include <vector>

#include "lib/common/cpu_info.h"
#include "test/providers/cpu/op_tester.h"

namespace ort::test {

inline int64_t PadChannels(int64_t channels) {
  const int64_t block = NchwcBlockSize();
  return (channels + block - 1) / block * block;
}

/// NCHW `values` of `dims` as a blocked tensor [N, C padded, H, W]; padding channels hold `pad`.
inline Tensor Blocked(const std::vector<int64_t>& dims, const std::vector<float>& values,
                      float pad = 0.0f) {
  const int64_t block = NchwcBlockSize();
  const int64_t n = dims[0], c = dims[1], spatial = dims[2] * dims[3], padded = PadChannels(c);
  std::vector<float> out(static_cast<size_t>(n * padded * spatial), pad);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t ch = 0; ch < c; ++ch) {
      for (int64_t s = 0; s < spatial; ++s) {
        out[((i * padded + ch / block * block) * spatial + s * block) + ch % block] =
            values[(i * c + ch) * spatial + s];
      }
    }
  }
  return OpTester::MakeTensor<float>({n, padded, dims[2], dims[3]}, out);
}

enum class ConvForm {
  kBlocked,    // NCHWc input, OIHWBiBo filters
  kPlain,      // NCHW input of fewer than B channels, OIHWBo filters
  kDepthwise,  // group == channels, OIHWBo filters [M, 1, KH, KW]
};

/// OIHW filters `w` of `dims` in the layout of `form`, filters (and input channels of the
/// blocked form) padded with zeros.
inline Tensor PackedFilter(ConvForm form, const std::vector<int64_t>& dims,
                           const std::vector<float>& w) {
  const int64_t block = NchwcBlockSize();
  const int64_t m = dims[0], c = dims[1], kernel = dims[2] * dims[3];
  const int64_t in = form == ConvForm::kBlocked ? PadChannels(c) : c;
  const int64_t in_block = form == ConvForm::kBlocked ? block : 1;
  std::vector<float> out(static_cast<size_t>(PadChannels(m) * in * kernel), 0.0f);
  for (int64_t o = 0; o < m; ++o) {
    for (int64_t i = 0; i < c; ++i) {
      for (int64_t k = 0; k < kernel; ++k) {
        const int64_t index =
            (((o / block * (in / in_block) + i / in_block) * kernel + k) * in_block +
             i % in_block) *
                block +
            o % block;
        out[index] = w[(o * c + i) * kernel + k];
      }
    }
  }
  return OpTester::MakeTensor<float>({PadChannels(m), in, dims[2], dims[3]}, out);
}

/// A convolution case in NCHW terms; empty `b` or `z` leave the input out.
struct NchwcConvCase {
  ConvForm form = ConvForm::kBlocked;
  std::vector<int64_t> x_dims;
  std::vector<float> x;
  std::vector<int64_t> w_dims;
  std::vector<float> w;
  std::vector<float> b;
  std::vector<float> z;
  std::vector<int64_t> y_dims;
  std::vector<float> y;
  float y_pad = 0.0f;  // what the activation makes of the padding channels' zeros
  std::function<void(OpTester&)> attributes;
  int threads = 0;
  double atol = 1e-5;
};

inline void RunNchwcConv(const NchwcConvCase& c) {
  OpTester tester("Conv", 1, "com.microsoft.nchwc");
  tester.SetTolerance(1e-4, c.atol);
  if (c.attributes) c.attributes(tester);
  if (c.form == ConvForm::kDepthwise) tester.AttrInt("group", PadChannels(c.w_dims[0]));
  if (c.threads > 0) tester.Threads(c.threads);
  tester.TensorInput("x", c.form == ConvForm::kPlain ? OpTester::MakeTensor<float>(c.x_dims, c.x)
                                                     : Blocked(c.x_dims, c.x));
  tester.TensorInput("w", PackedFilter(c.form, c.w_dims, c.w), true);
  if (!c.b.empty()) {
    std::vector<float> bias = c.b;
    bias.resize(static_cast<size_t>(PadChannels(c.w_dims[0])), 0.0f);
    tester.TensorInput("b", OpTester::MakeTensor<float>({PadChannels(c.w_dims[0])}, bias), true);
  } else if (!c.z.empty()) {
    tester.OmittedInput();
  }
  if (!c.z.empty()) tester.TensorInput("sum", Blocked(c.y_dims, c.z));
  tester.TensorOutput("y", Blocked(c.y_dims, c.y, c.y_pad));
  tester.Run();
}

/// Runs the single-input nchwc `op` on blocked `x` and expects blocked `y`.
inline void RunNchwcUnary(const std::string& op, const std::function<void(OpTester&)>& attributes,
                          const std::vector<int64_t>& x_dims, const std::vector<float>& x,
                          const std::vector<int64_t>& y_dims, const std::vector<float>& y) {
  OpTester tester(op, 1, "com.microsoft.nchwc");
  if (attributes) attributes(tester);
  tester.TensorInput("x", Blocked(x_dims, x));
  tester.TensorOutput("y", Blocked(y_dims, y));
  tester.Run();
}

}  // namespace ort::test
