// Discrete Fourier transforms of any length for DFT and STFT: iterative radix-2 for powers of
// two, Bluestein's chirp-z algorithm (three power-of-two transforms) for other lengths. Computes
// in double; a plan holds the twiddle factors and is shared read-only between threads.
#pragma once

#include <complex>
#include <cstdint>
#include <vector>

namespace ort {

class FftPlan {
 public:
  /// A plan for length-`n` transforms (n >= 1); `inverse` uses e^{+2 pi i jk/n} and scales by 1/n.
  FftPlan(int64_t n, bool inverse);

  int64_t size() const { return n_; }
  /// Scratch values Transform needs.
  size_t ScratchSize() const;
  /// Transforms `data` (n values) in place.
  void Transform(std::complex<double>* data, std::complex<double>* scratch) const;

 private:
  static std::vector<std::complex<double>> Twiddles(int64_t n, bool inverse);
  static void Radix2(std::complex<double>* data, int64_t n,
                     const std::vector<std::complex<double>>& twiddles);

  int64_t n_;
  bool inverse_;
  bool power_of_two_;
  std::vector<std::complex<double>> twiddles_;  // radix-2 twiddles of size n_ or m_
  // Bluestein: chirp w[k] = e^{-+ pi i k^2 / n} and the transformed conjugate chirp filter.
  int64_t m_ = 0;
  std::vector<std::complex<double>> chirp_;
  std::vector<std::complex<double>> filter_;
  std::vector<std::complex<double>> inverse_twiddles_;
};

}  // namespace ort
