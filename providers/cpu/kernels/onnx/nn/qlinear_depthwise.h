// Output pixels of a depthwise 8-bit convolution in channels-last layout, written for AVX-512:
// each block of up to 64 channels keeps its int32 sums in registers across the taps and is
// requantized there, where the generic loop (qlinear_conv.cc) streams its sums through memory
// once per tap.
#pragma once

#include <cstdint>
#include <vector>

namespace ort {

/// `pixels` consecutive output pixels that read the same taps: pixel i reads, for each tap t,
/// the channels at origin + i * step + offsets[t] (in elements of X) times weights[t].
struct DepthwiseRun {
  const void* origin = nullptr;
  int64_t step = 0;
  int64_t pixels = 0;
  const int64_t* offsets = nullptr;
  // Per tap: the weights minus their zero points (within +-255) as int16 in the low half of
  // each int32, the high half zero.
  const int32_t* const* weights = nullptr;
  int64_t taps = 0;
  int64_t channels = 0;      // computed per pixel, from each pointer on
  int64_t pixel_stride = 0;  // elements between one output pixel and the next
  // Per channel: the bias minus x_zero times the sum of the run's tap weights, so that the kernel
  // multiplies the inputs as they are (every pixel of a run reads the same taps).
  const int32_t* start = nullptr;
  const float* multipliers = nullptr;
  int32_t y_zero = 0;
  void* out = nullptr;  // the first output pixel's first channel to compute
  // For DepthwiseRunBytesAvx512Vnni only: per tap, the weights of each block of 64 channels as
  // four 64-byte registers, register j's 32-bit lane i holding channel 4i + j's weight (minus its
  // zero point, within int8) in byte j and zeros in the other bytes (DepthwiseByteWeights).
  const uint8_t* const* byte_weights = nullptr;
};

/// The bytes of DepthwiseRun::byte_weights for `weights` [taps][channels] (minus zero points):
/// `taps` runs of ceil(channels / 64) blocks of 256 bytes. Empty when a weight is outside int8.
std::vector<uint8_t> DepthwiseByteWeights(const int32_t* weights, int64_t taps, int64_t channels);

/// `values` of `channels` channels in the order DepthwiseRunBytesAvx512Vnni reads its per-channel
/// parameters (start, multipliers): within each block of 64, index 16j + i holds channel 4i + j;
/// zeros past the last channel to a whole block.
template <typename T>
void InterleaveDepthwiseChannels(const T* values, int64_t channels, std::vector<T>& out) {
  out.assign(static_cast<size_t>((channels + 63) / 64 * 64), T{});
  for (int64_t block = 0; block < channels; block += 64) {
    for (int64_t lane = 0; lane < 16; ++lane) {
      for (int64_t reg = 0; reg < 4; ++reg) {
        const int64_t c = block + 4 * lane + reg;
        if (c < channels) out[static_cast<size_t>(block + 16 * reg + lane)] = values[c];
      }
    }
  }
}

/// Computes `run` for int8 (`x_signed`) or uint8 X and int8 (`y_signed`) or uint8 Y, exactly as
/// RequantizeRow rounds (qgemm.h). Only where HasAvx512BwVl().
void DepthwiseRunAvx512(const DepthwiseRun& run, bool x_signed, bool y_signed);
/// DepthwiseRunAvx512 with VNNI's multiply-add; only where AVX-512 VNNI is present too.
void DepthwiseRunAvx512Vnni(const DepthwiseRun& run, bool x_signed, bool y_signed);

/// `run` for uint8 X, from `byte_weights`, with `start` and `multipliers`
/// interleaved (InterleaveDepthwiseChannels): one VPDPBUSD multiplies 16 channels' bytes as they
/// lie in X, where DepthwiseRunAvx512Vnni first widens them to 32 bits; and two to four pixels
/// at a time keep enough sums in flight to cover the instruction's latency. AVX-512 VNNI only.
void DepthwiseRunBytesAvx512Vnni(const DepthwiseRun& run, bool y_signed);

}  // namespace ort
