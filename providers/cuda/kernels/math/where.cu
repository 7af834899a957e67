// Where on the GPU: a grid-stride loop mapping each output index to the three input offsets.
#include "providers/cuda/kernels/common/launch_config.cuh"
#include "providers/cuda/kernels/math/where_launch.h"

namespace ort::cuda {
namespace {

template <typename T>
__global__ void Where(const bool* condition, const T* x, const T* y, T* out, int64_t count,
                      SelectStrides s) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < count;
       i += int64_t{gridDim.x} * blockDim.x) {
    int64_t rest = i, ic = 0, ix = 0, iy = 0;
    for (int d = s.rank - 1; d > 0; --d) {
      const int64_t coordinate = rest % s.output_dims[d];
      rest /= s.output_dims[d];
      ic += coordinate * s.condition_strides[d];
      ix += coordinate * s.x_strides[d];
      iy += coordinate * s.y_strides[d];
    }
    // What remains is the coordinate along dimension 0: i < count bounds it without a modulo.
    ic += rest * s.condition_strides[0];
    ix += rest * s.x_strides[0];
    iy += rest * s.y_strides[0];
    out[i] = condition[ic] ? x[ix] : y[iy];
  }
}

template <typename T>
cudaError_t WhereOf(const bool* condition, const void* x, const void* y, void* out, int64_t count,
                    const SelectStrides& strides, cudaStream_t stream) {
  Where<T><<<Blocks(count), kThreads, 0, stream>>>(condition, static_cast<const T*>(x),
                                                   static_cast<const T*>(y), static_cast<T*>(out),
                                                   count, strides);
  return cudaGetLastError();
}

}  // namespace

cudaError_t LaunchWhere(size_t element_size, const bool* condition, const void* x, const void* y,
                        void* out, int64_t count, const SelectStrides& strides,
                        cudaStream_t stream) {
  if (count == 0) return cudaSuccess;
  switch (element_size) {
    case 1:
      return WhereOf<uint8_t>(condition, x, y, out, count, strides, stream);
    case 2:
      return WhereOf<uint16_t>(condition, x, y, out, count, strides, stream);
    case 4:
      return WhereOf<uint32_t>(condition, x, y, out, count, strides, stream);
    case 8:
      return WhereOf<uint64_t>(condition, x, y, out, count, strides, stream);
    default:
      return cudaErrorInvalidValue;
  }
}

}  // namespace ort::cuda
