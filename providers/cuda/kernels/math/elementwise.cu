// Elementwise CUDA kernels: grid-stride loops, computing half values in float.
#include <cuda_fp16.h>

#include "providers/cuda/kernels/common/launch_config.cuh"
#include "providers/cuda/kernels/math/elementwise_launch.h"

namespace ort::cuda {
namespace {

template <typename T>
__device__ float Load(const T* p, int64_t i) {
  return static_cast<float>(p[i]);
}
template <typename T>
__device__ void Store(T* p, int64_t i, float v) {
  p[i] = static_cast<T>(v);
}

// Squaring (variances in decomposed normalizations) needs no pow. powf is __powf under
// --use_fast_math, exp2(b * log2(a)): NaN for every negative base (the x^3 of tanh-approximated
// GELU) and for 0^0; the double pow keeps the C standard's special cases.
__device__ float Power(float a, float b) {
  if (b == 2.0f) return a * a;
  return static_cast<float>(pow(static_cast<double>(a), static_cast<double>(b)));
}

template <BinaryOp kOp>
__device__ float ApplyBinary(float a, float b) {
  if constexpr (kOp == BinaryOp::kAdd) {
    return a + b;
  } else if constexpr (kOp == BinaryOp::kSub) {
    return a - b;
  } else if constexpr (kOp == BinaryOp::kMul) {
    return a * b;
  } else if constexpr (kOp == BinaryOp::kDiv) {
    return a / b;
  } else {
    return Power(a, b);
  }
}

__device__ float ApplyUnary(UnaryOp op, float x) {
  switch (op) {
    case UnaryOp::kRelu:
      return x < 0.0f ? 0.0f : x;
    case UnaryOp::kSigmoid:
      return 1.0f / (1.0f + expf(-x));
    case UnaryOp::kTanh:
      return tanhf(x);
    case UnaryOp::kExp:
      return expf(x);
    case UnaryOp::kLog:
      return logf(x);
    case UnaryOp::kNeg:
      return -x;
    case UnaryOp::kAbs:
      return fabsf(x);
    case UnaryOp::kSqrt:
      return sqrtf(x);
    case UnaryOp::kErf:
      return erff(x);
    case UnaryOp::kReciprocal:
      return 1.0f / x;
  }
  return 0.0f;
}

// The op is a template argument so that Add and Mul do not carry Pow's registers.
template <BinaryOp kOp, typename T>
__global__ void BinarySameShape(const T* a, const T* b, T* out, int64_t count) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < count;
       i += int64_t{gridDim.x} * blockDim.x) {
    Store(out, i, ApplyBinary<kOp>(Load(a, i), Load(b, i)));
  }
}

template <BinaryOp kOp, typename T>
__global__ void BinaryBroadcast(const T* a, const T* b, T* out, int64_t count, BroadcastStrides s) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < count;
       i += int64_t{gridDim.x} * blockDim.x) {
    int64_t rest = i, ia = 0, ib = 0;
    for (int d = s.rank - 1; d >= 0; --d) {
      const int64_t coordinate = rest % s.output_dims[d];
      rest /= s.output_dims[d];
      ia += coordinate * s.a_strides[d];
      ib += coordinate * s.b_strides[d];
    }
    Store(out, i, ApplyBinary<kOp>(Load(a, ia), Load(b, ib)));
  }
}

template <typename T>
__global__ void StridedCopy(const T* src, T* dst, int64_t count, BroadcastStrides s) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < count;
       i += int64_t{gridDim.x} * blockDim.x) {
    int64_t rest = i, offset = 0;
    for (int d = s.rank - 1; d >= 0; --d) {
      offset += rest % s.output_dims[d] * s.a_strides[d];
      rest /= s.output_dims[d];
    }
    dst[i] = src[offset];
  }
}

template <typename T>
__global__ void Gather(const T* data, const int64_t* indices, T* out, int64_t axis, int64_t inner,
                       int64_t count, int64_t total) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < total;
       i += int64_t{gridDim.x} * blockDim.x) {
    const int64_t j = i % inner, q = i / inner % count, o = i / inner / count;
    out[i] = data[(o * axis + indices[q]) * inner + j];
  }
}

template <typename T>
__global__ void Unary(UnaryOp op, const T* x, T* y, int64_t count) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < count;
       i += int64_t{gridDim.x} * blockDim.x) {
    Store(y, i, ApplyUnary(op, Load(x, i)));
  }
}

template <typename T>
__global__ void Clip(const T* x, T* y, int64_t count, float lo, float hi) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < count;
       i += int64_t{gridDim.x} * blockDim.x) {
    const float v = Load(x, i);
    const float low = v < lo ? lo : v;
    Store(y, i, low > hi ? hi : low);
  }
}

template <BinaryOp kOp, typename T>
cudaError_t BinaryOf(const void* a, const void* b, void* out, int64_t count,
                     const BroadcastStrides* strides, cudaStream_t stream) {
  const auto* ta = static_cast<const T*>(a);
  const auto* tb = static_cast<const T*>(b);
  auto* to = static_cast<T*>(out);
  if (strides == nullptr) {
    BinarySameShape<kOp, T><<<Blocks(count), kThreads, 0, stream>>>(ta, tb, to, count);
  } else {
    BinaryBroadcast<kOp, T><<<Blocks(count), kThreads, 0, stream>>>(ta, tb, to, count, *strides);
  }
  return cudaGetLastError();
}

