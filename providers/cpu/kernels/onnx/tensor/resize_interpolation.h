// The interpolation behind Resize and Upsample: per-axis coordinate transforms, nearest index
// maps and linear/cubic (optionally antialiased) filter taps, applied one axis at a time. The
// formulas follow the ONNX operator spec and its numpy reference.
#pragma once

#include <cstdint>
#include <vector>

#include "lib/common/status.h"
#include "lib/ir/tensor.h"
#include "lib/threading/thread_pool.h"

namespace ort {

enum class ResizeMode { kNearest, kLinear, kCubic };

enum class CoordinateMode {
  kHalfPixel,
  kHalfPixelSymmetric,
  kPytorchHalfPixel,
  kAlignCorners,
  kAsymmetric,
  kTfHalfPixelForNn,
  kTfCropAndResize,
};

// kSimple is the rounding of Resize-10 and Upsample: floor when upsampling, ceil when
// downsampling.
enum class NearestMode { kRoundPreferFloor, kRoundPreferCeil, kFloor, kCeil, kSimple };

struct ResizeOptions {
  ResizeMode mode = ResizeMode::kNearest;
  CoordinateMode coordinate = CoordinateMode::kHalfPixel;
  NearestMode nearest = NearestMode::kRoundPreferFloor;
  double cubic_a = -0.75;
  bool exclude_outside = false;
  bool antialias = false;
  float extrapolation_value = 0.0f;
};

/// One axis of a resize.
struct ResizeAxis {
  int64_t in = 1;
  int64_t out = 1;
  double scale = 1.0;       // of the coordinate transform
  double out_length = 1.0;  // scale * in, or the requested size (the spec's length_resized)
  double roi_start = 0.0;   // tf_crop_and_resize box, in normalized input coordinates
  double roi_end = 1.0;
};

/// The input coordinate output index `x` maps to.
double OriginalCoordinate(const ResizeOptions& options, const ResizeAxis& axis, int64_t x);

/// For nearest mode: the input index each output index reads, or -1 where tf_crop_and_resize
/// extrapolates.
std::vector<int64_t> NearestIndexMap(const ResizeOptions& options, const ResizeAxis& axis);

/// Resizes `input` into the allocated `output` (linear or cubic; numeric types).
Status Interpolate(const ResizeOptions& options, const std::vector<ResizeAxis>& axes,
                   const Tensor& input, Tensor& output, ThreadPool* pool);

}  // namespace ort
