// The int32 products of 8-bit matrices with zero points, batched as numpy.matmul: what
// MatMulInteger returns and what QLinearMatMul and com.microsoft MatMulIntegerToFloat scale.
#pragma once

#include "lib/framework/op_kernel.h"
#include "providers/common/math/matmul_shape.h"
#include "providers/cpu/kernels/common/qgemm.h"

namespace ort {

/// The int32 products of every batch of matmul(a - a_zero, b - b_zero) laid out as the plan's
/// output, the zero points (absent, one value, or one per row of A / column of B, of their
/// operand's type) checked here. `packed_b` (B packed at session start, or null) serves when
/// every batch reads that one matrix; `out` may then be null if `done` takes each block, which
/// it sees once final, on the thread that computed it, with rows counted across batches.
Status IntegerProducts(KernelContext& context, const Tensor& a, const Tensor& b,
                       const Tensor* a_zero, const Tensor* b_zero, const MatMulPlan& plan,
                       const PackedQgemmB* packed_b, int32_t* out,
                       const QgemmBlockDone& done = nullptr);

}  // namespace ort
