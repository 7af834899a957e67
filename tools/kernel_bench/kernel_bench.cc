// Micro-benchmark of the CPU kernel library on shapes taken from the benchmark suite: SGEMM (each
// microkernel this CPU runs, B packed per call and pre-packed), the NCHWc convolution
// microkernels (depthwise row by row and plane by plane), Winograd F(4x4, 3x3) convolutions, the
// Conv kernel's packed-filters path and the logistic (sigmoid, SiLU) kernels. Prints GFLOP/s (for
// Winograd: of the direct convolution it replaces; for the logistic: its multiplies, see
// RegisterLogistic) and the percentage of the single-core FMA peak measured at start-up; and the
// 8-bit GEMM microkernels against the VNNI peak (RegisterQgemm).
//   ort-kernel-bench [--benchmark_filter=REGEX] [--threads=N] [google benchmark flags]
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>
#include <random>
#include <string>
#include <vector>

#include "lib/common/cpu_info.h"
#include "lib/threading/thread_pool.h"
#include "providers/cpu/kernels/common/attention_tile.h"
#include "providers/cpu/kernels/common/gemm.h"
#include "providers/cpu/kernels/common/isa_dispatch.h"
#include "providers/cpu/kernels/common/logistic.h"
#include "providers/cpu/kernels/common/qgemm.h"
#include "providers/cpu/kernels/common/sgemm_kernel.h"
#include "providers/cpu/kernels/common/thread_scratch.h"
#include "providers/cpu/kernels/contrib/nchwc/nchwc_conv_kernel.h"
#include "providers/cpu/kernels/contrib/nchwc/nchwc_winograd.h"
#include "providers/cpu/kernels/onnx/nn/conv_packed_filters.h"
#include "tools/kernel_bench/fma_peak.h"
#include "tools/kernel_bench/nchwc_conv_schedule.h"

