// Every 8-bit GEMM microkernel this CPU runs against the product computed in int64 from its
// definition, sum_p (A - a_zero)(B - b_zero), for every operand signedness: the kernels see only
// unsigned A by signed B, so the shifts and zero-point terms of the driver are under test too;
// and the product requantized (by the kernel itself where it can) against RequantizeRow.
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "lib/threading/thread_pool.h"
#include "providers/cpu/kernels/common/qgemm.h"

namespace ort::test {
namespace {

template <typename T>
std::vector<T> RandomValues(size_t count, std::mt19937& rng) {
  std::uniform_int_distribution<int> values(std::numeric_limits<T>::min(),
                                            std::numeric_limits<T>::max());
  std::vector<T> out(count);
  for (T& v : out) v = static_cast<T>(values(rng));
  return out;
}

template <typename T>
std::vector<int32_t> RandomZeros(size_t count, std::mt19937& rng) {
  std::uniform_int_distribution<int> values(std::numeric_limits<T>::min(),
                                            std::numeric_limits<T>::max());
  std::vector<int32_t> out(count);
  for (int32_t& v : out) v = values(rng);
  return out;
}

template <typename TA, typename TB>
std::vector<int32_t> Reference(int64_t m, int64_t n, int64_t k, const std::vector<TA>& a,
                               int64_t lda, const std::vector<int32_t>& a_zero,
                               const std::vector<TB>& b, int64_t ldb,
                               const std::vector<int32_t>& b_zero) {
  std::vector<int32_t> c(static_cast<size_t>(m * n));
  for (int64_t i = 0; i < m; ++i) {
    const int64_t za = a_zero.size() == 1 ? a_zero[0] : a_zero[i];
    for (int64_t j = 0; j < n; ++j) {
      const int64_t zb = b_zero.size() == 1 ? b_zero[0] : b_zero[j];
      int64_t sum = 0;
      for (int64_t p = 0; p < k; ++p) sum += (a[i * lda + p] - za) * (b[p * ldb + j] - zb);
      c[i * n + j] = static_cast<int32_t>(sum);
    }
  }
  return c;
}

struct Shape {
  int64_t m, n, k;
};

// Tails of every tile (rows 1-7 of 6- and 4-row tiles, columns around 8/16/64), depths that are
// not a whole group, depths over one 256-group block (1024 bytes, 512 int16 pairs), and more
// tasks than one.
const Shape kShapes[] = {{1, 1, 1},     {3, 5, 7},      {7, 17, 9},     {6, 64, 4},   {13, 70, 33},
                         {50, 130, 65}, {2, 257, 1031}, {97, 300, 600}, {5, 48, 2051}};

// How B's zero points are drawn: zero (the driver folds A's zero-point term into the kernel's
// stores), one random value, or one per column.
enum class BZero { kZero, kOne, kPerColumn };

// QGemmPackedRequantized against RequantizeRow of the exact product plus a bias, per column
// multipliers spread so that outputs cover the range and saturate at both ends; the padding
// between output rows stays untouched.
template <typename TA, typename Q>
void CheckRequantized(const Shape& s, const std::vector<TA>& a, int64_t lda,
                      const std::vector<int32_t>& a_zero, const QgemmPackedBView& b,
                      const std::vector<int32_t>& want, std::mt19937& rng, ThreadPool* pool) {
  std::uniform_int_distribution<int32_t> biases(-50000, 50000);
  std::uniform_real_distribution<float> scales(1e-5f, 2e-3f);
  std::vector<int32_t> bias(static_cast<size_t>(s.n));
  std::vector<float> multipliers(static_cast<size_t>(s.n));
  for (int64_t j = 0; j < s.n; ++j) {
    bias[j] = biases(rng);
    multipliers[j] = scales(rng);
  }
  const int32_t zero_point = std::is_signed_v<Q> ? -7 : 131;
  const int64_t ldo = s.n + 3;
  std::vector<Q> got(static_cast<size_t>(s.m * ldo), Q{42});
  QgemmRequantizedOutput output;
  output.bias = bias.data();
  output.multipliers = multipliers.data();
  output.zero_point = zero_point;
  output.is_signed = std::is_signed_v<Q>;
  output.out = got.data();
  output.ldo = ldo;
  QGemmPackedRequantized<TA>(s.m, a.data(), lda, a_zero, b, output, pool);
  int64_t wrong = 0;
  std::vector<int32_t> row(static_cast<size_t>(s.n));
  std::vector<Q> expected(static_cast<size_t>(s.n));
  for (int64_t i = 0; i < s.m; ++i) {
    for (int64_t j = 0; j < s.n; ++j) {
      row[j] = static_cast<int32_t>(static_cast<uint32_t>(want[i * s.n + j]) +
                                    static_cast<uint32_t>(bias[j]));
    }
    RequantizeRow<Q>(row.data(), s.n, multipliers.data(), true, zero_point, expected.data());
    for (int64_t j = 0; j < s.n; ++j) wrong += got[i * ldo + j] != expected[j];
    for (int64_t j = s.n; j < ldo; ++j) wrong += got[i * ldo + j] != Q{42};
  }
  INFO("requantized to " << (std::is_signed_v<Q> ? "int8" : "uint8"));
  CHECK(wrong == 0);
}

template <typename TA, typename TB>
void CheckKernels(bool per_row_a_zero, BZero b_zero_kind, ThreadPool* pool) {
  std::mt19937 rng(7);
  for (const QgemmKernel& kernel : kQgemmKernels) {
    if (!QgemmKernelRunnable(kernel)) continue;
    for (const Shape& s : kShapes) {
      const int64_t lda = s.k + 3, ldb = s.n + 5, ldc = s.n + 2;
      const auto a = RandomValues<TA>(static_cast<size_t>(s.m * lda), rng);
      const auto b = RandomValues<TB>(static_cast<size_t>(s.k * ldb), rng);
      const auto a_zero = RandomZeros<TA>(per_row_a_zero ? s.m : 1, rng);
      auto b_zero = RandomZeros<TB>(b_zero_kind == BZero::kPerColumn ? s.n : 1, rng);
      if (b_zero_kind == BZero::kZero) b_zero[0] = 0;
      const auto want = Reference(s.m, s.n, s.k, a, lda, a_zero, b, ldb, b_zero);
      INFO(kernel.name << " m " << s.m << " n " << s.n << " k " << s.k << " A "
                       << (std::is_signed_v<TA> ? "s8" : "u8") << " B "
                       << (std::is_signed_v<TB> ? "s8" : "u8"));
      std::vector<int32_t> c(static_cast<size_t>(s.m * ldc), -1);
      QGemmWithKernel<TA, TB>(kernel, s.m, s.n, s.k, a.data(), lda, a_zero, b.data(), ldb, b_zero,
                              c.data(), ldc, pool);
      int64_t wrong = 0;
      for (int64_t i = 0; i < s.m; ++i) {
        for (int64_t j = 0; j < s.n; ++j) wrong += c[i * ldc + j] != want[i * s.n + j];
        for (int64_t j = s.n; j < ldc; ++j) wrong += c[i * ldc + j] != -1;
      }
      CHECK(wrong == 0);

      const PackedQgemmB packed(kernel, s.k, s.n, b.data(), ldb, b_zero);
      std::vector<int32_t> c_packed(static_cast<size_t>(s.m * s.n));
      QGemmPacked<TA>(s.m, a.data(), lda, a_zero, packed.view(), c_packed.data(), s.n, pool);
      CHECK(c_packed == want);
      CheckRequantized<TA, int8_t>(s, a, lda, a_zero, packed.view(), want, rng, pool);
      CheckRequantized<TA, uint8_t>(s, a, lda, a_zero, packed.view(), want, rng, pool);

      // B given as its transpose (n rows of k), as weight matrices of filters are.
      std::vector<TB> b_transposed(static_cast<size_t>(s.n * (s.k + 1)));
      for (int64_t p = 0; p < s.k; ++p) {
        for (int64_t j = 0; j < s.n; ++j) b_transposed[j * (s.k + 1) + p] = b[p * ldb + j];
      }
      const PackedQgemmB packed_transposed(kernel, s.k, s.n, b_transposed.data(), s.k + 1, b_zero,
                                           true);
      std::fill(c_packed.begin(), c_packed.end(), -1);
      QGemmPacked<TA>(s.m, a.data(), lda, a_zero, packed_transposed.view(), c_packed.data(), s.n,
                      pool);
      CHECK(c_packed == want);
    }
  }
}

TEST_CASE("QGemm kernels match the int64 product for every operand signedness", "[qgemm]") {
  ThreadPool pool("qgemm", 2, true);
  for (ThreadPool* p : {static_cast<ThreadPool*>(nullptr), &pool}) {
    CheckKernels<uint8_t, int8_t>(false, BZero::kZero, p);
    CheckKernels<uint8_t, int8_t>(false, BZero::kOne, p);
    CheckKernels<uint8_t, uint8_t>(false, BZero::kPerColumn, p);
    CheckKernels<int8_t, int8_t>(false, BZero::kZero, p);
    CheckKernels<int8_t, int8_t>(true, BZero::kOne, p);
    CheckKernels<int8_t, uint8_t>(true, BZero::kPerColumn, p);
  }
}

// 255 x 127 + 255 x 127 = 64770 overflows int16, where VPMADDUBSW would saturate; and
// 255 x -128 summed over the depth checks the int32 range of every lane.
TEST_CASE("QGemm kernels are exact at the extremes of u8 x s8", "[qgemm]") {
  for (const QgemmKernel& kernel : kQgemmKernels) {
    if (!QgemmKernelRunnable(kernel)) continue;
    for (const int8_t weight : {int8_t{127}, int8_t{-128}}) {
      const int64_t m = 7, n = 33, k = 4099;
      const std::vector<uint8_t> a(static_cast<size_t>(m * k), 255);
      const std::vector<int8_t> b(static_cast<size_t>(k * n), weight);
      std::vector<int32_t> c(static_cast<size_t>(m * n));
      const std::vector<int32_t> zero{0};
      QGemmWithKernel<uint8_t, int8_t>(kernel, m, n, k, a.data(), k, zero, b.data(), n, zero,
                                       c.data(), n, nullptr);
      INFO(kernel.name << " weight " << int{weight});
      CHECK(c == std::vector<int32_t>(c.size(), 255 * int32_t{weight} * static_cast<int32_t>(k)));
    }
  }
}

TEST_CASE("QGemm with an empty depth writes zeros", "[qgemm]") {
  const std::vector<uint8_t> a(1);
  const std::vector<int8_t> b(1);
  std::vector<int32_t> c(6, 9);
  const std::vector<int32_t> zero{3};
  QGemm<uint8_t, int8_t>(2, 3, 0, a.data(), 0, zero, b.data(), 3, zero, c.data(), 3, nullptr);
  CHECK(c == std::vector<int32_t>(6, 0));
}

}  // namespace
}  // namespace ort::test
