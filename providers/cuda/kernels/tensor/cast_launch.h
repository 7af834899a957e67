// Launcher of Cast (cast.cu): plain types only, so that the host code calling it needs no CUDA
// compiler.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace ort::cuda {

/// The element types the CUDA Cast converts between: every numeric type and bool.
enum class CastType {
  kFloat,
  kDouble,
  kHalf,
  kBFloat16,
  kInt8,
  kInt16,
  kInt32,
  kInt64,
  kUint8,
  kUint16,
  kUint32,
  kUint64,
  kBool
};

/// y[i] = x[i] converted from `from` to `to` (different types) for `count` elements, as the CPU
/// Cast does: float -> integer truncates toward zero, wraps beyond the target's range (through
/// int64, which saturates) and maps NaN to 0; -> bool is x != 0; -> float16/bfloat16 rounds once
/// to nearest even.
cudaError_t LaunchCast(CastType from, CastType to, const void* x, void* y, int64_t count,
                       cudaStream_t stream);

}  // namespace ort::cuda
