// The 2-D window geometry the NCHWc convolution and pooling kernels share (their argument
// structs derive from it), filled once from a resolved WindowGeometry.
#pragma once

#include <cstdint>

#include "providers/common/nn/window_attributes.h"

namespace ort {

struct NchwcWindow {
  int64_t in_h = 0, in_w = 0, out_h = 0, out_w = 0;
  int64_t k_h = 0, k_w = 0, stride_h = 1, stride_w = 1, dil_h = 1, dil_w = 1;
  int64_t pad_top = 0, pad_left = 0, pad_bottom = 0, pad_right = 0;
};

/// The window of a 2-D geometry (ResolveWindow's result).
inline void SetNchwcWindow(const WindowGeometry& g, NchwcWindow& window) {
  window.in_h = g.input[0];
  window.in_w = g.input[1];
  window.out_h = g.output[0];
  window.out_w = g.output[1];
  window.k_h = g.kernel[0];
  window.k_w = g.kernel[1];
  window.stride_h = g.strides[0];
  window.stride_w = g.strides[1];
  window.dil_h = g.dilations[0];
  window.dil_w = g.dilations[1];
  window.pad_top = g.pads[0];
  window.pad_left = g.pads[1];
  window.pad_bottom = g.pads[2];
  window.pad_right = g.pads[3];
}

}  // namespace ort