namespace ort::bench {
namespace {

// Operands start on a cache line, as the engine's tensors and scratch do: from a plain vector
// every other 64-byte load straddles two lines and the figures understate the kernels.
template <typename T>
struct CacheLineAllocator {
  using value_type = T;
  CacheLineAllocator() = default;
  template <typename U>
  explicit CacheLineAllocator(const CacheLineAllocator<U>&) {}
  T* allocate(size_t count) {
    return static_cast<T*>(::operator new (count * sizeof(T), std::align_val_t{64}));
  }
  void deallocate(T* pointer, size_t) { ::operator delete (pointer, std::align_val_t{64}); }
  bool operator==(const CacheLineAllocator&) const { return true; }
};
using Floats = std::vector<float, CacheLineAllocator<float>>;

double g_peak_gflops = 0.0;
double g_vnni_peak_gops = 0.0;
int g_threads = 1;

Floats RandomFloats(size_t size) {
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> values(-1.0f, 1.0f);
  Floats out(size);
  for (float& v : out) v = values(rng);
  return out;
}

std::unique_ptr<ThreadPool> MakePool() {
  if (g_threads <= 1) return nullptr;
  return std::make_unique<ThreadPool>("bench", g_threads, true);
}

/// Runs `body` under the benchmark loop and reports GFLOP/s and % of the single-core peak times
/// the thread count.
template <typename Body>
void Measure(benchmark::State& state, double flops_per_iteration, Body&& body) {
  body();  // warm caches and pack buffers outside the timed loop
  const auto start = std::chrono::steady_clock::now();
  for (auto _ : state) body();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double gflops =
      flops_per_iteration * static_cast<double>(state.iterations()) / seconds / 1e9;
  state.counters["GFLOP/s"] = gflops;
  state.counters["%peak"] = 100.0 * gflops / (g_peak_gflops * g_threads);
}

struct GemmShape {
  const char* origin;
  int64_t m, n, k;
};

// bert_base seq 128: QKV projection, attention output, FFN up and down; the rest from the issue's
// acceptance and resnet50's 1x1 convolutions seen as GEMMs.
const GemmShape kGemmShapes[] = {
    {"square", 1024, 1024, 1024},      {"bert_qkv", 128, 2304, 768},
    {"bert_out", 128, 768, 768},       {"bert_ffn_up", 128, 3072, 768},
    {"bert_ffn_down", 128, 768, 3072}, {"resnet_1x1_56", 3136, 64, 256},
    {"resnet_1x1_7", 49, 2048, 512},   {"swin_qkv_56", 6272, 288, 96},
    {"swin_mlp_up_56", 6272, 384, 96}, {"swin_proj_56", 6272, 96, 96},
    {"whisper_qkv", 288, 768, 256},    {"whisper_fc1", 288, 1024, 256},
};

void RegisterGemm(const SgemmKernel& kernel) {
  for (const GemmShape& s : kGemmShapes) {
    const std::string base = std::string("Sgemm/") + kernel.name + "/" + s.origin + "/" +
                             std::to_string(s.m) + "x" + std::to_string(s.n) + "x" +
                             std::to_string(s.k);
    const double flops = 2.0 * static_cast<double>(s.m * s.n * s.k);
    benchmark::RegisterBenchmark(base.c_str(), [s, &kernel, flops](benchmark::State& state) {
      const auto a = RandomFloats(static_cast<size_t>(s.m * s.k));
      const auto b = RandomFloats(static_cast<size_t>(s.k * s.n));
      Floats c(static_cast<size_t>(s.m * s.n));
      auto pool = MakePool();
      Measure(state, flops, [&] {
        SgemmWithKernel(kernel, false, false, s.m, s.n, s.k, 1.0f, a.data(), s.k, b.data(), s.n,
                        0.0f, c.data(), s.n, pool.get());
      });
    })->Unit(benchmark::kMillisecond);
    const std::string packed_name = "SgemmPackedB" + base.substr(5);
    benchmark::RegisterBenchmark(packed_name.c_str(), [s, &kernel, flops](benchmark::State& state) {
      const auto a = RandomFloats(static_cast<size_t>(s.m * s.k));
      const auto b = RandomFloats(static_cast<size_t>(s.k * s.n));
      const PackedSgemmB packed(kernel, false, s.k, s.n, b.data(), s.n);
      Floats c(static_cast<size_t>(s.m * s.n));
      auto pool = MakePool();
      Measure(state, flops, [&] {
        SgemmPackedB(false, s.m, 1.0f, a.data(), s.k, packed, 0.0f, c.data(), s.n, pool.get());
      });
    })->Unit(benchmark::kMillisecond);
  }
}

// The 8-bit GEMM with B pre-packed (a weight matrix) on the shapes of the float GEMM, in
// giga-operations per second (a multiply-add counts 2) and, where the CPU has AVX-512 VNNI, the
// percentage of the measured VPDPBUSD peak times the thread count.
void RegisterQgemm(const QgemmKernel& kernel) {
  for (const GemmShape& s : kGemmShapes) {
    const std::string name = std::string("QgemmPackedB/") + kernel.name + "/" + s.origin + "/" +
                             std::to_string(s.m) + "x" + std::to_string(s.n) + "x" +
                             std::to_string(s.k);
    benchmark::RegisterBenchmark(name.c_str(), [s, &kernel](benchmark::State& state) {
      std::mt19937 rng(42);
      std::uniform_int_distribution<int> values(0, 255);
      std::vector<uint8_t> a(static_cast<size_t>(s.m * s.k));
      std::vector<int8_t> b(static_cast<size_t>(s.k * s.n));
      for (uint8_t& v : a) v = static_cast<uint8_t>(values(rng));
      for (int8_t& v : b) v = static_cast<int8_t>(values(rng) - 128);
      const std::vector<int32_t> a_zero{128}, b_zero{0};
      const PackedQgemmB packed(kernel, s.k, s.n, b.data(), s.n, b_zero);
      std::vector<int32_t> c(static_cast<size_t>(s.m * s.n));
      auto pool = MakePool();
      const double ops = 2.0 * static_cast<double>(s.m * s.n * s.k);
      Measure(state, ops, [&] {
        QGemmPacked<uint8_t>(s.m, a.data(), s.k, a_zero, packed.view(), c.data(), s.n, pool.get());
      });
      state.counters["GOP/s"] = state.counters["GFLOP/s"];
      state.counters.erase("GFLOP/s");
      state.counters.erase("%peak");
      if (g_vnni_peak_gops > 0.0) {
        state.counters["%vnni_peak"] =
            100.0 * state.counters["GOP/s"] / (g_vnni_peak_gops * g_threads);
      }
    })->Unit(benchmark::kMillisecond);
  }
}

struct ConvShape {
  const char* origin;
  int64_t channels, filters, size, kernel, stride;
};

const ConvShape kConvShapes[] = {
    {"resnet_3x3_56", 64, 64, 56, 3, 1},         {"resnet_1x1_56_in", 64, 256, 56, 1, 1},
    {"resnet_1x1_56_out", 256, 64, 56, 1, 1},    {"resnet_3x3_28", 128, 128, 28, 3, 1},
    {"resnet_3x3_14", 256, 256, 14, 3, 1},       {"resnet_1x1_14", 1024, 256, 14, 1, 1},
    {"resnet_3x3_7", 512, 512, 7, 3, 1},         {"resnet_1x1_7", 2048, 512, 7, 1, 1},
    {"mobilenet_1x1_56", 144, 24, 56, 1, 1},     {"mobilenet_1x1_112", 16, 96, 112, 1, 1},
    {"mnasnet_1x1_112", 16, 48, 112, 1, 1},      {"mnasnet_1x1_112_project", 32, 16, 112, 1, 1},
    {"ppocr_3x3_160", 32, 32, 160, 3, 1},        {"ppocr_3x3_160_neck", 96, 32, 160, 3, 1},
    {"mobilenet_v3_1x1_112", 16, 16, 112, 1, 1}, {"mobilenet_stem_3x3_224", 3, 32, 224, 3, 2},
    {"regnet_group_3x3_14", 24, 24, 14, 3, 1},   {"regnet_group_3x3_28_s2", 24, 24, 28, 3, 2},
    {"regnet_1x1_7", 912, 912, 7, 1, 1},         {"regnet_1x1_14", 408, 408, 14, 1, 1},
};

// The direct-convolution arguments of an NCHWc shape, inputs filled from `x`, `w` and `bias`.
NchwcConvArgs ConvArgs(const ConvShape& s, int64_t block, const Floats& x, const Floats& w,
                       const Floats& bias, Floats& y) {
  NchwcConvArgs a;
  // Fewer channels than a block: the image stays NCHW, as a network's first convolution reads it.
  a.in_block = s.channels < block ? 1 : block;
  a.in_blocks = s.channels / a.in_block;
  a.out_blocks = s.filters / block;
  a.in_h = a.in_w = s.size;
  a.k_h = a.k_w = s.kernel;
  a.stride_h = a.stride_w = s.stride;
  a.pad_top = a.pad_left = a.pad_bottom = a.pad_right = s.kernel / 2;
  a.out_h = a.out_w = (s.size + 2 * (s.kernel / 2) - s.kernel) / s.stride + 1;
  y.resize(static_cast<size_t>(s.filters * a.out_h * a.out_w));
  a.x = x.data();
  a.w = w.data();
  a.bias = bias.data();
  a.y = y.data();
  return a;
}

double ConvFlops(const ConvShape& s, const NchwcConvArgs& a) {
  return 2.0 *
         static_cast<double>(s.filters * s.channels * s.kernel * s.kernel * a.out_h * a.out_w);
}

// Zero columns on either side of every row of the input, as the Conv kernel copies them.
Floats PaddedColumns(NchwcConvArgs& a, const Floats& x) {
  const int64_t planes = static_cast<int64_t>(x.size()) / (a.in_h * a.in_w * a.in_block);
  const int64_t width = a.in_w + a.pad_left + a.pad_right;
  Floats padded(static_cast<size_t>(planes * a.in_h * width * a.in_block), 0.0f);
  for (int64_t r = 0; r < planes * a.in_h; ++r) {
    std::copy_n(x.data() + r * a.in_w * a.in_block, a.in_w * a.in_block,
                padded.data() + (r * width + a.pad_left) * a.in_block);
  }
  a.in_w = width;
  a.pad_left = a.pad_right = 0;
  return padded;
}

// NchwcConv: every output row through conv_row. NchwcConvAcrossRows: the rows whose taps read no
// padding through conv_pixels, in runs of kNchwcRunPixels, as the Conv kernel does on one thread.
void RegisterConv(const char* isa, const NchwcConvKernels& kernels) {
  for (const bool across_rows : {false, true}) {
    for (const ConvShape& s : kConvShapes) {
      if (across_rows && ((s.kernel == 1 && s.stride == 1) || !kernels.runs_across_rows)) continue;
      const std::string name =
          std::string(across_rows ? "NchwcConvAcrossRows/" : "NchwcConv/") + isa + "/" + s.origin;
      benchmark::RegisterBenchmark(name.c_str(), [s, &kernels,
                                                  across_rows](benchmark::State& state) {
        const auto x = RandomFloats(static_cast<size_t>(s.channels * s.size * s.size));
        const auto w =
            RandomFloats(static_cast<size_t>(s.filters * s.channels * s.kernel * s.kernel));
        const auto bias = RandomFloats(static_cast<size_t>(s.filters));
        Floats y;
        NchwcConvArgs a = ConvArgs(s, kernels.block, x, w, bias, y);
        const double flops = ConvFlops(s, a);
        // As the Conv kernel runs them: a 1x1 convolution's image as one row of pixels, other
        // convolutions' input with its padding columns copied in.
        Floats padded;
        if (s.kernel == 1 && s.stride == 1) {
          a.in_w = a.out_w = a.in_h * a.in_w;
          a.in_h = a.out_h = 1;
        } else {
          padded = PaddedColumns(a, x);
          a.x = padded.data();
        }
        AlignedScratch<float> scratch_buffer;
        float* scratch = scratch_buffer.Get(static_cast<size_t>(NchwcConvScratchFloats(a)));
        Measure(state, flops, [&] { RunNchwcConvImage(kernels, a, across_rows, scratch); });
      })->Unit(benchmark::kMillisecond);
    }
  }
}

void RegisterWinograd(const char* isa, const NchwcConvKernels& kernels) {
  for (const ConvShape& s : kConvShapes) {
    if (s.kernel != 3 || s.stride != 1) continue;
    const std::string name = std::string("NchwcWinograd/") + isa + "/" + s.origin;
    benchmark::RegisterBenchmark(name.c_str(), [s, &kernels](benchmark::State& state) {
      const auto x = RandomFloats(static_cast<size_t>(s.channels * s.size * s.size));
      const auto w = RandomFloats(static_cast<size_t>(s.filters * s.channels * 9));
      const auto bias = RandomFloats(static_cast<size_t>(s.filters));
      Floats y;
      const NchwcConvArgs a = ConvArgs(s, kernels.block, x, w, bias, y);
      const NchwcWinogradFilters filters(w.data(), s.filters, s.channels, kernels.block);
      const std::unique_ptr<ThreadPool> pool = MakePool();
      Measure(state, ConvFlops(s, a),
              [&] { RunNchwcWinograd(kernels, a, 1, filters, nullptr, pool.get()); });
    })->Unit(benchmark::kMillisecond);
  }
}

// Grouped convolutions whose groups (as many filters as channels) do not fill whole blocks:
// RegNet-X 1.6GF's 24-channel groups (3 at 56x56, 17 at 14x14), RegNet-Y's 8 (13 at 28x28) and
// ResNeXt-50's 4 (32 at 56x56). FLOP/s count the multiply-adds of the groups only.
struct NarrowGroupShape {
  const char* origin;
  int64_t groups, group_channels, size;
};

const NarrowGroupShape kNarrowGroupShapes[] = {
    {"regnet_x_g24x3_56", 3, 24, 56},
    {"regnet_x_g24x17_14", 17, 24, 14},
    {"regnet_y_g8x13_28", 13, 8, 28},
    {"resnext_g4x32_56", 32, 4, 56},
};

void RegisterNarrowGroups(const char* isa, const NchwcConvKernels& kernels) {
  for (const NarrowGroupShape& s : kNarrowGroupShapes) {
    const int64_t channels = s.groups * s.group_channels;
    const int64_t padded = (channels + kernels.block - 1) / kernels.block * kernels.block;
    if (s.group_channels % kernels.block == 0) continue;
    const std::string name = std::string("NchwcNarrowGroups/") + isa + "/" + s.origin;
    benchmark::RegisterBenchmark(name.c_str(), [s, channels, padded,
                                                &kernels](benchmark::State& state) {
      const auto x = RandomFloats(static_cast<size_t>(padded * s.size * s.size));
      const auto w = RandomFloats(static_cast<size_t>(padded * s.group_channels * 9));
      const auto bias = RandomFloats(static_cast<size_t>(padded));
      Floats y;
      const ConvShape shape{s.origin, padded, padded, s.size, 3, 1};
      NchwcConvArgs a = ConvArgs(shape, kernels.block, x, w, bias, y);
      a.group_channels = s.group_channels;
      a.groups = s.groups;
      const double flops =
          2.0 * static_cast<double>(channels * s.group_channels * 9 * a.out_h * a.out_w);
      AlignedScratch<float> scratch_buffer;
      float* scratch = scratch_buffer.Get(static_cast<size_t>(NchwcConvScratchFloats(a)));
      Measure(state, flops, [&] {
        for (int64_t ob = 0; ob < a.out_blocks; ++ob) {
          for (int64_t oh = 0; oh < a.out_h; ++oh) {
            kernels.narrow_group_row(a, 0, ob, oh, scratch);
          }
        }
      });
    })->Unit(benchmark::kMillisecond);
  }
}

// Depthwise convolutions of MobileNet-V2/V3, MnasNet, EfficientNet and ConvNeXt, each run row by
// row (edge columns checked tap by tap), plane by plane (a padded copy, every column unchecked)
// and in bands of 8 rows (a padded copy of the rows they read).
struct DepthwiseShape {
  const char* origin;
  int64_t channels, size, kernel, stride;
};

const DepthwiseShape kDepthwiseShapes[] = {
    {"efficientnet_5x5_7", 1152, 7, 5, 1},     {"efficientnet_5x5_14", 672, 14, 5, 1},
    {"efficientnet_5x5_28", 240, 28, 5, 1},    {"mobilenet_3x3_14", 480, 14, 3, 1},
    {"mobilenet_3x3_56", 144, 56, 3, 1},       {"mobilenet_3x3_s2_112", 96, 112, 3, 2},
    {"convnext_7x7_56", 96, 56, 7, 1},         {"convnext_7x7_28", 192, 28, 7, 1},
    {"convnext_7x7_14", 384, 14, 7, 1},        {"mnasnet_5x5_s2_56", 80, 56, 5, 2},
    {"mnasnet_5x5_s2_28", 240, 28, 5, 2},      {"mnasnet_3x3_s2_112", 48, 112, 3, 2},
    {"efficientnet_5x5_s2_14", 672, 14, 5, 2}, {"mobilenet_3x3_s2_28", 240, 28, 3, 2},
    {"mobilenet_3x3_s2_14", 576, 14, 3, 2},
};

void RegisterDepthwise(const char* isa, const NchwcConvKernels& kernels) {
  for (const DepthwiseShape& s : kDepthwiseShapes) {
    // Output rows per padded band; 0 runs row by row.
    for (const int64_t band : {int64_t{0}, s.size, int64_t{8}}) {
      const std::string name = std::string("NchwcDepthwise/") + isa + "/" + s.origin +
                               (band == 0        ? "/row"
                                : band == s.size ? "/plane"
                                                 : "/band8");
      benchmark::RegisterBenchmark(name.c_str(), [s, band, &kernels](benchmark::State& state) {
        const auto x = RandomFloats(static_cast<size_t>(s.channels * s.size * s.size));
        const auto w = RandomFloats(static_cast<size_t>(s.channels * s.kernel * s.kernel));
        const auto bias = RandomFloats(static_cast<size_t>(s.channels));
        Floats y;
        const ConvShape shape{s.origin, s.channels, s.channels, s.size, s.kernel, s.stride};
        const NchwcConvArgs a = ConvArgs(shape, kernels.block, x, w, bias, y);
        const double flops =
            2.0 * static_cast<double>(s.channels * s.kernel * s.kernel * a.out_h * a.out_w);
        const int64_t rows = std::min(band, a.out_h);
        AlignedScratch<float> scratch_buffer;
        float* scratch =
            scratch_buffer.Get(static_cast<size_t>(NchwcDepthwiseBandFloats(a, a.out_h)));
        Measure(state, flops, [&] {
          for (int64_t ob = 0; ob < a.out_blocks; ++ob) {
            if (rows == 0) {
              for (int64_t oh = 0; oh < a.out_h; ++oh) kernels.depthwise_row(a, 0, ob, oh);
              continue;
            }
            for (int64_t oh = 0; oh < a.out_h; oh += rows) {
              kernels.depthwise_band(a, 0, ob, oh, std::min(a.out_h, oh + rows), scratch);
            }
          }
        });
      })->Unit(benchmark::kMillisecond);
    }
  }
}

// x sigmoid(x) over a row that stays in L1 (one NCHWc output row of 112 pixels, as the Conv
// kernel applies its fused activation) and over a MobileNet/EfficientNet 96x112x112 activation
// from memory. FLOP/s count the kernel's eleven multiplies and multiply-adds per element (two
// FLOPs each), so that %peak is the share of the FMA pipes the kernel keeps busy.
void RegisterLogistic(const char* isa, const LogisticKernel& kernel) {
  constexpr double kMultipliesPerElement = 11.0;
  for (const int64_t count : {int64_t{112 * 16}, int64_t{96 * 112 * 112}}) {
    const std::string name = std::string("Logistic/") + isa + "/silu/" +
                             (count < 4096 ? "l1_row_" : "memory_") + std::to_string(count);
    benchmark::RegisterBenchmark(name.c_str(), [count, &kernel](benchmark::State& state) {
      const auto x = RandomFloats(static_cast<size_t>(count));
      Floats y(x.size());
      Measure(state, 2.0 * kMultipliesPerElement * static_cast<double>(count),
              [&] { kernel.run(x.data(), y.data(), count, 1.0f, true); });
    })->Unit(benchmark::kMicrosecond);
  }
}

// One head of windowed attention: the scores of 49 queries over 49 keys (Swin's and MaxViT's
// 7x7 windows, head 32) and their context. FLOP/s count the products over the real keys and
// head, so the padding to whole vectors shows as a lower %peak.
void RegisterAttentionTile(const char* isa, const AttentionTileKernel& kernel) {
  constexpr int64_t kTokens = 49, kHead = 32;
  const int64_t key_width = (kTokens + kernel.block - 1) / kernel.block * kernel.block;
  const double flops = 2.0 * static_cast<double>(kTokens * kTokens * kHead);
  benchmark::RegisterBenchmark((std::string("AttentionTile/") + isa + "/scores_49x49x32").c_str(),
                               [&kernel, key_width, flops](benchmark::State& state) {
                                 const auto q = RandomFloats(static_cast<size_t>(kTokens * kHead));
                                 const auto kt =
                                     RandomFloats(static_cast<size_t>(kHead * key_width));
                                 Floats scores(static_cast<size_t>(kTokens * key_width));
                                 Measure(state, flops, [&] {
                                   kernel.scores(q.data(), kHead, kTokens, kHead, kt.data(),
                                                 key_width, 0.125f, scores.data());
                                 });
                               })
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark((std::string("AttentionTile/") + isa + "/context_49x49x32").c_str(),
                               [&kernel, key_width, flops](benchmark::State& state) {
                                 const auto p =
                                     RandomFloats(static_cast<size_t>(kTokens * key_width));
                                 const auto v = RandomFloats(static_cast<size_t>(kTokens * kHead));
                                 Floats out(static_cast<size_t>(kTokens * kHead));
                                 Measure(state, flops, [&] {
                                   kernel.context(p.data(), key_width, kTokens, kTokens, v.data(),
                                                  kHead, kHead, out.data(), kHead);
                                 });
                               })
      ->Unit(benchmark::kMicrosecond);
}

// Convolutions the NCHWc layout does not take, as the Conv kernel runs them with constant weights
// (Y = W col, conv_packed_filters.h): R(2+1)D's frame-local 3-D convs and strided stem, and the
// Whisper encoder's 1-D stem, one image each.
struct PackedFiltersShape {
  const char* origin;
  int64_t channels, filters;
  std::vector<int64_t> input, kernel, strides, pads;
};

void RegisterPackedFiltersConv() {
  static const PackedFiltersShape kShapes[] = {
      {"r2plus1d_1x3x3_56", 64, 144, {8, 56, 56}, {1, 3, 3}, {1, 1, 1}, {0, 1, 1, 0, 1, 1}},
      {"r2plus1d_1x3x3_28", 128, 288, {4, 28, 28}, {1, 3, 3}, {1, 1, 1}, {0, 1, 1, 0, 1, 1}},
      {"r2plus1d_stem_1x7x7_s2", 3, 45, {8, 112, 112}, {1, 7, 7}, {1, 2, 2}, {0, 3, 3, 0, 3, 3}},
      {"whisper_conv1d_k3", 80, 384, {3000}, {3}, {1}, {1, 1}},
  };
  for (const PackedFiltersShape& s : kShapes) {
    const std::string name = std::string("PackedFiltersConv/") + s.origin;
    benchmark::RegisterBenchmark(name.c_str(), [&s](benchmark::State& state) {
      ConvProblem p;
      p.batch = 1;
      p.channels = s.channels;
      p.filters = s.filters;
      WindowGeometry& g = p.geometry;
      g.input = s.input;
      g.kernel = s.kernel;
      g.strides = s.strides;
      g.dilations.assign(s.input.size(), 1);
      g.pads = s.pads;
      const size_t rank = s.input.size();
      for (size_t d = 0; d < rank; ++d) {
        g.output.push_back(
            (s.input[d] + s.pads[d] + s.pads[rank + d] - s.kernel[d]) / s.strides[d] + 1);
      }
      const int64_t depth = s.channels * g.KernelSize();
      const auto x = RandomFloats(static_cast<size_t>(s.channels * g.InputSize()));
      const auto w = RandomFloats(static_cast<size_t>(s.filters * depth));
      const auto bias = RandomFloats(static_cast<size_t>(s.filters));
      Floats y(static_cast<size_t>(s.filters * g.OutputSize()));
      const PackedConvFilters filters(s.filters, depth, w.data());
      const std::unique_ptr<ThreadPool> pool = MakePool();
      const double flops = 2.0 * static_cast<double>(s.filters * depth * g.OutputSize());
      Measure(state, flops, [&] {
        RunPackedFiltersConv(p, x.data(), filters, bias.data(), nullptr, FusedActivation(),
                             y.data(), pool.get());
      });
    })->Unit(benchmark::kMillisecond);
  }
}

}  // namespace
}  // namespace ort::bench

