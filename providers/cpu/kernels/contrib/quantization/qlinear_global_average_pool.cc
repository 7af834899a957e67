// com.microsoft QLinearGlobalAveragePool: the mean of each image's channel over its spatial
// dims, of 8-bit X (x_scale, x_zero_point) requantized to y_scale and y_zero_point; channels
// first ([N, C, spatial...] -> [N, C, 1...]) or, with channels_last = 1, last ([N, spatial...,
// C] -> [N, 1..., C]). The integer sum is exact; mean and requantization are one product in
// double, rounded half to even: quantize(mean(dequantize(x))) without the float mean's rounding.
#include <algorithm>
#include <cmath>
#include <limits>

#include "providers/cpu/kernels/common/vectorize.h"
#include "providers/cpu/kernels/contrib/quantization/contrib_quantization_kernels.h"
#include "providers/cpu/kernels/onnx/nn/conv_integer.h"
#include "providers/cpu/kernels/onnx/nn/float_params.h"

namespace ort {
namespace {

// round((sum - count x_zero) x_scale / (count y_scale)) + y_zero, saturated: the zero point
// added after rounding, as QuantizeLinear does.
template <typename T>
T Requantize(int64_t sum, int64_t count, int32_t x_zero, double factor, int32_t y_zero) {
  const double q = std::nearbyint(static_cast<double>(sum - count * x_zero) * factor) + y_zero;
  return static_cast<T>(std::clamp(q, static_cast<double>(std::numeric_limits<T>::min()),
                                   static_cast<double>(std::numeric_limits<T>::max())));
}

class QLinearGlobalAveragePool final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(const int64_t channels_last,
                         info.GetAttributeOr<int64_t>("channels_last", 0));
    channels_last_ = channels_last != 0;
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    const Tensor* in[5];
    for (size_t i = 0; i < 5; ++i) {
      if (i == 2 || i == 4) {
        in[i] = context.Input(i);
        continue;
      }
      ORT_ASSIGN_OR_RETURN(in[i], context.RequiredInput(i));
    }
    const Tensor& x = *in[0];
    const TensorShape& xs = x.shape();
    if (xs.rank() < 3) return context.Error("X {} must have rank 3 or more", x.Describe());
    if (in[1]->NumElements() != 1 || in[3]->NumElements() != 1) {
      return context.Error("x_scale and y_scale must be scalars");
    }
    ORT_ASSIGN_OR_RETURN(const std::vector<float> x_scale, ReadFloatParams<float>(*in[1]));
    ORT_ASSIGN_OR_RETURN(const std::vector<float> y_scale, ReadFloatParams<float>(*in[3]));
    const size_t channel_axis = channels_last_ ? xs.rank() - 1 : 1;
    const int64_t batch = xs[0], channels = xs[channel_axis];
    int64_t spatial = 1;
    std::vector<int64_t> y_dims(xs.rank(), 1);
    for (size_t d = 1; d < xs.rank(); ++d) {
      if (d != channel_axis) spatial *= xs[d];
    }
    y_dims[0] = batch;
    y_dims[channel_axis] = channels;
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, x.dtype(), TensorShape(y_dims)));
    if (y->NumElements() == 0) return Status::OK();
    if (spatial == 0) return context.Error("X {} has no spatial elements to average", x.Describe());
    ORT_ASSIGN_OR_RETURN(const std::vector<int32_t> x_zero,
                         ReadZeroPoints(context, in[2], x.dtype(), 1, "x_zero_point"));
    ORT_ASSIGN_OR_RETURN(const std::vector<int32_t> y_zero,
                         ReadZeroPoints(context, in[4], x.dtype(), 1, "y_zero_point"));
    const int32_t zeros[2] = {x_zero[0], y_zero[0]};
    return DispatchByType<QuantTypes>(x.dtype(), "QLinearGlobalAveragePool", [&]<typename T>() {
      const double factor = static_cast<double>(x_scale[0]) /
                            (static_cast<double>(spatial) * static_cast<double>(y_scale[0]));
      const T* data = x.Data<T>();
      T* out = y->MutableData<T>();
      if (!channels_last_) {
        VectorizedParallelFor(context.thread_pool(), batch * channels, static_cast<double>(spatial),
                              [&](int64_t begin, int64_t end) {
                                for (int64_t row = begin; row < end; ++row) {
                                  const T* plane = data + row * spatial;
                                  int64_t sum = 0;
                                  for (int64_t i = 0; i < spatial; ++i) sum += plane[i];
                                  out[row] =
                                      Requantize<T>(sum, spatial, zeros[0], factor, zeros[1]);
                                }
                              });
        return Status::OK();
      }
      VectorizedParallelFor(context.thread_pool(), batch, static_cast<double>(spatial * channels),
                            [&](int64_t begin, int64_t end) {
                              // int32 per channel is exact for 2^23 pixels; larger images add in
                              // int64 chunks.
                              constexpr int64_t kChunk = int64_t{1} << 23;
                              std::vector<int32_t> partial(static_cast<size_t>(channels));
                              std::vector<int64_t> sums(static_cast<size_t>(channels));
                              for (int64_t n = begin; n < end; ++n) {
                                std::fill(sums.begin(), sums.end(), 0);
                                for (int64_t p0 = 0; p0 < spatial; p0 += kChunk) {
                                  std::fill(partial.begin(), partial.end(), 0);
                                  const int64_t p1 = std::min(spatial, p0 + kChunk);
                                  for (int64_t p = p0; p < p1; ++p) {
                                    const T* pixel = data + (n * spatial + p) * channels;
                                    int32_t* acc = partial.data();
                                    for (int64_t c = 0; c < channels; ++c) acc[c] += pixel[c];
                                  }
                                  for (int64_t c = 0; c < channels; ++c) sums[c] += partial[c];
                                }
                                for (int64_t c = 0; c < channels; ++c) {
                                  out[n * channels + c] =
                                      Requantize<T>(sums[c], spatial, zeros[0], factor, zeros[1]);
                                }
                              }
                            });
      return Status::OK();
    });
  }

 private:
  bool channels_last_ = false;
};

}  // namespace

void RegisterQLinearGlobalAveragePoolKernels(KernelRegistry& registry) {
  registry.Add<QLinearGlobalAveragePool>(
      KernelDef("QLinearGlobalAveragePool", std::string(kMsDomain))
          .Versions(1)
          .Input(0, QuantTypes::DataTypes()));
}

}  // namespace ort
