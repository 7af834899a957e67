#include "providers/cpu/kernels/common/gemm.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "lib/common/cpu_info.h"
#include "providers/cpu/kernels/common/isa_dispatch.h"
#include "providers/cpu/kernels/common/sgemm_kernel.h"

namespace ort::test {
namespace {

/// The textbook triple loop in long double, on the same strided storage as the GEMM under test.
template <typename T>
void NaiveGemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, T alpha, const T* a, int64_t lda,
               const T* b, int64_t ldb, T beta, T* c, int64_t ldc) {
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      long double sum = 0;
      for (int64_t p = 0; p < k; ++p) {
        const T x = ta ? a[p * lda + i] : a[i * lda + p];
        const T y = tb ? b[j * ldb + p] : b[p * ldb + j];
        sum += static_cast<long double>(x) * y;
      }
      const long double previous =
          beta == T(0) ? 0 : static_cast<long double>(beta) * c[i * ldc + j];
      c[i * ldc + j] = static_cast<T>(alpha * sum + previous);
    }
  }
}

/// `tolerance` is per unit of K: rounding error grows with the length of each dot product.
template <typename T, typename Fn>
void CheckAgainstNaive(Fn gemm, double tolerance) {
  std::mt19937 rng(1234);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  ThreadPool pool("gemm_test", 2, false);
  struct Size {
    int64_t m, n, k;
  };
  // Odd sizes around the register tiles (4x8, 6x16, 14x32) and the cache blocks (Kc 768, Mc 196,
  // Nc 512), vectors and empty K.
  const Size sizes[] = {{1, 1, 1},      {3, 5, 7},     {4, 8, 16},    {5, 9, 3},    {7, 33, 5},
                        {13, 17, 300},  {1, 37, 19},   {29, 1, 33},   {130, 70, 9}, {65, 97, 300},
                        {67, 515, 258}, {7, 3, 0},     {33, 1030, 5}, {14, 32, 64}, {15, 65, 257},
                        {197, 75, 530}, {21, 45, 1540}};
  // alpha 1 lets kernels read a row-major A in place; other alphas pack it.
  const std::pair<T, T> scales[] = {
      {T(1), T(0)}, {T(1), T(-0.75)}, {T(0.5), T(1)}, {T(-2), T(0.25)}};
  for (const Size& size : sizes) {
    for (int transposes = 0; transposes < 4; ++transposes) {
      const bool ta = (transposes & 1) != 0;
      const bool tb = (transposes & 2) != 0;
      for (const auto& [alpha, beta] : scales) {
        for (ThreadPool* p : {static_cast<ThreadPool*>(nullptr), &pool}) {
          // Leading dimensions larger than the logical ones, to catch stride mix-ups.
          const int64_t lda = (ta ? size.m : size.k) + 3;
          const int64_t ldb = (tb ? size.k : size.n) + 2;
          const int64_t ldc = size.n + 1;
          std::vector<T> a((ta ? size.k : size.m) * lda), b((tb ? size.n : size.k) * ldb);
          std::vector<T> c(size.m * ldc);
          for (T& x : a) x = static_cast<T>(dist(rng));
          for (T& x : b) x = static_cast<T>(dist(rng));
          for (T& x : c) x = static_cast<T>(dist(rng));
          if (beta == T(0)) std::fill(c.begin(), c.end(), std::numeric_limits<T>::quiet_NaN());
          std::vector<T> expected = c;
          NaiveGemm<T>(ta, tb, size.m, size.n, size.k, alpha, a.data(), lda, b.data(), ldb, beta,
                       expected.data(), ldc);
          gemm(ta, tb, size.m, size.n, size.k, alpha, a.data(), lda, b.data(), ldb, beta, c.data(),
               ldc, p);
          INFO("m=" << size.m << " n=" << size.n << " k=" << size.k << " ta=" << ta << " tb=" << tb
                    << " alpha=" << alpha << " beta=" << beta);
          for (int64_t i = 0; i < size.m; ++i) {
            for (int64_t j = 0; j < size.n; ++j) {
              const double got = c[i * ldc + j];
              const double want = expected[i * ldc + j];
              REQUIRE(std::abs(got - want) <=
                      tolerance * static_cast<double>(size.k + 1) * (1.0 + std::abs(want)));
            }
            // The padding column past n is left untouched.
            if (beta != T(0)) REQUIRE(c[i * ldc + size.n] == expected[i * ldc + size.n]);
          }
        }
      }
    }
  }
}

}  // namespace

