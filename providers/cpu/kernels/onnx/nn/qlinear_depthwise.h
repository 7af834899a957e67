// Output pixels of a depthwise 8-bit convolution in channels-last layout, written for AVX-512:
// each block of up to 64 channels keeps its int32 sums in registers across the taps and is
// requantized there, where the generic loop (qlinear_conv.cc) streams its sums through memory
// once per tap. With them, what QLinearConv prepares for them: the weights in each kernel's
// layout (once, for constant filters) and the starts with the zero-point terms folded in.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include "lib/framework/op_kernel.h"
#include "providers/common/nn/window_attributes.h"

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

struct DepthwiseFilters {
  std::vector<int32_t> halves;
  std::vector<uint8_t> bytes;  // empty where unused
};

/// What each output pixel of a depthwise convolution starts from: per channel, the bias minus
/// x_zero times the sum of the weights of its taps in bounds, so that the kernels multiply the
/// inputs as they are. Pixels share these by the window rows and columns they have in bounds
/// (nine arrays for a padded 3 x 3), in the byte kernel's interleaved order when `interleaved`,
/// whose multipliers are here too.
struct DepthwiseStarts {
  std::vector<std::vector<int32_t>> folded;  // [row set * column sets + column set]
  std::vector<size_t> row_set, column_set;   // per output row, per output column
  size_t column_sets = 0;
  bool interleaved = false;
  std::vector<float> interleaved_multipliers;

  const int32_t* At(int64_t oy, int64_t ox) const {
    return folded[row_set[oy] * column_sets + column_set[ox]].data();
  }
};

/// DepthwiseStarts of an image of `g` over `channels` (weights as DepthwiseWeights' halves).
DepthwiseStarts FoldDepthwiseStarts(const WindowGeometry& g, int64_t channels,
                                    const std::vector<int32_t>& weights,
                                    const std::vector<int32_t>& start, int32_t x_zero,
                                    bool interleaved, const std::vector<float>& multipliers);

/// The last FoldDepthwiseStarts of a kernel whose weights and bias are constants: it changes
/// only with x_zero, the image's size and the multipliers (the scales), which stay the same from
/// call to call, and computing it took a fifth of a 7 x 7 map's convolution, on one thread.
class DepthwiseStartsCache {
 public:
  struct Key {
    int32_t x_zero = 0;
    int64_t height = 0, width = 0;
    bool interleaved = false;
    std::vector<float> multipliers;
    bool operator==(const Key&) const = default;
  };

  template <typename Make>
  std::shared_ptr<const DepthwiseStarts> Get(Key key, const Make& make) const {
    std::lock_guard<std::mutex> lock(mutex_);
    if (value_ == nullptr || !(key == key_)) {
      value_ = std::make_shared<const DepthwiseStarts>(make());
      key_ = std::move(key);
    }
    return value_;
  }

 private:
  mutable std::mutex mutex_;
  mutable Key key_;
  mutable std::shared_ptr<const DepthwiseStarts> value_;
};

/// A depthwise convolution's weights [C, 1, taps...] tap-major, minus their zero points, as the
/// kernels that run here read them: for the AVX-512 ones, which multiply with VPMADDWD or
/// VPDPWSSD, as int16 in the low half of each lane (`halves`); with VNNI also as bytes for
/// DepthwiseRunBytesAvx512Vnni where they fit int8.
DepthwiseFilters DepthwiseWeights(const Tensor& w, std::span<const int32_t> w_zero,
                                  int64_t channels, int64_t taps);

/// DepthwiseWeights of W (input 3) when it and its zero point (input 5) are constants of a 2-D
/// depthwise convolution of `group` channels; empty otherwise (computed per call).
DepthwiseFilters ConstantDepthwiseWeights(const KernelInfo& info, int64_t group);

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
