// One image of an NCHWc convolution on one thread, as the Conv kernel runs it: every filter-block
// group's rows through conv_row, but for the rows whose taps read no padding, which run through
// conv_pixels in runs of kNchwcRunPixels when `across_rows`. Shared by ort-kernel-bench and
// ort-conv-pair, so that both time what the Conv kernel does.
#pragma once

#include <algorithm>
#include <cstdint>

#include "providers/cpu/kernels/contrib/nchwc/nchwc_conv_kernel.h"

namespace ort::bench {

inline void RunNchwcConvImage(const NchwcConvKernels& kernels, const NchwcConvArgs& a,
                              bool across_rows, float* scratch) {
  int64_t lo = a.out_h, hi = a.out_h;
  if (across_rows && kernels.runs_across_rows) NchwcInteriorRows(a, lo, hi);
  const int64_t per_call = NchwcFilterBlocksPerCall(kernels, a);
  for (int64_t g = 0; g < NchwcFilterBlockGroups(kernels, a.out_blocks, per_call); ++g) {
    const int64_t ob = g * per_call;
    const int64_t count = NchwcFilterBlocksOfGroup(kernels, a.out_blocks, per_call, g);
    for (int64_t oh = 0; oh < a.out_h; ++oh) {
      if (oh == lo && hi > lo) {
        for (int64_t p = lo * a.out_w; p < hi * a.out_w; p += kNchwcRunPixels) {
          kernels.conv_pixels(a, 0, ob, count, p, std::min(hi * a.out_w, p + kNchwcRunPixels));
        }
        oh = hi - 1;
        continue;
      }
      kernels.conv_row(a, 0, ob, count, oh, 0, a.out_w, scratch);
    }
  }
}

}  // namespace ort::bench
