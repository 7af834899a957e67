// Branch-free float versions of exp, erf and tanh for the hot elementwise kernels (Sigmoid,
// Softmax, Gelu, Erf, Tanh), and a bitwise select. libm's scalar calls keep loops from
// vectorizing; these are written so that the compiler turns a loop over them into SIMD code.
// Accuracy: exp within 1 ulp, erf within 4e-7 (absolute and relative), tanh within 2e-7
// relative; NaN and infinities follow libm.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <type_traits>

namespace ort {

/// `condition ? if_true : if_false` for float/double without a branch. With a plain ternary GCC
/// (under the default -ftrapping-math) often moves the arithmetic that follows into one arm, and
/// a loop with a conditional floating-point operation is not vectorized. Plain functions rather
/// than a template, so that code compiled under `#pragma GCC target` can call them without
/// instantiating a wider-ISA copy that other files might link to.
inline float Select(bool condition, float if_true, float if_false) {
  const uint32_t mask = uint32_t{0} - static_cast<uint32_t>(condition);
  return std::bit_cast<float>((std::bit_cast<uint32_t>(if_true) & mask) |
                              (std::bit_cast<uint32_t>(if_false) & ~mask));
}

inline double Select(bool condition, double if_true, double if_false) {
  const uint64_t mask = uint64_t{0} - static_cast<uint64_t>(condition);
  return std::bit_cast<double>((std::bit_cast<uint64_t>(if_true) & mask) |
                               (std::bit_cast<uint64_t>(if_false) & ~mask));
}

/// Select for any arithmetic type (a plain ternary for integers, which cannot trap).
template <typename C>
inline C Pick(bool condition, C if_true, C if_false) {
  if constexpr (std::is_floating_point_v<C>) {
    return Select(condition, if_true, if_false);
  } else {
    return condition ? if_true : if_false;
  }
}

/// The magnitude of `magnitude` (non-negative) with the sign bit of `sign`.
inline float CopySign(float magnitude, float sign) {
  return std::bit_cast<float>(std::bit_cast<uint32_t>(magnitude) |
                              (std::bit_cast<uint32_t>(sign) & 0x80000000u));
}

inline float FastExp(float x) {
  // Below -104 the result underflows to 0, above 89 it overflows to infinity. NaN becomes -104
  // here and is restored at the end.
  float c = Select(x > -104.0f, x, -104.0f);
  c = Select(c < 89.0f, c, 89.0f);
  // Round c / ln2 to the nearest integer without SSE4.1 rounding instructions.
  constexpr float kRoundMagic = 12582912.0f;  // 1.5 * 2^23
  const float n = (c * 1.44269504088896341f + kRoundMagic) - kRoundMagic;
  // Cody-Waite reduction: r = c - n ln2 with ln2 split in two for precision.
  float r = c - n * 0.693359375f;
  r = r - n * -2.12194440e-4f;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * r * r + r + 1.0f;
  // 2^n as two factors so that both stay normal floats; the products then overflow to infinity
  // or underflow gradually through subnormals exactly like the true result.
  const int32_t k = static_cast<int32_t>(n);
  const int32_t half = k >> 1;
  const float scale1 = std::bit_cast<float>(static_cast<uint32_t>(half + 127) << 23);
  const float scale2 = std::bit_cast<float>(static_cast<uint32_t>(k - half + 127) << 23);
  return Select(x != x, x, p * scale1 * scale2);
}

inline float FastErf(float x) {
  // Beyond +-4 erf is +-1 in float. Odd rational minimax-style fit x P(x^2) / Q(x^2) on [0, 4]
  // (least squares reweighted towards the worst relative error).
  float c = Select(x > -4.0f, x, -4.0f);
  c = Select(c < 4.0f, c, 4.0f);
  const float z = c * c;
  float p = 1.9113175e-08f;
  p = p * z + -1.94304903e-06f;
  p = p * z + 0.000147410945f;
  p = p * z + 0.00399524858f;
  p = p * z + 0.0515394919f;
  p = p * z + 0.207230598f;
  p = p * z + 1.12837911f;
  float q = 0.00102228392f;
  q = q * z + 0.0149674611f;
  q = q * z + 0.11801488f;
  q = q * z + 0.516984582f;
  q = q * z + 1.0f;
  return Select(x != x, x, c * p / q);
}

inline float FastTanh(float x) {
  const float a = std::bit_cast<float>(std::bit_cast<uint32_t>(x) & 0x7fffffffu);
  const float z = a * a;
  // |x| < 0.625: odd least-squares polynomial (the exp form cancels badly near 0).
  float p = -0.000816152198f;
  p = p * z + 0.00324500818f;
  p = p * z + -0.00875932258f;
  p = p * z + 0.0218518768f;
  p = p * z + -0.0539666191f;
  p = p * z + 0.133333266f;
  p = p * z + -0.333333343f;
  p = p * z + 1.0f;
  const float small = a * p;
  const float large = 1.0f - 2.0f / (FastExp(2.0f * a) + 1.0f);
  return CopySign(Select(a < 0.625f, small, large), x);
}

/// e^d for a softmax's shifted score d <= 0, with results below the smallest normal float
/// (d < ln FLT_MIN) flushed to zero: a Swin window's -100 mask made subnormal probabilities that
/// then slowed every multiply in the attention's products several times over, for a change of
/// at most 1.2e-38 in any output.
inline float SoftmaxExp(float d) { return Select(d < -87.3f, 0.0f, FastExp(d)); }

/// exp for the activation kernels of every type: the vectorizable float form, libm otherwise.
template <typename C>
C ActivationExp(C x) {
  if constexpr (std::is_same_v<C, float>) {
    return FastExp(x);
  } else {
    return std::exp(x);
  }
}

/// tanh for the activation kernels of every type: the vectorizable float form, libm otherwise.
template <typename C>
C ActivationTanh(C x) {
  if constexpr (std::is_same_v<C, float>) {
    return FastTanh(x);
  } else {
    return std::tanh(x);
  }
}

}  // namespace ort
