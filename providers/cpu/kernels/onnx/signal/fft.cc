#include "providers/cpu/kernels/onnx/signal/fft.h"

#include <numbers>
#include <utility>

namespace ort {
namespace {

bool IsPowerOfTwo(int64_t n) { return n > 0 && (n & (n - 1)) == 0; }

}  // namespace

std::vector<std::complex<double>> FftPlan::Twiddles(int64_t n, bool inverse) {
  std::vector<std::complex<double>> twiddles(static_cast<size_t>(n / 2 > 0 ? n / 2 : 1));
  const double sign = inverse ? 1.0 : -1.0;
  for (int64_t k = 0; k < n / 2; ++k) {
    const double angle =
        sign * 2.0 * std::numbers::pi * static_cast<double>(k) / static_cast<double>(n);
    twiddles[k] = {std::cos(angle), std::sin(angle)};
  }
  return twiddles;
}

FftPlan::FftPlan(int64_t n, bool inverse)
    : n_(n), inverse_(inverse), power_of_two_(IsPowerOfTwo(n)) {
  if (power_of_two_) {
    twiddles_ = Twiddles(n, inverse);
    return;
  }
  m_ = 1;
  while (m_ < 2 * n - 1) m_ <<= 1;
  twiddles_ = Twiddles(m_, false);
  inverse_twiddles_ = Twiddles(m_, true);
  const double sign = inverse ? 1.0 : -1.0;
  chirp_.resize(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k) {
    // k^2 mod 2n keeps the angle small and exact for large k.
    const int64_t k2 = (k * k) % (2 * n);
    const double angle = sign * std::numbers::pi * static_cast<double>(k2) / static_cast<double>(n);
    chirp_[k] = {std::cos(angle), std::sin(angle)};
  }
  filter_.assign(static_cast<size_t>(m_), {0.0, 0.0});
  filter_[0] = std::conj(chirp_[0]);
  for (int64_t k = 1; k < n; ++k) {
    filter_[k] = std::conj(chirp_[k]);
    filter_[m_ - k] = std::conj(chirp_[k]);
  }
  Radix2(filter_.data(), m_, twiddles_);
}

size_t FftPlan::ScratchSize() const { return power_of_two_ ? 0 : static_cast<size_t>(m_); }

void FftPlan::Radix2(std::complex<double>* data, int64_t n,
                     const std::vector<std::complex<double>>& twiddles) {
  for (int64_t i = 1, j = 0; i < n; ++i) {
    int64_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) std::swap(data[i], data[j]);
  }
  for (int64_t length = 2; length <= n; length <<= 1) {
    const int64_t half = length / 2;
    const int64_t stride = n / length;
    for (int64_t start = 0; start < n; start += length) {
      for (int64_t k = 0; k < half; ++k) {
        const std::complex<double> t = twiddles[k * stride] * data[start + k + half];
        data[start + k + half] = data[start + k] - t;
        data[start + k] += t;
      }
    }
  }
}

void FftPlan::Transform(std::complex<double>* data, std::complex<double>* scratch) const {
  if (power_of_two_) {
    Radix2(data, n_, twiddles_);
  } else {
    // X[k] = w[k] * sum_j (x[j] w[j]) conj(w[k - j]): a convolution done with power-of-two FFTs.
    for (int64_t j = 0; j < n_; ++j) scratch[j] = data[j] * chirp_[j];
    for (int64_t j = n_; j < m_; ++j) scratch[j] = {0.0, 0.0};
    Radix2(scratch, m_, twiddles_);
    for (int64_t j = 0; j < m_; ++j) scratch[j] *= filter_[j];
    Radix2(scratch, m_, inverse_twiddles_);
    const double scale = 1.0 / static_cast<double>(m_);
    for (int64_t k = 0; k < n_; ++k) data[k] = scratch[k] * scale * chirp_[k];
  }
  if (inverse_) {
    const double scale = 1.0 / static_cast<double>(n_);
    for (int64_t k = 0; k < n_; ++k) data[k] *= scale;
  }
}

}  // namespace ort
