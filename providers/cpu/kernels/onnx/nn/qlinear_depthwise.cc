// DepthwiseByteWeights (qlinear_depthwise.h): the weight layout of DepthwiseRunBytesAvx512Vnni.
#include "providers/cpu/kernels/onnx/nn/qlinear_depthwise.h"

namespace ort {

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