template <typename T>
cudaError_t Binary(BinaryOp op, const void* a, const void* b, void* out, int64_t count,
                   const BroadcastStrides* strides, cudaStream_t stream) {
  switch (op) {
    case BinaryOp::kAdd:
      return BinaryOf<BinaryOp::kAdd, T>(a, b, out, count, strides, stream);
    case BinaryOp::kSub:
      return BinaryOf<BinaryOp::kSub, T>(a, b, out, count, strides, stream);
    case BinaryOp::kMul:
      return BinaryOf<BinaryOp::kMul, T>(a, b, out, count, strides, stream);
    case BinaryOp::kDiv:
      return BinaryOf<BinaryOp::kDiv, T>(a, b, out, count, strides, stream);
    case BinaryOp::kPow:
      return BinaryOf<BinaryOp::kPow, T>(a, b, out, count, strides, stream);
  }
  return cudaErrorInvalidValue;
}

template <typename T>
cudaError_t StridedCopyOf(const void* src, void* dst, int64_t count,
                          const BroadcastStrides& strides, cudaStream_t stream) {
  StridedCopy<T><<<Blocks(count), kThreads, 0, stream>>>(static_cast<const T*>(src),
                                                         static_cast<T*>(dst), count, strides);
  return cudaGetLastError();
}

template <typename T>
cudaError_t GatherOf(const void* data, const int64_t* indices, void* out, int64_t outer,
                     int64_t axis, int64_t inner, int64_t count, cudaStream_t stream) {
  const int64_t total = outer * count * inner;
  if (total == 0) return cudaSuccess;
  Gather<T><<<Blocks(total), kThreads, 0, stream>>>(
      static_cast<const T*>(data), indices, static_cast<T*>(out), axis, inner, count, total);
  return cudaGetLastError();
}

}  // namespace

cudaError_t LaunchBinary(BinaryOp op, ElementKind kind, const void* a, const void* b, void* out,
                         int64_t count, const BroadcastStrides* strides, cudaStream_t stream) {
  if (count == 0) return cudaSuccess;
  return kind == ElementKind::kFloat ? Binary<float>(op, a, b, out, count, strides, stream)
                                     : Binary<__half>(op, a, b, out, count, strides, stream);
}

cudaError_t LaunchStridedCopy(size_t element_size, const void* src, void* dst, int64_t count,
                              const BroadcastStrides& strides, cudaStream_t stream) {
  if (count == 0) return cudaSuccess;
  switch (element_size) {
    case 1:
      return StridedCopyOf<uint8_t>(src, dst, count, strides, stream);
    case 2:
      return StridedCopyOf<uint16_t>(src, dst, count, strides, stream);
    case 4:
      return StridedCopyOf<uint32_t>(src, dst, count, strides, stream);
    case 8:
      return StridedCopyOf<uint64_t>(src, dst, count, strides, stream);
    default:
      return cudaErrorInvalidValue;
  }
}

cudaError_t LaunchGather(size_t element_size, const void* data, const int64_t* indices, void* out,
                         int64_t outer, int64_t axis, int64_t inner, int64_t count,
                         cudaStream_t stream) {
  switch (element_size) {
    case 1:
      return GatherOf<uint8_t>(data, indices, out, outer, axis, inner, count, stream);
    case 2:
      return GatherOf<uint16_t>(data, indices, out, outer, axis, inner, count, stream);
    case 4:
      return GatherOf<uint32_t>(data, indices, out, outer, axis, inner, count, stream);
    case 8:
      return GatherOf<uint64_t>(data, indices, out, outer, axis, inner, count, stream);
    default:
      return cudaErrorInvalidValue;
  }
}

cudaError_t LaunchUnary(UnaryOp op, ElementKind kind, const void* x, void* y, int64_t count,
                        cudaStream_t stream) {
  if (count == 0) return cudaSuccess;
  if (kind == ElementKind::kFloat) {
    Unary<float><<<Blocks(count), kThreads, 0, stream>>>(op, static_cast<const float*>(x),
                                                         static_cast<float*>(y), count);
  } else {
    Unary<__half><<<Blocks(count), kThreads, 0, stream>>>(op, static_cast<const __half*>(x),
                                                          static_cast<__half*>(y), count);
  }
  return cudaGetLastError();
}

cudaError_t LaunchClip(ElementKind kind, const void* x, void* y, int64_t count, float lo, float hi,
                       cudaStream_t stream) {
  if (count == 0) return cudaSuccess;
  if (kind == ElementKind::kFloat) {
    Clip<float><<<Blocks(count), kThreads, 0, stream>>>(static_cast<const float*>(x),
                                                        static_cast<float*>(y), count, lo, hi);
  } else {
    Clip<__half><<<Blocks(count), kThreads, 0, stream>>>(static_cast<const __half*>(x),
                                                         static_cast<__half*>(y), count, lo, hi);
  }
  return cudaGetLastError();
}

}  // namespace ort::cuda
