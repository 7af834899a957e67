// ort-conv-pair: two variants of one NCHWc convolution timed call by call in alternation, for A/B
// decisions on machines whose speed drifts in phases of seconds (a shared 2-core VM ran the same
// kernel 1.45x slower for seconds at a time): each pair of calls sees the same phase, so the
// median of the per-pair ratios B/A holds steady where medians over separate runs moved by 20%.
//   ort-conv-pair --shape 256,256,14,3,1 --b-rows             conv_pixels runs vs rows
//   ort-conv-pair --shape 1152,192,7,1,1 --a nchwc_conv_f32_b8_avx2 --b nchwc_conv_f32_b8_portable
// One image, batch 1; the input's padding columns copied in as the Conv kernel does.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "providers/cpu/kernels/common/isa_dispatch.h"
#include "providers/cpu/kernels/contrib/nchwc/nchwc_conv_kernel.h"
#include "tools/kernel_bench/nchwc_conv_schedule.h"

namespace ort::bench {
namespace {

struct Shape {
  int64_t channels = 0, filters = 0, size = 0, kernel = 0, stride = 1;
};

const NchwcConvKernels* FindKernels(const std::string& name) {
  if (name.empty()) return &BestNchwcConvKernels();
  for (const auto* entry : RunnableEntries(kNchwcConvKernels)) {
    if (name == entry->name) return entry->kernel;
  }
  return nullptr;
}

// One convolution's buffers, run as RunNchwcConvImage runs them: rows whose taps read no padding
// in runs across rows unless `rows_only` (a 1x1 image is one row already), the others by row.
class Variant {
 public:
  Variant(const NchwcConvKernels& kernels, const Shape& s, bool rows_only)
      : kernels_(kernels), across_rows_(!rows_only && !(s.kernel == 1 && s.stride == 1)) {
    std::mt19937 rng(1);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    const auto fill = [&](std::vector<float>& v, int64_t n) {
      v.resize(static_cast<size_t>(n));
      for (float& f : v) f = uniform(rng);
    };
    const int64_t block = kernels.block;
    NchwcConvArgs& a = args_;
    a.in_block = s.channels < block ? 1 : block;
    a.in_blocks = s.channels / a.in_block;
    a.out_blocks = s.filters / block;
    a.k_h = a.k_w = s.kernel;
    a.stride_h = a.stride_w = s.stride;
    const int64_t pad = s.kernel / 2;
    a.pad_top = a.pad_bottom = pad;
    a.out_h = a.out_w = (s.size + 2 * pad - s.kernel) / s.stride + 1;
    fill(w_, s.filters * s.channels * s.kernel * s.kernel);
    fill(bias_, s.filters);
    y_.assign(static_cast<size_t>(s.filters * a.out_h * a.out_w), 0.0f);
    const int64_t width = s.size + 2 * pad;
    fill(x_, s.channels * s.size * width);
    for (int64_t r = 0; r < a.in_blocks * s.size; ++r) {
      std::fill_n(x_.data() + r * width * a.in_block, pad * a.in_block, 0.0f);
      std::fill_n(x_.data() + ((r + 1) * width - pad) * a.in_block, pad * a.in_block, 0.0f);
    }
    a.in_h = s.size;
    a.in_w = width;
    if (s.kernel == 1 && s.stride == 1) {
      a.in_w = a.out_w = a.in_h * a.in_w;
      a.in_h = a.out_h = 1;
    }
    a.x = x_.data();
    a.w = w_.data();
    a.bias = bias_.data();
    a.y = y_.data();
    scratch_.resize(static_cast<size_t>(NchwcConvScratchFloats(a)));
  }

  double Flops() const {
    return 2.0 *
           static_cast<double>(args_.out_blocks * kernels_.block * args_.in_blocks *
                               args_.in_block * args_.k_h * args_.k_w * args_.out_h * args_.out_w);
  }

  void Run() { RunNchwcConvImage(kernels_, args_, across_rows_, scratch_.data()); }

 private:
  const NchwcConvKernels& kernels_;
  NchwcConvArgs args_;
  std::vector<float> x_, w_, bias_, y_, scratch_;
  bool across_rows_;
};

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace
}  // namespace ort::bench

int main(int argc, char** argv) {
  using namespace ort::bench;
  CLI::App app{"NCHWc convolution A/B, calls alternating"};
  std::vector<int64_t> dims;
  std::string a_name, b_name;
  bool b_rows = false;
  int calls = 200;
  int cold_mb = 0;
  app.add_option("--shape", dims, "channels,filters,size,kernel,stride")
      ->required()
      ->delimiter(',')
      ->expected(5);
  app.add_option("--a", a_name, "kernel set of A (default: the best this CPU runs)");
  app.add_option("--b", b_name, "kernel set of B (default: A's)");
  app.add_flag("--b-rows", b_rows, "B runs every row through conv_row, no runs across rows");
  app.add_option("--calls", calls, "pairs of calls measured")->check(CLI::PositiveNumber);
  app.add_option("--cold-mb", cold_mb, "MB written between calls, to start each one cold");
  CLI11_PARSE(app, argc, argv);
  const Shape shape{dims[0], dims[1], dims[2], dims[3], dims[4]};
  const ort::NchwcConvKernels* ka = FindKernels(a_name);
  const ort::NchwcConvKernels* kb = FindKernels(b_name.empty() ? a_name : b_name);
  if (ka == nullptr || kb == nullptr || ka->block != kb->block) {
    std::fprintf(stderr, "unknown kernel set, or sets of different blocks\n");
    return 2;
  }
  if (shape.filters % ka->block != 0 ||
      (shape.channels >= ka->block && shape.channels % ka->block)) {
    std::fprintf(stderr, "channels and filters must fill blocks of %ld\n", ka->block);
    return 2;
  }
  Variant a(*ka, shape, false), b(*kb, shape, b_rows);
  std::vector<char> sweep(static_cast<size_t>(cold_mb) << 20);
  const auto cool = [&] {
    for (size_t i = 0; i < sweep.size(); i += 64) sweep[i] = static_cast<char>(sweep[i] + 1);
  };
  const auto timed = [&](Variant& v) {
    cool();
    const auto start = std::chrono::steady_clock::now();
    v.Run();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
  };
  for (int i = 0; i < 3; ++i) {
    a.Run();
    b.Run();
  }
  std::vector<double> ta, tb, ratios;
  for (int i = 0; i < calls; ++i) {
    // Which variant runs first alternates: the second call of a pair ran a few percent faster.
    const double first = timed(i % 2 == 0 ? a : b);
    const double second = timed(i % 2 == 0 ? b : a);
    ta.push_back(i % 2 == 0 ? first : second);
    tb.push_back(i % 2 == 0 ? second : first);
    ratios.push_back(tb.back() / ta.back());
  }
  const double flops = a.Flops();
  std::printf("A: min %.4f ms, median %.4f ms (%.1f GFLOP/s)\n",
              *std::min_element(ta.begin(), ta.end()), Median(ta), flops / Median(ta) / 1e6);
  std::printf("B: min %.4f ms, median %.4f ms (%.1f GFLOP/s)\n",
              *std::min_element(tb.begin(), tb.end()), Median(tb), flops / Median(tb) / 1e6);
  std::printf("B/A: median of %d paired ratios %.3f\n", calls, Median(ratios));
  return 0;
}
