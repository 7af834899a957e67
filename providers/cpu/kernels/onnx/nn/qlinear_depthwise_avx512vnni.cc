// DepthwiseRunAvx512Vnni (qlinear_depthwise.h).
// The standard headers first, so that only the kernel's own functions take the target.
#include <immintrin.h>

#include <algorithm>
#include <limits>
#include <type_traits>

#include "providers/cpu/kernels/onnx/nn/qlinear_depthwise.h"

#include "providers/cpu/kernels/common/isa_target_avx512vnni_begin.inc"

#include "providers/cpu/kernels/onnx/nn/qlinear_depthwise_avx512_impl.h"

namespace ort {

void DepthwiseRunAvx512Vnni(const DepthwiseRun& run, bool x_signed, bool y_signed) {
  RunAnyTypes<true>(run, x_signed, y_signed);
}

}  // namespace ort

#include "providers/cpu/kernels/common/isa_target_end.inc"
