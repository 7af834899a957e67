// Launchers of the device code around cuDNN's convolution (conv.cu): zero padding for the
// asymmetric pads cuDNN cannot express, and the epilogue adding the bias and applying
// FusedConv's activation.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "providers/cuda/kernels/math/elementwise_launch.h"

namespace ort::cuda {

/// FusedConv's activations (clamp bounds or slopes in alpha, beta).
enum class ConvActivation { kNone, kRelu, kLeakyRelu, kTanh, kSigmoid, kHardSigmoid, kClip };

inline constexpr int kMaxConvSpatialRank = 3;

/// Spatial extents of a padded copy: `input` dims placed at offset `begin` in `output` dims.
struct PadGeometry {
  int rank = 0;
  int64_t input[kMaxConvSpatialRank] = {};
  int64_t output[kMaxConvSpatialRank] = {};
  int64_t begin[kMaxConvSpatialRank] = {};
};

/// y[p] = x[p - begin] inside the input window and 0 elsewhere, for `planes` (N * C) planes.
cudaError_t LaunchPadSpatial(ElementKind kind, const void* x, void* y, int64_t planes,
                             const PadGeometry& geometry, cudaStream_t stream);

/// y[n, c, s] = activation(y[n, c, s] + bias[c]) in place over [batch, channels, spatial];
/// `bias` may be null.
cudaError_t LaunchConvEpilogue(ElementKind kind, void* y, const void* bias, int64_t batch,
                               int64_t channels, int64_t spatial, ConvActivation activation,
                               float alpha, float beta, cudaStream_t stream);

}  // namespace ort::cuda