TEST_CASE("Sgemm matches a naive triple loop", "[math][gemm]") {
  CheckAgainstNaive<float>(Sgemm, 2e-6);
}

TEST_CASE("Sgemm microkernels of every usable instruction set match a naive triple loop",
          "[math][gemm]") {
  for (const SgemmKernel* kernel : RunnableEntries(kSgemmKernels)) {
    INFO("kernel " << kernel->name);
    CheckAgainstNaive<float>(
        [kernel](bool ta, bool tb, int64_t m, int64_t n, int64_t k, float alpha, const float* a,
                 int64_t lda, const float* b, int64_t ldb, float beta, float* c, int64_t ldc,
                 ThreadPool* pool) {
          SgemmWithKernel(*kernel, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, pool);
        },
        2e-6);
  }
}

TEST_CASE("SgemmPackedB with B packed once for every usable kernel matches a naive triple loop",
          "[math][gemm]") {
  for (const SgemmKernel* kernel : RunnableEntries(kSgemmKernels)) {
    INFO("kernel " << kernel->name);
    CheckAgainstNaive<float>(
        [kernel](bool ta, bool tb, int64_t m, int64_t n, int64_t k, float alpha, const float* a,
                 int64_t lda, const float* b, int64_t ldb, float beta, float* c, int64_t ldc,
                 ThreadPool* pool) {
          const PackedSgemmB packed(*kernel, tb, k, n, b, ldb);
          SgemmPackedB(ta, m, alpha, a, lda, packed, beta, c, ldc, pool);
        },
        2e-6);
  }
}

TEST_CASE("The instruction-set cap keeps Sgemm and the NCHWc block in step", "[math][gemm]") {
  const CpuIsa isa = MaxCpuIsa();
  CHECK(NchwcBlockSize() == (isa == CpuIsa::kAvx512 ? 16 : 8));
  for (int64_t n : {1, 64, 768}) CHECK(BestSgemmKernelFor(n).isa == isa);
}

TEST_CASE("Sgemm takes the kernel of the best instruction set whose tile pads N least",
          "[math][gemm]") {
  const auto padded = [](int64_t n, const SgemmKernel& kernel) {
    return (n + kernel.nr - 1) / kernel.nr * kernel.nr;
  };
  for (int64_t n = 1; n <= 4096; ++n) {
    const SgemmKernel& best = BestSgemmKernelFor(n);
    INFO("n " << n << " kernel " << best.name);
    REQUIRE(best.isa == MaxCpuIsa());
    for (const SgemmKernel& other : kSgemmKernels) {
      if (other.isa != best.isa) continue;
      // Ties go to the kernel listed first.
      if (&other < &best) REQUIRE(padded(n, other) > padded(n, best));
      if (&other > &best) REQUIRE(padded(n, other) >= padded(n, best));
    }
  }
}

TEST_CASE("Dgemm matches a naive triple loop", "[math][gemm]") {
  CheckAgainstNaive<double>(Dgemm, 1e-14);
}

TEST_CASE("TypedGemm wraps integer overflow and handles half types", "[math][gemm]") {
  const int32_t a[] = {std::numeric_limits<int32_t>::max(), 2};
  const int32_t b[] = {2, 3};
  int32_t c[] = {0};
  TypedGemm<int32_t>(false, false, 1, 1, 2, 1.0f, a, 2, b, 1, 0.0f, c, 1, nullptr);
  // (2^31 - 1) * 2 + 6 wraps to 4.
  CHECK(c[0] == 4);

  const Float16 ha[] = {Float16(1.0f), Float16(2.0f), Float16(3.0f), Float16(4.0f)};
  const Float16 hb[] = {Float16(0.5f), Float16(-1.0f)};
  Float16 hc[] = {Float16(1.0f), Float16(1.0f)};
  TypedGemm<Float16>(false, false, 2, 1, 2, 2.0f, ha, 2, hb, 1, 1.0f, hc, 1, nullptr);
  CHECK(static_cast<float>(hc[0]) == -2.0f);  // 2 * (0.5 - 2) + 1
  CHECK(static_cast<float>(hc[1]) == -4.0f);  // 2 * (1.5 - 4) + 1
}

}  // namespace ort::test