int main(int argc, char** argv) {
  using namespace ort;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--threads=", 10) == 0) bench::g_threads = std::atoi(argv[i] + 10);
  }
  const CpuFeatures& features = GetCpuFeatures();
  const bool avx512 = features.avx512f;
  const bool avx2 = features.avx2 && features.fma;
  if (avx512 || avx2) {
    bench::g_peak_gflops = bench::MeasureFmaPeakGflops(avx512 ? CpuIsa::kAvx512 : CpuIsa::kAvx2);
  }
  if (features.avx512_vnni) bench::g_vnni_peak_gops = bench::MeasureVnniPeakGops();
  std::printf("CPU: %s\nmeasured fp32 FMA peak (1 core, %s): %.1f GFLOP/s; threads: %d\n",
              CpuModelName().c_str(),
              avx512 ? "AVX-512"
              : avx2 ? "AVX2"
                     : "none",
              bench::g_peak_gflops, bench::g_threads);
  if (bench::g_vnni_peak_gops > 0.0) {
    std::printf("measured int8 VNNI peak (1 core, VPDPBUSD zmm): %.1f GOP/s\n",
                bench::g_vnni_peak_gops);
  }
  for (const SgemmKernel* kernel : RunnableEntries(kSgemmKernels)) bench::RegisterGemm(*kernel);
  for (const QgemmKernel& kernel : kQgemmKernels) {
    if (QgemmKernelRunnable(kernel)) bench::RegisterQgemm(kernel);
  }
  for (const auto* entry : RunnableEntries(kNchwcConvKernels)) {
    bench::RegisterConv(entry->name, *entry->kernel);
    bench::RegisterWinograd(entry->name, *entry->kernel);
    bench::RegisterNarrowGroups(entry->name, *entry->kernel);
    bench::RegisterDepthwise(entry->name, *entry->kernel);
  }
  bench::RegisterPackedFiltersConv();
  for (const auto* entry : RunnableEntries(kLogisticKernels)) {
    bench::RegisterLogistic(entry->name, *entry->kernel);
  }
  for (const auto* entry : RunnableEntries(kAttentionTileKernels)) {
    bench::RegisterAttentionTile(entry->name, *entry->kernel);
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
