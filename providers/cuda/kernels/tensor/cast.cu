// Cast on the GPU: one grid-stride kernel per (from, to) pair of CastType's types.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <type_traits>

#include "providers/cuda/kernels/common/launch_config.cuh"
#include "providers/cuda/kernels/tensor/cast_launch.h"

namespace ort::cuda {
namespace {

template <typename T>
constexpr bool kIs16BitFloat = std::is_same_v<T, __half> || std::is_same_v<T, __nv_bfloat16>;

// The 16-bit floats as float (exactly), anything else as it is. (__half and __nv_bfloat16 also
// convert straight to integers, but without the CPU's NaN and range rules.)
template <typename T>
__device__ auto Widen(T value) {
  if constexpr (kIs16BitFloat<T>) {
    return static_cast<float>(value);
  } else {
    return value;
  }
}

// The CPU's DoubleToInteger for float or double, without undefined behaviour: truncation toward
// zero, NaN to 0, beyond the range of I wrapping modulo 2^bits through int64, which saturates.
template <typename I, typename F>
__device__ I FloatToInteger(F value) {
  constexpr F kTwo63 = static_cast<F>(9223372036854775808.0);
  if (!(value == value)) return 0;
  if constexpr (std::is_same_v<I, uint64_t>) {
    if (value >= kTwo63) return value >= 2 * kTwo63 ? UINT64_MAX : static_cast<uint64_t>(value);
  }
  int64_t wide;
  if (value <= -kTwo63) {
    wide = INT64_MIN;
  } else if (value >= kTwo63) {
    wide = INT64_MAX;
  } else {
    wide = static_cast<int64_t>(value);
  }
  return static_cast<I>(wide);
}

// Integers beyond 2^24 round inexactly to float, and again to bfloat16 from there: those convert
// in one rounding.
template <typename I>
__device__ __nv_bfloat16 IntegerToBFloat16(I value) {
  if constexpr (std::is_same_v<I, int64_t>) {
    return __ll2bfloat16_rn(value);
  } else if constexpr (std::is_same_v<I, uint64_t>) {
    return __ull2bfloat16_rn(value);
  } else if constexpr (std::is_same_v<I, int32_t>) {
    return __int2bfloat16_rn(value);
  } else if constexpr (std::is_same_v<I, uint32_t>) {
    return __uint2bfloat16_rn(value);
  } else {
    return __nv_bfloat16(static_cast<float>(value));
  }
}

template <typename From, typename To>
__device__ To Convert(From value) {
  if constexpr (std::is_same_v<To, bool>) {
    return Widen(value) != 0;
  } else if constexpr (std::is_same_v<From, bool>) {
    return Convert<uint8_t, To>(value ? 1 : 0);
  } else if constexpr (std::is_same_v<From, double> && std::is_same_v<To, __half>) {
    return __double2half(value);
  } else if constexpr (std::is_same_v<From, double> && std::is_same_v<To, __nv_bfloat16>) {
    return __double2bfloat16(value);
  } else if constexpr (std::is_integral_v<From> && std::is_same_v<To, __nv_bfloat16>) {
    return IntegerToBFloat16(value);
  } else if constexpr (kIs16BitFloat<To>) {
    // Through float: exact from the 16-bit floats; an integer rounds to float only beyond 2^24,
    // which is infinite in float16 either way.
    return To(static_cast<float>(Widen(value)));
  } else if constexpr (std::is_integral_v<To> && !std::is_integral_v<From>) {
    return FloatToInteger<To>(Widen(value));
  } else {
    return static_cast<To>(Widen(value));
  }
}

template <typename From, typename To>
__global__ void CastKernel(const From* x, To* y, int64_t count) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < count;
       i += int64_t{gridDim.x} * blockDim.x) {
    y[i] = Convert<From, To>(x[i]);
  }
}

template <typename T>
struct Tag {
  using Type = T;
};

// fn(Tag<T>{}) with T the C++ type of `type`.
template <typename Fn>
cudaError_t Dispatch(CastType type, Fn&& fn) {
  switch (type) {
    case CastType::kFloat:
      return fn(Tag<float>{});
    case CastType::kDouble:
      return fn(Tag<double>{});
    case CastType::kHalf:
      return fn(Tag<__half>{});
    case CastType::kBFloat16:
      return fn(Tag<__nv_bfloat16>{});
    case CastType::kInt8:
      return fn(Tag<int8_t>{});
    case CastType::kInt16:
      return fn(Tag<int16_t>{});
    case CastType::kInt32:
      return fn(Tag<int32_t>{});
    case CastType::kInt64:
      return fn(Tag<int64_t>{});
    case CastType::kUint8:
      return fn(Tag<uint8_t>{});
    case CastType::kUint16:
      return fn(Tag<uint16_t>{});
    case CastType::kUint32:
      return fn(Tag<uint32_t>{});
    case CastType::kUint64:
      return fn(Tag<uint64_t>{});
    case CastType::kBool:
      return fn(Tag<bool>{});
  }
  return cudaErrorInvalidValue;
}

}  // namespace

cudaError_t LaunchCast(CastType from, CastType to, const void* x, void* y, int64_t count,
                       cudaStream_t stream) {
  if (count == 0) return cudaSuccess;
  const unsigned grid = Blocks(count);
  return Dispatch(from, [&](auto from_tag) {
    return Dispatch(to, [&](auto to_tag) {
      using From = typename decltype(from_tag)::Type;
      using To = typename decltype(to_tag)::Type;
      if constexpr (std::is_same_v<From, To>) {
        return cudaErrorInvalidValue;
      } else {
        CastKernel<From, To><<<grid, kThreads, 0, stream>>>(static_cast<const From*>(x),
                                                            static_cast<To*>(y), count);
        return cudaGetLastError();
      }
    });
  });
}

}  // namespace ort::cuda
