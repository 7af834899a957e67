// Gemm's attributes, shared by the CPU and CUDA kernels.
#pragma once

#include "lib/framework/op_kernel.h"

namespace ort {

/// transA, transB, alpha and beta, with ONNX's defaults.
struct GemmAttributes {
  bool trans_a = false;
  bool trans_b = false;
  float alpha = 1.0f;
  float beta = 1.0f;

  Status Parse(const KernelInfo& info);
};

}  // namespace ort
