// The host side of the 8-bit depthwise kernels (qlinear_depthwise.h): their weight layouts and
// the folded starts of each set of taps in bounds.
#include "providers/cpu/kernels/onnx/nn/qlinear_depthwise.h"

#include <algorithm>
#include <map>
#include <utility>

#include "lib/common/cpu_info.h"
#include "providers/cpu/kernels/common/vectorize.h"

namespace ort {
namespace {

/// The taps [first, last] of a window along one axis that lie inside the input, for each of
/// `outputs` positions, numbered as first met: returns each position's number, and `ranges`
/// gets the distinct ranges (first > last when none is inside).
std::vector<size_t> TapRanges(int64_t outputs, int64_t input, int64_t kernel, int64_t stride,
                              int64_t pad, int64_t dilation,
                              std::vector<std::pair<int64_t, int64_t>>& ranges) {
  std::map<std::pair<int64_t, int64_t>, size_t> numbers;
  std::vector<size_t> result;
  for (int64_t o = 0; o < outputs; ++o) {
    int64_t first = kernel, last = -1;
    for (int64_t k = 0; k < kernel; ++k) {
      const int64_t i = o * stride - pad + k * dilation;
      if (i < 0 || i >= input) continue;
      first = std::min(first, k);
      last = k;
    }
    const auto [it, added] = numbers.try_emplace({first, last}, ranges.size());
    if (added) ranges.emplace_back(first, last);
    result.push_back(it->second);
  }
  return result;
}

template <typename TW>
DepthwiseFilters WeightsOf(const TW* w, std::span<const int32_t> w_zero, int64_t channels,
                           int64_t taps) {
  DepthwiseFilters filters;
  std::vector<int32_t>& weights = filters.halves;
  weights.resize(static_cast<size_t>(taps * channels));
  for (int64_t c = 0; c < channels; ++c) {
    const int32_t zero = w_zero.size() == 1 ? w_zero[0] : w_zero[c];
    for (int64_t t = 0; t < taps; ++t) weights[t * channels + c] = w[c * taps + t] - zero;
  }
  if (HasAvx512BwVl() && GetCpuFeatures().avx512_vnni) {
    filters.bytes = DepthwiseByteWeights(weights.data(), taps, channels);
  }
  if (HasAvx512BwVl()) {
    for (int32_t& weight : weights) weight = static_cast<uint16_t>(weight);
  }
  return filters;
}

}  // namespace

/// DepthwiseStarts of an image of `g` over `channels` (weights as DepthwiseWeights' halves).
DepthwiseStarts FoldDepthwiseStarts(const WindowGeometry& g, int64_t channels,
                                    const std::vector<int32_t>& weights,
                                    const std::vector<int32_t>& start, int32_t x_zero,
                                    bool interleaved, const std::vector<float>& multipliers) {
  DepthwiseStarts starts;
  starts.interleaved = interleaved;
  if (interleaved) {
    InterleaveDepthwiseChannels(multipliers.data(), channels, starts.interleaved_multipliers);
  }
  const int64_t k_w = g.kernel[1];
  std::vector<std::pair<int64_t, int64_t>> rows, columns;
  starts.row_set = TapRanges(g.output[0], g.input[0], g.kernel[0], g.strides[0], g.pads[0],
                             g.dilations[0], rows);
  starts.column_set =
      TapRanges(g.output[1], g.input[1], k_w, g.strides[1], g.pads[1], g.dilations[1], columns);
  starts.column_sets = columns.size();
  std::vector<int32_t> sums(static_cast<size_t>(channels)), folded(sums.size());
  for (const auto& [first_row, last_row] : rows) {
    for (const auto& [first_column, last_column] : columns) {
      const int64_t row_begin = first_row, row_end = last_row + 1;
      const int64_t column_begin = first_column, column_end = last_column + 1;
      // At the widest vectors: this runs on every call, for up to nine sets of taps.
      Vectorized([&] {
        std::fill(sums.begin(), sums.end(), 0);
        for (int64_t ky = row_begin; ky < row_end; ++ky) {
          for (int64_t kx = column_begin; kx < column_end; ++kx) {
            const int32_t* tap = weights.data() + (ky * k_w + kx) * channels;
            for (int64_t c = 0; c < channels; ++c) sums[c] += static_cast<int16_t>(tap[c]);
          }
        }
        for (int64_t c = 0; c < channels; ++c) {
          folded[c] =
              static_cast<int32_t>(static_cast<uint32_t>(start[c]) -
                                   static_cast<uint32_t>(x_zero) * static_cast<uint32_t>(sums[c]));
        }
      });
      starts.folded.emplace_back();
      if (interleaved) {
        InterleaveDepthwiseChannels(folded.data(), channels, starts.folded.back());
      } else {
        starts.folded.back() = folded;
      }
    }
  }
  return starts;
}

DepthwiseFilters DepthwiseWeights(const Tensor& w, std::span<const int32_t> w_zero,
                                  int64_t channels, int64_t taps) {
  if (w.dtype() == DataType::kInt8) return WeightsOf(w.Data<int8_t>(), w_zero, channels, taps);
  return WeightsOf(w.Data<uint8_t>(), w_zero, channels, taps);
}

/// DepthwiseWeights of W (input 3) when it and its zero point (input 5) are constants of a 2-D
/// depthwise convolution of `group` channels; empty otherwise (computed per call).
DepthwiseFilters ConstantDepthwiseWeights(const KernelInfo& info, int64_t group) {
  const Tensor* w = info.ConstantInput(3);
  const Tensor* zero = info.ConstantInput(5);
  if (w == nullptr || zero == nullptr || w->shape().rank() != 4 || w->shape()[0] != group ||
      w->shape()[1] != 1 || zero->dtype() != w->dtype() ||
      (zero->NumElements() != 1 && zero->NumElements() != group)) {
    return {};
  }
  const int64_t taps = w->shape()[2] * w->shape()[3];
  std::vector<int32_t> zeros(static_cast<size_t>(zero->NumElements()));
  if (w->dtype() == DataType::kInt8) {
    for (size_t i = 0; i < zeros.size(); ++i) zeros[i] = zero->Data<int8_t>()[i];
    return DepthwiseWeights(*w, zeros, group, taps);
  }
  if (w->dtype() != DataType::kUint8) return {};
  for (size_t i = 0; i < zeros.size(); ++i) zeros[i] = zero->Data<uint8_t>()[i];
  return DepthwiseWeights(*w, zeros, group, taps);
}

std::vector<uint8_t> DepthwiseByteWeights(const int32_t* weights, int64_t taps, int64_t channels) {
  const int64_t blocks = (channels + 63) / 64;
  std::vector<uint8_t> bytes(static_cast<size_t>(taps * blocks * 256), 0);
  for (int64_t t = 0; t < taps; ++t) {
    for (int64_t c = 0; c < channels; ++c) {
      const int32_t weight = weights[t * channels + c];
      if (weight < -128 || weight > 127) return {};
      // Block, register j = c % 4, lane i = (c % 64) / 4, byte j of the lane.
      const int64_t at = (t * blocks + c / 64) * 256 + (c % 4) * 64 + (c % 64) / 4 * 4 + c % 4;
      bytes[static_cast<size_t>(at)] = static_cast<uint8_t>(static_cast<int8_t>(weight));
    }
  }
  return bytes;
}

}  // namespace ort
