#include "tools/kernel_bench/fma_peak.h"

#include <immintrin.h>

#include <algorithm>
#include <chrono>
#include <cstdint>

namespace ort::bench {
namespace {

// Twelve independent accumulator chains cover the FMA latency on every port (latency 4 x 2 ports
// needs 8). Written in assembly so the compiler can neither fold the chains nor spill them.
constexpr int kChains = 12;
#define ORT_FMA_CHAINS(op)                                                                \
  "1:\n" op " %[x], %[y], %[a0]\n" op " %[x], %[y], %[a1]\n" op " %[x], %[y], %[a2]\n" op \
  " %[x], %[y], %[a3]\n" op " %[x], %[y], %[a4]\n" op " %[x], %[y], %[a5]\n" op           \
  " %[x], %[y], %[a6]\n" op " %[x], %[y], %[a7]\n" op " %[x], %[y], %[a8]\n" op           \
  " %[x], %[y], %[a9]\n" op " %[x], %[y], %[a10]\n" op                                    \
  " %[x], %[y], %[a11]\n"                                                                 \
  "dec %[n]\njnz 1b\n"
#define ORT_FMA_OPERANDS(reg)                                                                 \
  : [a0] "+" reg(a0), [a1] "+" reg(a1), [a2] "+" reg(a2), [a3] "+" reg(a3), [a4] "+" reg(a4), \
    [a5] "+" reg(a5), [a6] "+" reg(a6), [a7] "+" reg(a7), [a8] "+" reg(a8), [a9] "+" reg(a9), \
    [a10] "+" reg(a10), [a11] "+" reg(a11), [n] "+r"(iterations)                              \
  : [x] reg(x), [y] reg(y)

#pragma GCC push_options
#pragma GCC target("avx512f")
__attribute__((noinline)) float FmaLoopAvx512(int64_t iterations) {
  __m512 a0 = _mm512_set1_ps(0.0f), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0,
         a8 = a0, a9 = a0, a10 = a0, a11 = a0;
  const __m512 x = _mm512_set1_ps(0.999f), y = _mm512_set1_ps(0.001f);
  __asm__ volatile(ORT_FMA_CHAINS("vfmadd231ps") ORT_FMA_OPERANDS("v"));
  const __m512 total =
      _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(a0, a1), _mm512_add_ps(a2, a3)),
                    _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(a4, a5), _mm512_add_ps(a6, a7)),
                                  _mm512_add_ps(_mm512_add_ps(a8, a9), _mm512_add_ps(a10, a11))));
  float lanes[16];
  _mm512_storeu_ps(lanes, total);
  return lanes[0];
}
#pragma GCC pop_options

#pragma GCC push_options
#pragma GCC target("avx2,fma")
__attribute__((noinline)) float FmaLoopAvx2(int64_t iterations) {
  __m256 a0 = _mm256_set1_ps(0.0f), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0,
         a8 = a0, a9 = a0, a10 = a0, a11 = a0;
  const __m256 x = _mm256_set1_ps(0.999f), y = _mm256_set1_ps(0.001f);
  __asm__ volatile(ORT_FMA_CHAINS("vfmadd231ps") ORT_FMA_OPERANDS("x"));
  const __m256 total =
      _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(a0, a1), _mm256_add_ps(a2, a3)),
                    _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(a4, a5), _mm256_add_ps(a6, a7)),
                                  _mm256_add_ps(_mm256_add_ps(a8, a9), _mm256_add_ps(a10, a11))));
  float lanes[8];
  _mm256_storeu_ps(lanes, total);
  return lanes[0];
}
#pragma GCC pop_options

#pragma GCC push_options
#pragma GCC target("avx512f,avx512vnni")
__attribute__((noinline)) int VnniLoop(int64_t iterations) {
  __m512i a0 = _mm512_setzero_si512(), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0,
          a7 = a0, a8 = a0, a9 = a0, a10 = a0, a11 = a0;
  const __m512i x = _mm512_set1_epi8(1), y = _mm512_set1_epi8(1);
  __asm__ volatile(ORT_FMA_CHAINS("vpdpbusd") ORT_FMA_OPERANDS("v"));
  const __m512i total = _mm512_add_epi32(
      _mm512_add_epi32(_mm512_add_epi32(a0, a1), _mm512_add_epi32(a2, a3)),
      _mm512_add_epi32(_mm512_add_epi32(_mm512_add_epi32(a4, a5), _mm512_add_epi32(a6, a7)),
                       _mm512_add_epi32(_mm512_add_epi32(a8, a9), _mm512_add_epi32(a10, a11))));
  int lanes[16];
  _mm512_storeu_si512(lanes, total);
  return lanes[0];
}
#pragma GCC pop_options
#undef ORT_FMA_CHAINS
#undef ORT_FMA_OPERANDS

}  // namespace

double MeasureFmaPeakGflops(CpuIsa isa) {
  const int lanes = isa == CpuIsa::kAvx512 ? 16 : isa == CpuIsa::kAvx2 ? 8 : 4;
  constexpr int64_t kIterations = 20'000'000;
  volatile float sink = 0.0f;
  double best = 0.0;
  for (int run = 0; run < 5; ++run) {
    const auto start = std::chrono::steady_clock::now();
    if (isa == CpuIsa::kAvx512) {
      sink = FmaLoopAvx512(kIterations);
    } else {
      sink = FmaLoopAvx2(kIterations);
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    best = std::max(best, 2.0 * lanes * kChains * static_cast<double>(kIterations) / seconds / 1e9);
  }
  (void)sink;
  return best;
}

double MeasureVnniPeakGops() {
  constexpr int64_t kIterations = 20'000'000;
  volatile int sink = 0;
  double best = 0.0;
  for (int run = 0; run < 5; ++run) {
    const auto start = std::chrono::steady_clock::now();
    sink = VnniLoop(kIterations);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    // Each VPDPBUSD is 64 multiply-adds of byte pairs.
    best = std::max(best, 2.0 * 64 * kChains * static_cast<double>(kIterations) / seconds / 1e9);
  }
  (void)sink;
  return best;
}

}  // namespace ort::bench
